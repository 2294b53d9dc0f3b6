// One file: the public database API's contract (records, search, rankings, check, feeds) over one seeded database.
import { CheckResponse } from "@pressguard/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importVulnerabilities } from "../../db/import.ts";
import {
  CORE_SQLI,
  MODERN_EVENTS_SSRF,
  SMASH_BALLOON_XSS,
  VIDEO_GALLERY_ALL_VERSIONS,
  WEB_DIRECTORY_SQLI,
} from "../../db/import-fixtures.ts";
import { createTestApp } from "../../test/app.ts";
import { osvExportReady } from "../../test/osv-export.ts";
import { createFeedService, type OsvExportRecord } from "../feeds/service.ts";

/** Five real seed records (db/import-fixtures.ts) imported through the importer, as production does. */
let harness: Awaited<ReturnType<typeof createTestApp>>;
const APP_URL = "https://db.example.test";

beforeAll(async () => {
  harness = await createTestApp({ APP_URL });
  const records = [
    SMASH_BALLOON_XSS,
    MODERN_EVENTS_SSRF,
    WEB_DIRECTORY_SQLI,
    VIDEO_GALLERY_ALL_VERSIONS,
    CORE_SQLI,
  ];
  const summary = await importVulnerabilities(
    harness.database,
    records.map((record) => JSON.stringify(record)),
  );
  expect(summary.rejected).toEqual([]);
});
afterAll(() => harness.close());

async function get(url: string, headers: Record<string, string> = {}) {
  return harness.app.inject({ method: "GET", url, headers });
}
const ids = (body: { data: { id: string }[] }) => body.data.map((item) => item.id);

