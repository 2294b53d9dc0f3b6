import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { vulnerabilitySlug } from "@pressguard/domain";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "./client.ts";
import { importPlugins, importVulnerabilities } from "./import.ts";
import {
  CORE_SQLI,
  MODERN_EVENTS_SSRF,
  SMASH_BALLOON_XSS,
  SMASH_BALLOON_XSS_LINE,
  VIDEO_GALLERY_ALL_VERSIONS,
  WEB_DIRECTORY_PLUGIN,
  WEB_DIRECTORY_SQLI,
} from "./import-fixtures.ts";
import { vulnerabilityTypeCodeOf } from "./import-vulnerabilities.ts";
import { openTestDatabase } from "./test-database.ts";

const ALL_RECORDS = [
  SMASH_BALLOON_XSS,
  MODERN_EVENTS_SSRF,
  WEB_DIRECTORY_SQLI,
  VIDEO_GALLERY_ALL_VERSIONS,
  CORE_SQLI,
];
const lines = (...records: unknown[]) => records.map((record) => JSON.stringify(record));

let database: Database;

/** Gives each test of the calling describe block a fresh, empty, migrated database. */
function useFreshDatabase() {
  beforeEach(async () => {
    database = await openTestDatabase();
  });
  afterEach(async () => {
    await database.close();
  });
}

async function rows<Row = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<Row[]> {
  return (await database.sql.query<Row>(text, params)).rows;
}

async function countOf(table: string): Promise<number> {
  const [row] = await rows<{ count: number }>(`select count(*)::int as count from ${table}`);
  return row!.count;
}

async function vulnerability(id: string) {
  const [row] = await rows(
    `select v.*, v.cvss_score::float8 as score, p.kind as product_kind, p.slug as product_slug
     from vulnerabilities v join products p on p.id = v.product_id where v.id = $1`,
    [id],
  );
  return row!;
}

async function rangesOf(id: string) {
  return rows(
    `select p.slug as product_slug, r.position, r.introduced, r.introduced_inclusive, r.fixed, r.last_affected,
       r.prefix, r.version, r.fixed_in
     from affected_ranges r join products p on p.id = r.product_id
     where r.vulnerability_id = $1 order by p.slug, r.position`,
    [id],
  );
}

async function creditsOf(id: string) {
  return rows<{ display_name: string; credit_key: string; position: number; role: string }>(
    `select r.display_name, r.credit_key, c.position, c.role
     from credits c join researchers r on r.id = c.researcher_id
     where c.vulnerability_id = $1 order by c.position`,
    [id],
  );
}

async function product(kind: string, slug: string) {
  const [row] = await rows(
    `select p.*, pl.slug as platform from products p join platforms pl on pl.id = p.platform_id
     where p.kind = $1 and p.slug = $2`,
    [kind, slug],
  );
  return row;
}

