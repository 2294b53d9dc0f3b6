import { describe, expect, it } from "vitest";
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
import {
  ALL_RECORDS,
  countOf,
  creditsOf,
  database,
  lines,
  product,
  rangesOf,
  rows,
  useFreshDatabase,
  vulnerability,
} from "./import-test-kit.ts";

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

  it("leaves no entry pending in the search indexes, which every search would read in full", async () => {
    await importPlugins(database, lines(WEB_DIRECTORY_PLUGIN));
    await importVulnerabilities(database, lines(...ALL_RECORDS));

    // gin_clean_pending_list answers how many pending pages it merged: none are left to merge.
    const merged = await rows<{ index: string; pages: number }>(
      `select c.relname as index, gin_clean_pending_list(c.oid)::int as pages
       from pg_class c join pg_am am on am.oid = c.relam
       where am.amname = 'gin' and c.relname in ('vulnerabilities_search_filters_idx', 'products_search_idx')
       order by c.relname`,
    );
    expect(merged).toEqual([
      { index: "products_search_idx", pages: 0 },
      { index: "vulnerabilities_search_filters_idx", pages: 0 },
    ]);
  });

  it("imports as a role that writes the tables without owning their indexes, leaving the merge", async () => {
    // One connection (PGlite): the role holds for the whole import. PostgreSQL's pool would not keep it.
    if (database.kind !== "pglite") return;
    await database.sql.query(`create role pressguard_writer nologin`);
    for (const grant of [
      "grant usage on schema public to pressguard_writer",
      "grant select, insert, update, delete on all tables in schema public to pressguard_writer",
      "grant usage, select on all sequences in schema public to pressguard_writer",
    ])
      await database.sql.query(grant);
    await database.sql.query("set role pressguard_writer");
    try {
      const summary = await importVulnerabilities(database, lines(...ALL_RECORDS));
      expect(summary.inserted).toBe(ALL_RECORDS.length);
    } finally {
      await database.sql.query("reset role");
    }
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