describe("GET /api/v1/vulnerabilities", () => {
  it("lists every vulnerability newest first, undated ones by CVE id, with the pagination object", async () => {
    const response = await get("/api/v1/vulnerabilities");
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(ids(body)).toEqual([
      MODERN_EVENTS_SSRF.id,
      WEB_DIRECTORY_SQLI.id,
      CORE_SQLI.id,
      SMASH_BALLOON_XSS.id,
      VIDEO_GALLERY_ALL_VERSIONS.id,
    ]);
    expect(body.pagination).toEqual({
      current_page: 1,
      per_page: 20,
      total: 5,
      last_page: 1,
      next_page_url: null,
      prev_page_url: null,
    });
    const smash = body.data.find((item: { id: string }) => item.id === SMASH_BALLOON_XSS.id);
    expect(smash).toMatchObject({
      title: SMASH_BALLOON_XSS.title,
      cve: "CVE-2021-25065",
      severity: "medium",
      cvss_score: 5.4,
      patched: true,
      fixed_in: "4.1.1",
      affected_versions: "< 4.1.1",
      published_at: null,
      product: { platform: "wordpress", kind: "plugin", slug: "custom-facebook-feed" },
    });
    expect(smash.url).toBe(
      `${APP_URL}/database/wordpress/plugin/custom-facebook-feed/vulnerability/${smash.slug}`,
    );
  });

  it("pages with next and previous links that keep the filters", async () => {
    const first = (await get("/api/v1/vulnerabilities?per_page=2&kind=plugin")).json();
    expect(first.pagination).toMatchObject({ current_page: 1, total: 4, last_page: 2, prev_page_url: null });
    expect(first.pagination.next_page_url).toBe("/api/v1/vulnerabilities?per_page=2&kind=plugin&page=2");
    const second = (await get(first.pagination.next_page_url)).json();
    expect(second.data).toHaveLength(2);
    expect(second.pagination.next_page_url).toBeNull();
    expect(second.pagination.prev_page_url).toBe("/api/v1/vulnerabilities?per_page=2&kind=plugin&page=1");
    expect([...ids(first), ...ids(second)]).toHaveLength(4);
  });

  it("answers an empty page past the last one, still counting the total", async () => {
    const body = (await get("/api/v1/vulnerabilities?per_page=2&page=9")).json();
    expect(body.data).toEqual([]);
    expect(body.pagination).toMatchObject({ current_page: 9, total: 5, last_page: 3, next_page_url: null });
    expect(body.pagination.prev_page_url).toBe("/api/v1/vulnerabilities?per_page=2&page=3");
  });

  it("searches title, description, product name and slug, and CVE ids exactly", async () => {
    expect(ids((await get("/api/v1/vulnerabilities?q=smash%20balloon")).json())).toEqual([
      SMASH_BALLOON_XSS.id,
    ]);
    expect(ids((await get("/api/v1/vulnerabilities?q=WP_Meta_Query")).json())).toEqual([CORE_SQLI.id]);
    expect(ids((await get("/api/v1/vulnerabilities?q=modern-events-calendar-lite")).json())).toEqual([
      MODERN_EVENTS_SSRF.id,
    ]);
    expect(ids((await get("/api/v1/vulnerabilities?q=cve-2022-21664")).json())).toEqual([CORE_SQLI.id]);
    expect(ids((await get("/api/v1/vulnerabilities?q=CVE-2099-0001")).json())).toEqual([]);
    expect(ids((await get("/api/v1/vulnerabilities?q=nothing%20like%20this")).json())).toEqual([]);
  });

  it("keeps every bound of the range on list rows and on the record: the lower bound too", async () => {
    const byId = (body: { data: { id: string; affected_versions: string | null }[] }) =>
      new Map(body.data.map((item) => [item.id, item.affected_versions]));
    const listed = byId((await get("/api/v1/vulnerabilities")).json());
    expect(listed.get(CORE_SQLI.id)).toBe(">= 5.8, < 5.8.3");
    expect(listed.get(SMASH_BALLOON_XSS.id)).toBe("< 4.1.1");
    expect(listed.get(MODERN_EVENTS_SSRF.id)).toBe("<= 7.12.1");
    expect(listed.get(VIDEO_GALLERY_ALL_VERSIONS.id)).toBe("every version");
    const record = (await get(`/api/v1/vulnerabilities/${CORE_SQLI.id}`)).json();
    expect(record.affected_versions).toBe(">= 5.8, < 5.8.3");
  });

  it("finds a record by its CVE id as people type it, by its record id and by its CWE id", async () => {
    const found = async (q: string) =>
      ids((await get(`/api/v1/vulnerabilities?q=${encodeURIComponent(q)}`)).json());
    for (const q of ["2022-21664", "CVE 2022-21664", "Cve-2022-21664", " 2022-21664 "])
      expect(await found(q), q).toEqual([CORE_SQLI.id]);
    expect(await found(SMASH_BALLOON_XSS.id.toUpperCase())).toEqual([SMASH_BALLOON_XSS.id]);
    expect(await found("CWE-89")).toEqual([WEB_DIRECTORY_SQLI.id]);
    expect(await found("cwe 918")).toEqual([MODERN_EVENTS_SSRF.id]);
    expect(await found("2099-0001")).toEqual([]);
  });

  it("ranks by relevance when asked, and treats query syntax characters as text", async () => {
    const body = (await get("/api/v1/vulnerabilities?q=sql%20injection&sort=relevance")).json();
    expect(ids(body).sort()).toEqual([CORE_SQLI.id, WEB_DIRECTORY_SQLI.id].sort());
    const odd = await get(`/api/v1/vulnerabilities?q=${encodeURIComponent("'); drop table x; -- <b>&|!(")}`);
    expect(odd.statusCode).toBe(200);
  });

  it("pages a text search and keeps its total on every page, past the end included", async () => {
    const search = "/api/v1/vulnerabilities?q=sql%20injection&per_page=1";
    const first = (await get(`${search}&sort=date`)).json();
    const second = (await get(`${search}&sort=date&page=2`)).json();
    expect([...ids(first), ...ids(second)]).toEqual([WEB_DIRECTORY_SQLI.id, CORE_SQLI.id]);
    expect(first.pagination).toMatchObject({ total: 2, last_page: 2, current_page: 1 });
    expect(second.pagination).toMatchObject({ total: 2, next_page_url: null });
    const past = (await get(`${search}&page=3`)).json();
    expect(past.data).toEqual([]);
    expect(past.pagination).toMatchObject({ total: 2, current_page: 3 });
    const filtered = (await get("/api/v1/vulnerabilities?q=sql%20injection&kind=core")).json();
    expect(ids(filtered)).toEqual([CORE_SQLI.id]);
    expect(filtered.pagination.total).toBe(1);
  });

  it("filters by kind, type, severity, patched and year", async () => {
    expect(ids((await get("/api/v1/vulnerabilities?kind=core")).json())).toEqual([CORE_SQLI.id]);
    expect(ids((await get("/api/v1/vulnerabilities?severity=critical")).json())).toEqual([
      WEB_DIRECTORY_SQLI.id,
    ]);
    expect(ids((await get("/api/v1/vulnerabilities?type=1")).json())).toEqual([
      WEB_DIRECTORY_SQLI.id,
      CORE_SQLI.id,
    ]);
    expect(ids((await get("/api/v1/vulnerabilities?patched=true")).json())).toEqual([
      WEB_DIRECTORY_SQLI.id,
      CORE_SQLI.id,
      SMASH_BALLOON_XSS.id,
    ]);
    expect(ids((await get("/api/v1/vulnerabilities?patched=false")).json())).toEqual([
      MODERN_EVENTS_SSRF.id,
      VIDEO_GALLERY_ALL_VERSIONS.id,
    ]);
    expect(ids((await get("/api/v1/vulnerabilities?year=2024")).json())).toEqual([
      MODERN_EVENTS_SSRF.id,
      WEB_DIRECTORY_SQLI.id,
    ]);
    // No publication date: the CVE id's year counts.
    expect(ids((await get("/api/v1/vulnerabilities?year=2021")).json())).toEqual([SMASH_BALLOON_XSS.id]);
  });

  it.each([
    "page=0",
    "page=abc",
    "page=1.5",
    "per_page=101",
    "per_page=",
    "kind=plugins",
    "severity=severe",
    "patched=yes",
    "year=12",
    "type=43",
    "sort=popular",
    `q=${"x".repeat(201)}`,
  ])("answers 422 to the bad query %s", async (query) => {
    const response = await get(`/api/v1/vulnerabilities?${query}`);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ status: "error", errors: expect.any(Object) });
  });
});