describe("importVulnerabilities", () => {
  useFreshDatabase();

  it("imports real seed records with their products, ranges and credits", async () => {
    const summary = await importVulnerabilities(database, lines(...ALL_RECORDS));

    expect(summary).toEqual({
      kind: "vulns",
      read: 5,
      imported: 5,
      inserted: 5,
      updated: 0,
      unchanged: 0,
      rejected: [],
    });
    expect(await countOf("vulnerabilities")).toBe(5);
    expect(await countOf("platforms")).toBe(1);
    // custom-facebook-feed, modern-events-calendar(-lite), web-directory-free, contus-video-gallery, wordpress
    expect(await countOf("products")).toBe(6);
    expect(await countOf("affected_ranges")).toBe(6);
    expect(await countOf("researchers")).toBe(4);
    expect(await countOf("credits")).toBe(4);
  });

  it("maps a record's fields onto the vulnerability row", async () => {
    await importVulnerabilities(database, [SMASH_BALLOON_XSS_LINE]);

    const row = await vulnerability(SMASH_BALLOON_XSS.id);
    expect(row).toMatchObject({
      slug: "smash-balloon-social-post-feed-4-1-reflected-cross-site-scripting-01889c7b",
      title: "Smash Balloon Social Post Feed <= 4.1 - Reflected Cross-Site Scripting",
      description: SMASH_BALLOON_XSS.description,
      type_label: "Reflected Cross-Site Scripting",
      type_code: 2,
      owasp_code: 43,
      required_privilege: null,
      cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N",
      score: 5.4,
      cvss_version: "3.1",
      severity: "medium",
      cve: "CVE-2021-25065",
      cwe: null,
      references: SMASH_BALLOON_XSS.references,
      fixed_in: "4.1.1",
      patched: true,
      affected_possibly_incomplete: false,
      published_at: null,
      source_updated_at: null,
      source: "wordfence-intelligence",
      source_url: SMASH_BALLOON_XSS.source_url,
      attribution: SMASH_BALLOON_XSS.attribution,
      product_kind: "plugin",
      product_slug: "custom-facebook-feed",
    });
    expect(await product("plugin", "custom-facebook-feed")).toMatchObject({
      name: "Smash Balloon Social Post Feed",
      platform: "wordpress",
      vendor_id: null,
      directory_url: null,
    });
    expect(await rangesOf(SMASH_BALLOON_XSS.id)).toEqual([
      {
        product_slug: "custom-facebook-feed",
        position: 0,
        introduced: null,
        introduced_inclusive: true,
        fixed: "4.1.1",
        last_affected: null,
        prefix: "<",
        version: "4.1.1",
        fixed_in: "4.1.1",
      },
    ]);
  });

  it("links a record with several software items to every product", async () => {
    await importVulnerabilities(database, lines(MODERN_EVENTS_SSRF));

    const row = await vulnerability(MODERN_EVENTS_SSRF.id);
    expect(row).toMatchObject({
      product_slug: "modern-events-calendar",
      type_code: 12,
      owasp_code: 50,
      required_privilege: 2,
      severity: "high",
      cwe: "CWE-918",
      patched: false,
    });
    expect((row.published_at as Date).toISOString()).toBe("2024-08-07T11:00:06.000Z");
    expect((row.source_updated_at as Date).toISOString()).toBe("2024-08-07T13:17:59.000Z");
    const ranges = await rangesOf(MODERN_EVENTS_SSRF.id);
    expect(ranges.map((range) => [range.product_slug, range.prefix, range.last_affected])).toEqual([
      ["modern-events-calendar", "<=", "7.12.1"],
      ["modern-events-calendar-lite", "<=", "7.12.1"],
    ]);
    // Multi-item records have no software_name: the products are named after their slugs.
    expect((await product("plugin", "modern-events-calendar-lite"))?.name).toBe(
      "modern-events-calendar-lite",
    );
    expect(await creditsOf(MODERN_EVENTS_SSRF.id)).toEqual([
      { display_name: "Friderika Baranyai", credit_key: "friderika baranyai", position: 0, role: "finder" },
    ]);
  });

  it("keeps lower bounds, open-ended ranges and credits in the source's order", async () => {
    await importVulnerabilities(database, lines(CORE_SQLI, VIDEO_GALLERY_ALL_VERSIONS, WEB_DIRECTORY_SQLI));

    expect(await rangesOf(CORE_SQLI.id)).toEqual([
      {
        product_slug: "wordpress",
        position: 0,
        introduced: "5.8",
        introduced_inclusive: true,
        fixed: "5.8.3",
        last_affected: null,
        prefix: "<",
        version: "5.8.3",
        fixed_in: "5.8.3",
      },
    ]);
    expect(await vulnerability(CORE_SQLI.id)).toMatchObject({
      product_kind: "core",
      affected_possibly_incomplete: true,
      type_code: 1,
    });
    expect(await rangesOf(VIDEO_GALLERY_ALL_VERSIONS.id)).toMatchObject([
      { last_affected: null, fixed: null, prefix: "<=", version: "*" },
    ]);
    expect(await vulnerability(VIDEO_GALLERY_ALL_VERSIONS.id)).toMatchObject({
      type_code: 3,
      owasp_code: 41,
    });
    expect(await vulnerability(WEB_DIRECTORY_SQLI.id)).toMatchObject({
      fixed_in: "1.7.0",
      patched: true,
      severity: "critical",
      required_privilege: 1,
    });
    expect(
      (await creditsOf(WEB_DIRECTORY_SQLI.id)).map((credit) => [credit.position, credit.display_name]),
    ).toEqual([
      [0, "Simone Onofri"],
      [1, "Kim Cerra"],
      [2, "Andrea De Dominicis"],
    ]);
  });

  it("rejects malformed and invalid lines with their line numbers and imports the rest", async () => {
    const { title: _title, ...withoutTitle } = WEB_DIRECTORY_SQLI;
    const input = [
      JSON.stringify(SMASH_BALLOON_XSS),
      '{"id": "not closed"',
      JSON.stringify(MODERN_EVENTS_SSRF),
      JSON.stringify({ ...withoutTitle, cvss_rating: "Severe" }),
      "",
      JSON.stringify({ ...CORE_SQLI, software: [{ ...CORE_SQLI.software[0], affected: [] }] }),
      JSON.stringify({ ...VIDEO_GALLERY_ALL_VERSIONS, cvss_vector: "CVSS:3.1/AV:N" }),
      "[1, 2, 3]",
      JSON.stringify(CORE_SQLI),
    ];
    const summary = await importVulnerabilities(database, input);

    expect(summary.read).toBe(8);
    expect(summary.imported).toBe(3);
    expect(summary.rejected.map((rejection) => rejection.line)).toEqual([2, 4, 6, 7, 8]);
    const [badJson, badFields, emptyRanges, badVector, notAnObject] = summary.rejected.map((r) => r.reason);
    expect(badJson).toMatch(/^invalid JSON: /);
    expect(badFields).toContain("title:");
    expect(badFields).toContain("cvss_rating:");
    expect(emptyRanges).toContain("software.0.affected:");
    expect(badVector).toContain("cvss_vector: Missing base metrics");
    expect(notAnObject).toContain("expected object");
    expect(await countOf("vulnerabilities")).toBe(3);
  });

  it("is idempotent: a second import changes nothing and duplicates nothing", async () => {
    await importVulnerabilities(database, lines(...ALL_RECORDS));
    const tables = ["vulnerabilities", "products", "affected_ranges", "researchers", "credits"];
    const before = await Promise.all(tables.map(countOf));
    const [{ updated_at: updatedAt }] = (await rows("select updated_at from vulnerabilities where id = $1", [
      WEB_DIRECTORY_SQLI.id,
    ])) as [{ updated_at: Date }];

    const summary = await importVulnerabilities(database, lines(...ALL_RECORDS));

    expect(summary).toMatchObject({
      read: 5,
      imported: 5,
      inserted: 0,
      updated: 0,
      unchanged: 5,
      rejected: [],
    });
    expect(await Promise.all(tables.map(countOf))).toEqual(before);
    const [after] = await rows<{ updated_at: Date }>("select updated_at from vulnerabilities where id = $1", [
      WEB_DIRECTORY_SQLI.id,
    ]);
    expect(after!.updated_at).toEqual(updatedAt);
  });

  it("skips a record whose source line is unchanged: no write, no new data version", async () => {
    await importVulnerabilities(database, lines(...ALL_RECORDS));
    const [before] = await rows<{ version: string }>(
      "select value #>> '{}' as version from app_state where key = 'data_version'",
    );
    // Rows a re-import rewrote would get new row versions (xmin) even with equal values.
    const xmins = await rows("select id, xmin::text from affected_ranges order by id");

    const summary = await importVulnerabilities(database, lines(...ALL_RECORDS));

    expect(summary).toMatchObject({ imported: 5, inserted: 0, updated: 0, unchanged: 5 });
    expect(await rows("select id, xmin::text from affected_ranges order by id")).toEqual(xmins);
    const [after] = await rows<{ version: string }>(
      "select value #>> '{}' as version from app_state where key = 'data_version'",
    );
    expect(after).toEqual(before);
  });

  it("writes each record's search document and product kind as the triggers would", async () => {
    const unnamed = {
      ...SMASH_BALLOON_XSS,
      software_name: null,
      software: SMASH_BALLOON_XSS.software.map((item) => ({ ...item, software_name: null })),
    };
    await importPlugins(database, lines(WEB_DIRECTORY_PLUGIN));
    await importVulnerabilities(database, lines(unnamed, ...ALL_RECORDS.slice(1)));
    // A later record names the slug-fallback product: its trigger refreshes the first record's document.
    await importVulnerabilities(
      database,
      lines({ ...SMASH_BALLOON_XSS, id: "7f0c2a43-1111-4c8e-9d1b-0a1b2c3d4e5f" }),
    );

    const stale = await rows(
      `select v.id from vulnerabilities v join products p on p.id = v.product_id
       where v.search_document is distinct from vulnerability_search_document(v.id, v.title, v.description)
         or v.product_kind is distinct from p.kind`,
    );
    expect(stale).toEqual([]);
    expect(await countOf("vulnerabilities")).toBe(6);
    const [renamed] = await rows<{ document: string }>(
      "select search_document::text as document from vulnerabilities where id = $1",
      [SMASH_BALLOON_XSS.id],
    );
    expect(renamed!.document).toMatch(/'smash':\d+A/);
    const [document] = await rows<{ document: string }>(
      "select search_document::text as document from vulnerabilities where id = $1",
      [WEB_DIRECTORY_SQLI.id],
    );
    expect(document!.document).toContain("'web-directory-free':");
  });

  it("updates changed records and replaces their ranges and credits", async () => {
    await importVulnerabilities(database, lines(...ALL_RECORDS));
    const changed = {
      ...WEB_DIRECTORY_SQLI,
      title: "Web Directory Free <= 1.7.0 - Authenticated (Contributor+) SQL Injection",
      vuln_type: "Authenticated (Contributor+) SQL Injection",
      cvss_score: 8.8,
      cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:H/I:H/A:H",
      cvss_rating: "High",
      affected: [{ last_affected: "1.7.0", prefix: "<=", version: "1.7.0" }],
      fixed_in: null,
      software: [
        {
          ...WEB_DIRECTORY_SQLI.software[0],
          affected: [{ fixed: "1.7.1", prefix: "<", version: "1.7.1" }],
          fixed_in: "1.7.1",
        },
      ],
      researchers: ["  KIM CERRA ", "New Person"],
    };

    const summary = await importVulnerabilities(database, lines(SMASH_BALLOON_XSS, changed));

    expect(summary).toMatchObject({ imported: 2, inserted: 0, updated: 1, unchanged: 1 });
    expect(await vulnerability(WEB_DIRECTORY_SQLI.id)).toMatchObject({
      slug: `web-directory-free-1-7-0-authenticated-contributor-sql-injection-2a6c5610`,
      required_privilege: 3,
      score: 8.8,
      severity: "high",
      fixed_in: null,
      patched: false,
    });
    expect(await rangesOf(WEB_DIRECTORY_SQLI.id)).toMatchObject([
      { fixed: "1.7.1", prefix: "<", version: "1.7.1", fixed_in: "1.7.1", last_affected: null },
    ]);
    // "KIM CERRA" is the same researcher as "Kim Cerra": the first display name is kept.
    expect(await creditsOf(WEB_DIRECTORY_SQLI.id)).toMatchObject([
      { display_name: "Kim Cerra", position: 0 },
      { display_name: "New Person", position: 1 },
    ]);
    expect(await countOf("vulnerabilities")).toBe(5);
    expect(await countOf("researchers")).toBe(5);
  });

  it("lets a later line with the same id win", async () => {
    const renamed = { ...SMASH_BALLOON_XSS, description: "Second version of the description." };
    const summary = await importVulnerabilities(database, lines(SMASH_BALLOON_XSS, renamed));

    expect(summary).toMatchObject({ read: 2, imported: 2, inserted: 1, updated: 1 });
    expect((await vulnerability(SMASH_BALLOON_XSS.id)).description).toBe(
      "Second version of the description.",
    );
  });

  it("rejects only the record the database refuses when a batch fails", async () => {
    // Same title and same first 8 hex digits of the id: the two slugs collide.
    const clash = { ...SMASH_BALLOON_XSS, id: "01889c7b-0000-4000-8000-000000000000" };
    const summary = await importVulnerabilities(database, lines(SMASH_BALLOON_XSS, clash, CORE_SQLI));

    expect(summary.imported).toBe(2);
    expect(summary.rejected).toHaveLength(1);
    expect(summary.rejected[0]!.line).toBe(2);
    expect(summary.rejected[0]!.reason).toMatch(/^database: .*vulnerabilities_slug/);
    expect(await countOf("vulnerabilities")).toBe(2);
  });

  it("writes in batches and reports progress after each", async () => {
    const progress: number[] = [];
    const summary = await importVulnerabilities(database, lines(...ALL_RECORDS), {
      batchSize: 2,
      onProgress: (update) => progress.push(update.imported),
    });

    expect(summary.imported).toBe(5);
    expect(progress).toEqual([2, 4, 5]);
  });

  it("keeps text with quotes, backslashes, braces and markup intact", async () => {
    const tricky = {
      ...SMASH_BALLOON_XSS,
      title: `Plugin "Quotes" {braces} \\ back, slash <= 1.0 - Stored <script>alert('x')</script>`,
      description: 'Line one\nline "two" {a,b} NULL \\N',
      researchers: ['O"Brien, {Jr}', "NULL"],
    };
    await importVulnerabilities(database, lines(tricky));

    const row = await vulnerability(SMASH_BALLOON_XSS.id);
    expect(row.title).toBe(tricky.title);
    expect(row.description).toBe(tricky.description);
    expect((await creditsOf(SMASH_BALLOON_XSS.id)).map((credit) => credit.display_name)).toEqual([
      'O"Brien, {Jr}',
      "NULL",
    ]);
  });
});