describe("GET /api/v1/vulnerabilities/{id}", () => {
  it("answers every field by our id, with the page URL, CVSS metrics, ranges and credits", async () => {
    const response = await get(`/api/v1/vulnerabilities/${WEB_DIRECTORY_SQLI.id}`);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      id: WEB_DIRECTORY_SQLI.id,
      title: WEB_DIRECTORY_SQLI.title,
      description: WEB_DIRECTORY_SQLI.description,
      cve: "CVE-2024-3552",
      severity: "critical",
      cvss_score: 9.8,
      type: { code: 1, label: "SQL Injection" },
      owasp: { code: 43, id: "A03:2021" },
      required_privilege: { code: 1, label: "Unauthenticated" },
      cvss: {
        vector: WEB_DIRECTORY_SQLI.cvss_vector,
        version: "3.1",
        score: 9.8,
        metrics: { AV: "N", AC: "L", PR: "N", UI: "N", S: "U", C: "H", I: "H", A: "H" },
      },
      fixed_in: "1.7.0",
      patched: true,
      published_at: "2024-06-13T06:00:02Z",
      source: "wordfence-intelligence",
      source_id: WEB_DIRECTORY_SQLI.id,
      source_url: WEB_DIRECTORY_SQLI.source_url,
      attribution: WEB_DIRECTORY_SQLI.attribution,
      references: WEB_DIRECTORY_SQLI.references,
      product: { kind: "plugin", slug: "web-directory-free" },
    });
    expect(body.url).toMatch(
      /^https:\/\/db\.example\.test\/database\/wordpress\/plugin\/web-directory-free\/vulnerability\//,
    );
    expect(body.credits.map((credit: { display_name: string }) => credit.display_name)).toEqual([
      "Simone Onofri",
      "Kim Cerra",
      "Andrea De Dominicis",
    ]);
    expect(body.credits[0].url).toMatch(
      /^https:\/\/db\.example\.test\/database\/researchers\/[0-9a-f-]{36}$/,
    );
    expect(body.affected).toEqual([
      expect.objectContaining({ prefix: "<=", version: "1.6.9", last_affected: "1.6.9", fixed_in: "1.7.0" }),
    ]);
  });

  it("finds the same record by CVE id (any case) and by slug", async () => {
    const byId = (await get(`/api/v1/vulnerabilities/${CORE_SQLI.id}`)).json();
    const byCve = await get("/api/v1/vulnerabilities/cve-2022-21664");
    expect(byCve.statusCode).toBe(200);
    expect(byCve.json().id).toBe(CORE_SQLI.id);
    const bySlug = await get(`/api/v1/vulnerabilities/${byId.slug}`);
    expect(bySlug.json().id).toBe(CORE_SQLI.id);
    expect(byId.affected[0]).toMatchObject({ introduced: "5.8", fixed: "5.8.3", product: { kind: "core" } });
  });

  it("lists every affected product of a record with several", async () => {
    const body = (await get(`/api/v1/vulnerabilities/${MODERN_EVENTS_SSRF.id}`)).json();
    expect(body.affected.map((range: { product: { slug: string } }) => range.product.slug)).toEqual([
      "modern-events-calendar",
      "modern-events-calendar-lite",
    ]);
  });

  it.each([
    "00000000-0000-4000-8000-000000000000",
    "CVE-1999-0001",
    "no-such-slug",
    "..%2F..%2Fetc%2Fpasswd",
    "%27%20or%201%3D1",
  ])("answers 404 for the unknown id %s", async (id) => {
    const response = await get(`/api/v1/vulnerabilities/${id}`);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ status: "error", message: "Vulnerability not found." });
  });
});