describe("importVulnerabilities from files", () => {
  useFreshDatabase();

  const directory = mkdtempSync(join(tmpdir(), "pressguard-import-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("reads plain and gzip files, recognising gzip by its magic bytes", async () => {
    const text = `${lines(SMASH_BALLOON_XSS, CORE_SQLI).join("\r\n")}\r\n`;
    const plain = join(directory, "vulns.jsonl");
    const gzip = join(directory, "vulns.jsonl.gz");
    const gzipWithoutExtension = join(directory, "vulns-compressed");
    writeFileSync(plain, text);
    writeFileSync(gzip, gzipSync(text));
    writeFileSync(gzipWithoutExtension, gzipSync(lines(MODERN_EVENTS_SSRF).join("\n")));

    expect(await importVulnerabilities(database, plain)).toMatchObject({
      read: 2,
      inserted: 2,
      rejected: [],
    });
    expect(await importVulnerabilities(database, gzip)).toMatchObject({
      read: 2,
      unchanged: 2,
      rejected: [],
    });
    expect(await importVulnerabilities(database, gzipWithoutExtension)).toMatchObject({
      read: 1,
      inserted: 1,
    });
    expect(await countOf("vulnerabilities")).toBe(3);
  });

  it("fails when the file cannot be read", async () => {
    await expect(importVulnerabilities(database, join(directory, "missing.jsonl"))).rejects.toThrow(/ENOENT/);
  });

  it("fails on a truncated gzip file", async () => {
    const truncated = join(directory, "truncated.jsonl.gz");
    const compressed = gzipSync(lines(...ALL_RECORDS).join("\n"));
    writeFileSync(truncated, compressed.subarray(0, compressed.length - 40));
    await expect(importVulnerabilities(database, truncated)).rejects.toThrow(/end of file|unexpected/i);
  });
});