describe("GET /api/v1/osv/{id}", () => {
  /** The row's own dates, as the OSV record's must derive from them. */
  async function rowDatesOf(id: string) {
    const { rows } = await harness.database.sql.query<{ created_at: string; updated_at: string }>(
      `select to_json(created_at) #>> '{}' as created_at, to_json(updated_at) #>> '{}' as updated_at
       from vulnerabilities where id = $1`,
      [id],
    );
    return { created: new Date(rows[0]!.created_at), updated: new Date(rows[0]!.updated_at) };
  }

  it("maps a record to OSV with its x_PRESSGUARD- id, aliases, ranges, severity, credits and the source link", async () => {
    const response = await get(`/api/v1/osv/x_PRESSGUARD-${WEB_DIRECTORY_SQLI.id}`);
    expect(response.statusCode).toBe(200);
    const osv = response.json();
    expect(osv).toMatchObject({
      schema_version: "1.7.5",
      id: `x_PRESSGUARD-${WEB_DIRECTORY_SQLI.id}`,
      published: "2024-06-13T06:00:02Z",
      aliases: ["CVE-2024-3552"],
      summary: WEB_DIRECTORY_SQLI.title,
      severity: [{ type: "CVSS_V3", score: WEB_DIRECTORY_SQLI.cvss_vector }],
      affected: [
        {
          package: {
            ecosystem: "Packagist:https://wpackagist.org",
            name: "wpackagist-plugin/web-directory-free",
          },
          ranges: [{ type: "ECOSYSTEM", events: [{ introduced: "0" }, { last_affected: "1.6.9" }] }],
        },
      ],
      credits: [
        { name: "Simone Onofri", type: "FINDER" },
        { name: "Kim Cerra", type: "FINDER" },
        { name: "Andrea De Dominicis", type: "FINDER" },
      ],
      database_specific: { source_id: WEB_DIRECTORY_SQLI.id, source_url: WEB_DIRECTORY_SQLI.source_url },
    });
    // Imported after the source's last update: modified is the source's date, not our import (issue 38).
    const { updated } = await rowDatesOf(WEB_DIRECTORY_SQLI.id);
    expect(updated.getTime()).toBeGreaterThan(Date.parse(WEB_DIRECTORY_SQLI.updated_at));
    expect(osv.modified).toBe(WEB_DIRECTORY_SQLI.updated_at);
  });

  it("dates a record without source dates by its import, never 1970, as its feed entry does", async () => {
    const osv = (await get(`/api/v1/osv/x_PRESSGUARD-${SMASH_BALLOON_XSS.id}`)).json();
    const { created, updated } = await rowDatesOf(SMASH_BALLOON_XSS.id);
    expect(Date.parse(osv.published)).toBe(created.getTime());
    expect(Date.parse(osv.modified)).toBe(Math.max(created.getTime(), updated.getTime()));
    expect(osv.modified).not.toMatch(/^1970-/);
    const feed = (await get("/database/feed")).body;
    const entry = feed.split("<entry>").find((part) => part.includes(`urn:uuid:${SMASH_BALLOON_XSS.id}`));
    expect(entry).toContain(`<updated>${created.toISOString()}</updated>`);
  });

  it("writes introduced and fixed bounds, an all-versions range, and answers by alias", async () => {
    const response = await get("/api/v1/osv/CVE-2022-21664");
    expect(response.statusCode).toBe(200);
    const core = response.json();
    expect(core.id).toBe(`x_PRESSGUARD-${CORE_SQLI.id}`);
    expect(core.aliases).toEqual(["CVE-2022-21664"]);
    expect(core.affected[0].ranges[0].events).toEqual([{ introduced: "5.8" }, { fixed: "5.8.3" }]);
    const all = (await get(`/api/v1/osv/x_PRESSGUARD-${VIDEO_GALLERY_ALL_VERSIONS.id}`)).json();
    expect(all.aliases).toEqual([]);
    expect(all.affected[0].ranges[0].events).toEqual([{ introduced: "0" }]);
  });

  it("redirects the bare uuid, the OSV id before decision 025, to the x_PRESSGUARD- id", async () => {
    for (const id of [WEB_DIRECTORY_SQLI.id, WEB_DIRECTORY_SQLI.id.toUpperCase()]) {
      const response = await get(`/api/v1/osv/${id}`);
      expect(response.statusCode).toBe(301);
      expect(response.headers.location).toBe(`/api/v1/osv/x_PRESSGUARD-${WEB_DIRECTORY_SQLI.id}`);
      expect(response.body).toBe("");
    }
    const followed = await get(String((await get(`/api/v1/osv/${CORE_SQLI.id}`)).headers.location));
    expect(followed.statusCode).toBe(200);
    expect(followed.json().id).toBe(`x_PRESSGUARD-${CORE_SQLI.id}`);
  });

  it.each([
    "CVE-1999-0001",
    "x_PRESSGUARD-00000000-0000-4000-8000-000000000000",
    "00000000-0000-4000-8000-000000000000",
    "x_PRESSGUARD-CVE-2022-21664",
    `X_PRESSGUARD-${CORE_SQLI.id}`,
    `x_pressguard-${CORE_SQLI.id}`,
  ])("answers 404 for the unknown id %s", async (id) => {
    expect((await get(`/api/v1/osv/${id}`)).statusCode).toBe(404);
  });

  it("exports in batches without losing or repeating a record at the batch edges", async () => {
    const service = createFeedService({ database: harness.database, appUrl: APP_URL });
    const batches: OsvExportRecord[][] = [];
    for await (const batch of service.osvBatches(2)) batches.push(batch);
    expect(batches.map((batch) => batch.length)).toEqual([2, 2, 1]);
    const ids = batches.flat().map((record) => JSON.parse(record.json).id);
    expect(ids).toEqual(batches.flat().map((record) => record.id));
    expect(new Set(ids).size).toBe(5);
  });

  it("exports every record as OSV JSON Lines, equal to the single-record answers", async () => {
    await osvExportReady(harness.app, harness.database);
    const response = await get("/api/v1/osv");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/x-ndjson; charset=utf-8");
    const lines = response.body.trimEnd().split("\n");
    const records = lines.map((line) => JSON.parse(line));
    expect(records.map((record) => record.id)).toEqual(
      [SMASH_BALLOON_XSS, MODERN_EVENTS_SSRF, WEB_DIRECTORY_SQLI, VIDEO_GALLERY_ALL_VERSIONS, CORE_SQLI]
        .map((record) => `x_PRESSGUARD-${record.id}`)
        .sort(),
    );
    for (const record of records) {
      expect(record).toEqual((await get(`/api/v1/osv/${record.id}`)).json());
    }
  });
});

describe("public product reads", () => {
  async function productOf(kind: string, slug: string) {
    return (await get(`/api/v1/products/wordpress/${kind}/${slug}`)).json();
  }

  it("finds a product by platform, kind and slug with its counters", async () => {
    const product = await productOf("plugin", "web-directory-free");
    expect(product).toMatchObject({
      platform: "wordpress",
      kind: "plugin",
      slug: "web-directory-free",
      name: "Web Directory Free",
      is_active: false,
      counters: { vulnerabilities: 1, present: 0, fixed: 1 },
      url: `${APP_URL}/database/wordpress/plugin/web-directory-free/vulnerabilities/vdp`,
      // Package identifiers (decision 029): the purl, the Composer package, no CPE for a plugin.
      identifiers: {
        purl: "pkg:wordpress/web-directory-free",
        composer: {
          name: "wpackagist-plugin/web-directory-free",
          repository: "https://wpackagist.org",
          purl: "pkg:composer/wpackagist-plugin/web-directory-free?repository_url=https%3A%2F%2Fwpackagist.org",
        },
        cpe: null,
      },
    });
  });

  it.each([
    "/api/v1/products/wordpress/plugin/no-such-plugin",
    "/api/v1/products/wordpress/theme/web-directory-free",
    "/api/v1/products/joomla/plugin/web-directory-free",
    "/api/products/999999/vulnerabilities",
    "/api/products/abc/vulnerabilities",
    "/api/products/0/contributors",
    "/api/products/999999/contributors",
  ])("answers 404 for %s", async (url) => {
    const response = await get(url);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ status: "error", message: "Product not found." });
  });

  it("splits a product's vulnerabilities into present and fixed tabs", async () => {
    const lite = await productOf("plugin", "modern-events-calendar-lite");
    const present = (await get(`/api/products/${lite.id}/vulnerabilities?filter[tab]=present`)).json();
    expect(ids(present)).toEqual([MODERN_EVENTS_SSRF.id]);
    expect(present.pagination).toMatchObject({ current_page: 1, total: 1, next_page_url: null });
    const fixed = (await get(`/api/products/${lite.id}/vulnerabilities?filter%5Btab%5D=fixed`)).json();
    expect(fixed.data).toEqual([]);
    const core = await productOf("core", "wordpress");
    expect(ids((await get(`/api/products/${core.id}/vulnerabilities?filter[tab]=fixed`)).json())).toEqual([
      CORE_SQLI.id,
    ]);
    expect((await get(`/api/products/${core.id}/vulnerabilities?filter[tab]=open`)).statusCode).toBe(422);
    expect((await get(`/api/products/${core.id}/vulnerabilities?page=-1`)).statusCode).toBe(422);
  });

  it("lists a product's contributors with their profile links", async () => {
    const product = await productOf("plugin", "web-directory-free");
    const body = (await get(`/api/products/${product.id}/contributors`)).json();
    expect(body.data.map((item: { display_name: string }) => item.display_name)).toEqual([
      "Andrea De Dominicis",
      "Kim Cerra",
      "Simone Onofri",
    ]);
    expect(body.data[0]).toMatchObject({
      vulnerabilities: 1,
      url: expect.stringContaining("/database/researchers/"),
    });
    const none = await productOf("plugin", "contus-video-gallery");
    expect((await get(`/api/products/${none.id}/contributors`)).json()).toEqual({ data: [] });
  });
});