describe("importPlugins", () => {
  useFreshDatabase();

  it("fills a product with the plugin directory's metadata", async () => {
    const summary = await importPlugins(database, lines(WEB_DIRECTORY_PLUGIN));

    expect(summary).toEqual({
      kind: "plugins",
      read: 1,
      imported: 1,
      inserted: 1,
      updated: 0,
      unchanged: 0,
      rejected: [],
    });
    const row = await product("plugin", "web-directory-free");
    expect(row).toMatchObject({
      platform: "wordpress",
      name: "Web Directory Free",
      version: "1.7.0",
      author: "salephpscripts.com",
      active_installs: 700,
      rating: 82,
      num_ratings: 17,
      requires_wp: null,
      tested_wp: "6.5.2",
      requires_php: null,
      directory_updated: "2024-04-10 4:57pm GMT",
      directory_url: "https://wordpress.org/plugins/web-directory-free/",
      product_url: "https://wordpress.org/plugins/web-directory-free/",
      vendor_website_url: "https://www.salephpscripts.com/wordpress_directory/",
      description: WEB_DIRECTORY_PLUGIN.short_description,
      tags: [...WEB_DIRECTORY_PLUGIN.tags],
      versions: [...WEB_DIRECTORY_PLUGIN.versions],
    });
    const [{ added }] = (await rows("select directory_added::text as added from products")) as [
      { added: string },
    ];
    expect(added).toBe("2018-05-23");
  });

  it("is idempotent and updates changed metadata", async () => {
    await importPlugins(database, lines(WEB_DIRECTORY_PLUGIN));
    expect(await importPlugins(database, lines(WEB_DIRECTORY_PLUGIN))).toMatchObject({
      inserted: 0,
      updated: 0,
      unchanged: 1,
    });

    const newer = {
      ...WEB_DIRECTORY_PLUGIN,
      version: "1.7.1",
      tags: [],
      versions: [...WEB_DIRECTORY_PLUGIN.versions, "1.7.1"],
    };
    expect(await importPlugins(database, lines(newer))).toMatchObject({
      inserted: 0,
      updated: 1,
      unchanged: 0,
    });
    expect(await product("plugin", "web-directory-free")).toMatchObject({ version: "1.7.1", tags: [] });
    expect((await product("plugin", "web-directory-free"))?.versions).toHaveLength(36);
    expect(await countOf("products")).toBe(1);
  });

  it("names products after the directory, whichever file is imported first", async () => {
    const directoryName = { ...WEB_DIRECTORY_PLUGIN, name: "Web Directory Free – Directory & Classifieds" };

    await importVulnerabilities(database, lines(WEB_DIRECTORY_SQLI));
    expect((await product("plugin", "web-directory-free"))?.name).toBe("Web Directory Free");
    await importPlugins(database, lines(directoryName));
    expect((await product("plugin", "web-directory-free"))?.name).toBe(directoryName.name);
    await importVulnerabilities(database, lines(WEB_DIRECTORY_SQLI));
    expect((await product("plugin", "web-directory-free"))?.name).toBe(directoryName.name);
    expect(await countOf("products")).toBe(1);
  });

  it("never renames a directory product whose directory name is its slug", async () => {
    const slugNamed = { ...WEB_DIRECTORY_PLUGIN, name: "web-directory-free" };
    await importPlugins(database, lines(slugNamed));
    await importVulnerabilities(database, lines(WEB_DIRECTORY_SQLI));

    expect((await product("plugin", "web-directory-free"))?.name).toBe("web-directory-free");
    expect(await importPlugins(database, lines(slugNamed))).toMatchObject({ updated: 0, unchanged: 1 });
  });

  it("replaces a slug fallback name once a record names the product", async () => {
    await importVulnerabilities(database, lines(MODERN_EVENTS_SSRF));
    const named = {
      ...SMASH_BALLOON_XSS,
      id: "11111111-2222-4333-8444-555555555555",
      slug: "modern-events-calendar-lite",
      software_name: "Modern Events Calendar Lite",
      software: [
        {
          ...SMASH_BALLOON_XSS.software[0],
          slug: "modern-events-calendar-lite",
          software_name: "Modern Events Calendar Lite",
        },
      ],
    };
    await importVulnerabilities(database, lines(named));
    expect((await product("plugin", "modern-events-calendar-lite"))?.name).toBe(
      "Modern Events Calendar Lite",
    );
  });

  it("keeps the name and URLs a vendor gave its product but refreshes directory facts", async () => {
    await importPlugins(database, lines(WEB_DIRECTORY_PLUGIN));
    const { rows } = await database.sql.query<{ id: number }>(
      "insert into vendors (vendor_name, contact_email, contact_person) values ('V', 'v@vendor.example', 'V') returning id",
    );
    await database.sql.query(
      "update products set vendor_id = $2, name = 'Vendor name', product_url = 'https://vendor.example/p' where slug = $1",
      ["web-directory-free", rows[0]?.id],
    );
    await importPlugins(database, lines({ ...WEB_DIRECTORY_PLUGIN, version: "2.0" }));

    expect(await product("plugin", "web-directory-free")).toMatchObject({
      name: "Vendor name",
      product_url: "https://vendor.example/p",
      version: "2.0",
    });
  });

  it("rejects plugin lines that fail the schema", async () => {
    const summary = await importPlugins(database, [
      JSON.stringify({ ...WEB_DIRECTORY_PLUGIN, added: "2018-13-45" }),
      JSON.stringify({ ...WEB_DIRECTORY_PLUGIN, slug: "" }),
      JSON.stringify({ ...WEB_DIRECTORY_PLUGIN, rating: 120 }),
      JSON.stringify({ ...WEB_DIRECTORY_PLUGIN, slug: "other-plugin" }),
    ]);
    expect(summary.rejected.map((rejection) => [rejection.line, rejection.reason.split(":")[0]])).toEqual([
      [1, "added"],
      [2, "slug"],
      [3, "rating"],
    ]);
    expect(summary.imported).toBe(1);
  });
});