describe("researchers", () => {
  it("shows a credited researcher's profile, points, rank and vulnerabilities", async () => {
    const detail = (await get(`/api/v1/vulnerabilities/${MODERN_EVENTS_SSRF.id}`)).json();
    const uuid = detail.credits[0].uuid;
    const profile = await get(`/api/v1/researchers/${uuid}`);
    expect(profile.statusCode).toBe(200);
    // One high vulnerability on a product without a program: 7 points; the three critical finders have 10.
    expect(profile.json()).toMatchObject({
      display_name: "Friderika Baranyai",
      vulnerabilities: 1,
      points: 7,
      rank: 4,
    });
    const list = (await get(`/api/v1/researchers/${uuid}/vulnerabilities`)).json();
    expect(ids(list)).toEqual([MODERN_EVENTS_SSRF.id]);
  });

  it.each(["00000000-0000-4000-8000-000000000000", "not-a-uuid"])(
    "answers 404 for researcher %s",
    async (uuid) => {
      expect((await get(`/api/v1/researchers/${uuid}`)).statusCode).toBe(404);
      expect((await get(`/api/v1/researchers/${uuid}/vulnerabilities`)).statusCode).toBe(404);
    },
  );
});

describe("GET /api/v1/statistics/counts", () => {
  it("counts vulnerabilities, products and researchers", async () => {
    expect((await get("/api/v1/statistics/counts")).json()).toEqual({
      vulnerabilities: 5,
      products: 6,
      researchers: 4,
      patched: 3,
      by_kind: { plugin: 4, theme: 0, core: 1 },
      by_severity: { critical: 1, high: 2, medium: 2, low: 0, none: 0 },
      // The import is the latest change of the data.
      updated_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/),
    });
  });
});