describe("derived values", () => {
  it("builds deterministic URL-safe slugs from the title and the id", () => {
    expect(vulnerabilitySlug("WordPress Core < 5.8.3 - SQL Injection via WP_Meta_Query", CORE_SQLI.id)).toBe(
      "wordpress-core-5-8-3-sql-injection-via-wp-meta-query-0114f098",
    );
    expect(vulnerabilitySlug("日本語", "ABCDEF01-0000-4000-8000-000000000000")).toBe(
      "vulnerability-abcdef01",
    );
    const long = vulnerabilitySlug("a very long title ".repeat(20), SMASH_BALLOON_XSS.id);
    expect(long.length).toBeLessThanOrEqual(80 + 9);
    expect(long).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*-01889c7b$/);
  });

  it("classifies a record without vuln_type from its title", () => {
    expect(
      vulnerabilityTypeCodeOf({
        vuln_type: null,
        title: "Nifty Newsletters <= 4.0.23 – Cross-Site Request Forgery to Stored Cross-Site Scripting",
        software_name: "Nifty Newsletters",
      }),
    ).toBe(6);
    expect(vulnerabilityTypeCodeOf({ vuln_type: null, title: "Plugin <= 1.0", software_name: null })).toBe(
      29,
    );
    expect(vulnerabilityTypeCodeOf({ vuln_type: "", title: "", software_name: null })).toBe(10);
  });
});