describe("POST /api/v1/check", () => {
  // A scanner calls the check with no cookie at all, so it needs no CSRF pair.
  const check = (items: unknown) =>
    harness.app.inject({ method: "POST", url: "/api/v1/check", payload: { items } });

  it("asks a caller that carries a session cookie for the CSRF pair", async () => {
    const response = await harness.app.inject({
      method: "POST",
      url: "/api/v1/check",
      payload: { items: [{ kind: "plugin", slug: "custom-facebook-feed", version: "4.1" }] },
      headers: { cookie: "pressguard_session=someone" },
    });
    expect(response.statusCode).toBe(419);
  });

  it("answers, for each item, the vulnerabilities whose ranges include its version", async () => {
    const response = await check([
      { kind: "plugin", slug: "custom-facebook-feed", version: "4.1" },
      { kind: "plugin", slug: "custom-facebook-feed", version: "4.1.1" },
      { kind: "plugin", slug: "custom-facebook-feed", version: "4.0.10" },
      { kind: "core", slug: "wordpress", version: "5.8.2" },
      { kind: "core", slug: "wordpress", version: "5.7" },
      { kind: "plugin", slug: "contus-video-gallery", version: "99.0" },
      { kind: "plugin", slug: "web-directory-free", version: "1.6.10" },
      { kind: "plugin", slug: "web-directory-free", version: "1.6.9" },
      { kind: "theme", slug: "custom-facebook-feed", version: "1.0" },
      { kind: "plugin", slug: "modern-events-calendar-lite", version: "7.12.1" },
    ]);
    expect(response.statusCode).toBe(200);
    // Assembled from pre-serialised entries: still exactly the documented shape.
    expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(CheckResponse.parse(response.json())).toEqual(response.json());
    expect(response.json().results[3]).toEqual({
      kind: "core",
      slug: "wordpress",
      version: "5.8.2",
      known: true,
      checked_version: "5.8.2",
      vulnerabilities: [expect.objectContaining({ id: CORE_SQLI.id })],
    });
    const found = response
      .json()
      .results.map((result: { vulnerabilities: { id: string }[] }) =>
        result.vulnerabilities.map((item) => item.id),
      );
    expect(found).toEqual([
      [SMASH_BALLOON_XSS.id],
      [],
      [SMASH_BALLOON_XSS.id],
      [CORE_SQLI.id],
      [],
      [VIDEO_GALLERY_ALL_VERSIONS.id],
      [],
      [WEB_DIRECTORY_SQLI.id],
      [],
      [MODERN_EVENTS_SSRF.id],
    ]);
    expect(response.json().results[0].vulnerabilities[0]).toMatchObject({
      cve: "CVE-2021-25065",
      fixed_in: "4.1.1",
      url: expect.stringContaining("/database/wordpress/plugin/custom-facebook-feed/vulnerability/"),
    });
  });

  it("refuses more than 500 items, an empty list and malformed items with 422", async () => {
    const item = { kind: "plugin", slug: "x", version: "1" };
    expect((await check(Array(501).fill(item))).statusCode).toBe(422);
    expect((await check(Array(500).fill(item))).statusCode).toBe(200);
    expect((await check([])).statusCode).toBe(422);
    expect((await check([{ kind: "module", slug: "x", version: "1" }])).statusCode).toBe(422);
    expect((await check([{ kind: "plugin", slug: "x" }])).statusCode).toBe(422);
  });
});

describe("HTTP caching of public reads", () => {
  it("sends an ETag and Cache-Control, and 304 when the ETag still matches", async () => {
    const first = await get(`/api/v1/vulnerabilities/${SMASH_BALLOON_XSS.id}`);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers["cache-control"]).toBe("public, max-age=300");
    const again = await get(`/api/v1/vulnerabilities/${SMASH_BALLOON_XSS.id}`, { "if-none-match": etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    const other = await get(`/api/v1/vulnerabilities/${CORE_SQLI.id}`, { "if-none-match": etag });
    expect(other.statusCode).toBe(200);
  });

  it("does not cache errors", async () => {
    const response = await get("/api/v1/vulnerabilities/CVE-1999-0001");
    expect(response.headers.etag).toBeUndefined();
    expect(response.headers["cache-control"]).toBeUndefined();
  });
});

describe("Atom feeds", () => {
  it("lists new vulnerabilities overall as valid Atom, texts escaped", async () => {
    const response = await get("/database/feed");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/atom+xml; charset=utf-8");
    expect(response.headers.etag).toBeDefined();
    const body = response.body;
    expect(
      body.startsWith('<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">'),
    ).toBe(true);
    expect(body.match(/<entry>/g)).toHaveLength(5);
    expect(body).toContain(`<id>urn:uuid:${MODERN_EVENTS_SSRF.id}</id>`);
    expect(body).toContain(
      '<title type="text">Smash Balloon Social Post Feed &lt;= 4.1 - Reflected Cross-Site Scripting</title>',
    );
    expect(body).not.toMatch(/<title type="text">[^<]*<=/);
    expect(body).toContain("<published>2024-08-07T11:00:06.000Z</published>");
    expect(body.indexOf(MODERN_EVENTS_SSRF.id)).toBeLessThan(body.indexOf(WEB_DIRECTORY_SQLI.id));
  });

  it("has one feed per product, and 404 for an unknown product", async () => {
    const body = (await get("/database/wordpress/core/wordpress/feed")).body;
    expect(body.match(/<entry>/g)).toHaveLength(1);
    expect(body).toContain(`<id>${APP_URL}/database/wordpress/core/wordpress/feed</id>`);
    expect((await get("/database/wordpress/plugin/no-such-plugin/feed")).statusCode).toBe(404);
  });

  it("documents both feeds and the OSV bulk export, with their media types, in the OpenAPI document", async () => {
    const { paths } = (await get("/api/openapi.json")).json();
    const mediaTypes = (path: string) => Object.keys(paths[path]?.get?.responses?.["200"]?.content ?? {});
    expect(mediaTypes("/database/feed")).toEqual(["application/atom+xml"]);
    expect(mediaTypes("/database/{platform}/{kind}/{product}/feed")).toEqual(["application/atom+xml"]);
    expect(
      paths["/database/{platform}/{kind}/{product}/feed"].get.parameters.map((p: { name: string }) => p.name),
    ).toEqual(["platform", "kind", "product"]);
    expect(mediaTypes("/api/v1/osv")).toEqual(["application/x-ndjson"]);
    expect(paths["/api/v1/osv"].get.description).toContain("GET /api/v1/osv/{id}");
    const single = paths["/api/v1/osv/{id}"].get;
    expect(single.description).toContain("x_PRESSGUARD-<uuid>");
    expect(single.parameters[0].description).toContain("x_PRESSGUARD-<uuid>");
    expect(single.responses["301"].description).toContain("Location is /api/v1/osv/x_PRESSGUARD-<uuid>");
  });
});

describe("GET /api/v1/programs", () => {
  it("lists only products with an active program, searchable by name or slug", async () => {
    await harness.database.sql.query("update products set is_active = true where slug in ($1, $2)", [
      "web-directory-free",
      "custom-facebook-feed",
    ]);
    try {
      const all = (await get("/api/v1/programs")).json();
      expect(all.data.map((item: { slug: string }) => item.slug)).toEqual([
        "custom-facebook-feed",
        "web-directory-free",
      ]);
      expect(all.data[1]).toMatchObject({ kind: "plugin", name: "Web Directory Free", vulnerabilities: 1 });
      expect(all.pagination).toMatchObject({ total: 2, next_page_url: null });
      const found = (await get("/api/v1/programs?q=directory")).json();
      expect(found.data.map((item: { slug: string }) => item.slug)).toEqual(["web-directory-free"]);
      expect((await get("/api/v1/programs?per_page=0")).statusCode).toBe(422);
    } finally {
      await harness.database.sql.query("update products set is_active = false");
    }
  });
});
