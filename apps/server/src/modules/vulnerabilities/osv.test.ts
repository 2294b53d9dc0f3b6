import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { OSV_ID_PREFIX } from "@pressguard/domain";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importVulnerabilities } from "../../db/import.ts";
import { CORE_SQLI } from "../../db/import-fixtures.ts";
import { createSeededTestApp, createTestApp } from "../../test/app.ts";
import { csafErrorsOf } from "../../test/csaf-schema.ts";
import { csafValidatorFindings } from "../../test/csaf-validator.ts";
import { osvExportReady } from "../../test/osv-export.ts";
import { osvDatesOf } from "../public-records/presenters.ts";
import { csafPathOf } from "./csaf.ts";
import { osvPackageOf, uriOf } from "./osv.ts";

/**
 * Every OSV record we serve must pass the OFFICIAL OSV JSON schema with no exception (decision 025):
 * the file copied unchanged from ossf/osv-schema into ../shared/schemas beside the repository (its
 * README names the commit), never a copy written by hand. Its `$schema` is draft 2020-12: Ajv2020.
 */
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../..");
const officialSchemaPath = join(repoRoot, "..", "shared", "schemas", "osv-schema.json");
const officialSchema = JSON.parse(readFileSync(officialSchemaPath, "utf8")) as { $schema: string };
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
const validateOsv = ajv.compile(officialSchema);

interface OsvJson {
  id: string;
  modified: string;
  published?: string;
  aliases: string[];
  affected: {
    package: { name: string };
    ranges: { events: Record<string, string>[]; database_specific: Record<string, unknown> }[];
  }[];
  severity?: unknown;
}

/** Every schema error of many records, compact enough to read in a failed assertion. */
function errorsOf(records: unknown[]) {
  return records.flatMap((record) =>
    validateOsv(record)
      ? []
      : (validateOsv.errors ?? []).map(
          (error) => `${(record as { id?: unknown }).id} ${error.instancePath} ${error.message}`,
        ),
  );
}

const lines = (body: string) =>
  body
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line) as OsvJson);

describe("the official OSV schema", () => {
  it("is draft 2020-12, and names what is wrong in a bad record", () => {
    expect(officialSchema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    const good = {
      schema_version: "1.7.5",
      id: "x_PRESSGUARD-01889c7b-f47b-4caf-8e35-4f8af188426e",
      modified: "2024-06-13T06:00:02Z",
      affected: [
        {
          package: { ecosystem: "Packagist:https://wpackagist.org", name: "wpackagist-plugin/x" },
          ranges: [{ type: "ECOSYSTEM", events: [{ introduced: "0" }, { fixed: "1.2" }] }],
        },
      ],
      references: [{ type: "WEB", url: "https://example.com/a?b=c" }],
    };
    expect(errorsOf([good])).toEqual([]);
    const bad = {
      ...good,
      modified: "2024-06-13 06:00:02",
      affected: [
        {
          package: { ecosystem: "WordPress", name: "plugin/x" },
          ranges: [
            { type: "ECOSYSTEM", events: [{ introduced: "0" }, { fixed: "1" }, { last_affected: "2" }] },
          ],
        },
      ],
      references: [{ type: "LINK", url: "not a uri" }],
      extra: true,
    };
    expect(validateOsv(bad)).toBe(false);
    const paths = new Set((validateOsv.errors ?? []).map((error) => error.instancePath));
    expect([...paths]).toEqual(
      expect.arrayContaining([
        "",
        "/modified",
        "/affected/0/package/ecosystem",
        "/affected/0/ranges/0",
        "/references/0/type",
        "/references/0/url",
      ]),
    );
  });

  it("accepts our x_PRESSGUARD- ids and refuses the bare uuid and an unregistered prefix", () => {
    const record = {
      id: `${OSV_ID_PREFIX}01889c7b-f47b-4caf-8e35-4f8af188426e`,
      modified: "2024-06-13T06:00:02Z",
    };
    expect(errorsOf([record])).toEqual([]);
    for (const id of ["01889c7b-f47b-4caf-8e35-4f8af188426e", "PRESSGUARD-1"]) {
      expect(validateOsv({ ...record, id })).toBe(false);
      expect(validateOsv.errors?.map((error) => error.instancePath)).toEqual(["/id"]);
    }
  });
});

describe("OSV mapping helpers", () => {
  it("names plugins and themes as WPackagist packages and core as roots/wordpress", () => {
    expect(osvPackageOf({ kind: "plugin", slug: "contact-form-7" })).toEqual({
      ecosystem: "Packagist:https://wpackagist.org",
      name: "wpackagist-plugin/contact-form-7",
      purl: "pkg:composer/wpackagist-plugin/contact-form-7?repository_url=https%3A%2F%2Fwpackagist.org",
    });
    expect(osvPackageOf({ kind: "theme", slug: "astra" }).name).toBe("wpackagist-theme/astra");
    expect(osvPackageOf({ kind: "core", slug: "wordpress" })).toEqual({
      ecosystem: "Packagist",
      name: "roots/wordpress",
      purl: "pkg:composer/roots/wordpress",
    });
  });

  it("turns source links into RFC 3986 URIs and drops what is not an http(s) URL", () => {
    expect(uriOf("https://example.com/a b/{x}|y^z")).toBe("https://example.com/a%20b/%7Bx%7D%7Cy%5Ez");
    expect(uriOf(" https://example.com/?q=1 ")).toBe("https://example.com/?q=1");
    expect(uriOf("https://example.com/100%")).toBe("https://example.com/100%25");
    expect(uriOf("javascript:alert(1)")).toBeNull();
    expect(uriOf("www.example.com/no-scheme")).toBeNull();
  });

  it("dates a record by its source's dates when it has them, else by our own changes (issue 38)", () => {
    const imported = new Date("2026-11-20T08:00:00Z");
    const rewritten = new Date("2026-11-25T08:00:00.123Z");
    const source = "wordfence-intelligence";
    // Without source dates: published and modified are ours, never 1970.
    expect(
      osvDatesOf({
        publishedAt: null,
        sourceUpdatedAt: null,
        createdAt: imported,
        updatedAt: rewritten,
        source,
      }),
    ).toEqual({ published: "2026-11-20T08:00:00Z", modified: "2026-11-25T08:00:00.123Z" });
    // With source dates: the source's last update, not the day we imported or rewrote the row.
    expect(
      osvDatesOf({
        publishedAt: "2024-06-13T06:00:02Z",
        sourceUpdatedAt: "2024-08-01T20:12:07Z",
        createdAt: imported,
        updatedAt: rewritten,
        source,
      }),
    ).toEqual({ published: "2024-06-13T06:00:02Z", modified: "2024-08-01T20:12:07Z" });
    // Only a publication date: modified is that date.
    expect(
      osvDatesOf({
        publishedAt: "2024-06-13T06:00:02Z",
        sourceUpdatedAt: null,
        createdAt: imported,
        updatedAt: imported,
        source,
      }),
    ).toEqual({ published: "2024-06-13T06:00:02Z", modified: "2024-06-13T06:00:02Z" });
    // Only an update date: published is the day we created it, and modified never before it.
    expect(
      osvDatesOf({
        publishedAt: null,
        sourceUpdatedAt: "2024-08-01T20:12:07Z",
        createdAt: imported,
        updatedAt: imported,
        source,
      }),
    ).toEqual({ published: "2026-11-20T08:00:00Z", modified: "2026-11-20T08:00:00Z" });
    // A source date after our import (a clock ahead, a record dated in advance) still wins.
    expect(
      osvDatesOf({
        publishedAt: "2026-12-01T00:00:00Z",
        sourceUpdatedAt: null,
        createdAt: imported,
        updatedAt: imported,
        source,
      }),
    ).toEqual({ published: "2026-12-01T00:00:00Z", modified: "2026-12-01T00:00:00Z" });
    // A record published here: its publication and our later changes to it are its dates.
    expect(
      osvDatesOf({
        publishedAt: "2026-11-21T10:00:00Z",
        sourceUpdatedAt: null,
        createdAt: "2026-11-21T10:00:00Z",
        updatedAt: rewritten,
        source: "pressguard",
      }),
    ).toEqual({ published: "2026-11-21T10:00:00Z", modified: "2026-11-25T08:00:00.123Z" });
  });
});

describe("OSV records of every bundled record", () => {
  /** The whole bundled seed (37,205 records), imported as the first start does. */
  let harness: Awaited<ReturnType<typeof createSeededTestApp>>;
  let imported = 0;
  let records: OsvJson[] = [];

  beforeAll(async () => {
    harness = await createSeededTestApp({ APP_URL: "https://db.example.test" });
    const summary = harness.summary;
    expect(summary.vulnerabilities?.rejected).toEqual([]);
    imported = summary.vulnerabilities?.imported ?? 0;
    // The bulk export is served from files built per data version (decision 027).
    await osvExportReady(harness.app, harness.database, 300_000);
  }, 400_000);
  afterAll(() => harness?.close());

  it("validates every record of the bulk export against the official OSV schema, without exception", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/api/v1/osv" });
    expect(response.statusCode).toBe(200);
    records = lines(response.body);
    expect(imported).toBeGreaterThan(37_000);
    expect(records).toHaveLength(imported);
    expect(errorsOf(records)).toEqual([]);
    expect(records.every((record) => record.id.startsWith(OSV_ID_PREFIX))).toBe(true);
    // The records their source dates are modified at the source's last update, else its publication,
    // not at their import (issue 38); the others at their last change here.
    const { rows: sourceDates } = await harness.database.sql.query<{ id: string; modified: Date }>(
      `select id, coalesce(source_updated_at, published_at) as modified from vulnerabilities
       where source <> 'pressguard' and coalesce(source_updated_at, published_at) is not null`,
    );
    expect(sourceDates.length).toBeGreaterThan(11_000);
    const byId = new Map(records.map((record) => [record.id, record]));
    const notSourceDated = sourceDates.filter((row) => {
      const record = byId.get(`${OSV_ID_PREFIX}${row.id}`)!;
      const expected = Math.max(new Date(row.modified).getTime(), Date.parse(record.published!));
      return Date.parse(record.modified) !== expected;
    });
    expect(notSourceDated.map((row) => row.id)).toEqual([]);
    // Truthful dates: nothing from 1970, published on every record, modified never before it.
    expect(records.filter((record) => !record.published || record.modified < record.published)).toEqual([]);
    expect(records.filter((record) => record.modified.startsWith("1970-"))).toEqual([]);
    // The data covers the shapes that matter: several packages, core, themes, CVSS vectors, bounds.
    expect(records.some((record) => record.affected.length > 1)).toBe(true);
    const names = new Set(records.flatMap((record) => record.affected.map((item) => item.package.name)));
    expect([...names].some((name) => name.startsWith("wpackagist-theme/"))).toBe(true);
    expect(names.has("roots/wordpress")).toBe(true);
    expect(records.filter((record) => record.severity).length).toBeGreaterThan(imported / 2);
    const events = new Set(
      records.flatMap((record) =>
        record.affected.flatMap((item) => item.ranges.flatMap((range) => range.events.flatMap(Object.keys))),
      ),
    );
    expect([...events].sort()).toEqual(["fixed", "introduced", "last_affected"]);
  }, 120_000);

  it("validates single answers, by OSV id and by CVE alias, equal to their lines of the export", async () => {
    expect(records.length).toBeGreaterThan(0);
    const byId = new Map(records.map((record) => [record.id, record]));
    const { rows } = await harness.database.sql.query<{ id: string; cve: string | null }>(
      `select id, cve from (select id, cve, row_number() over (order by id) as n from vulnerabilities) v
       where n % 124 = 0 order by id`,
    );
    expect(rows.length).toBe(300);
    const answers: OsvJson[] = [];
    for (const [index, row] of rows.entries()) {
      // Every other row by its CVE id, when it has one (the oldest record of a CVE id answers).
      const key = index % 2 === 1 && row.cve ? row.cve : `${OSV_ID_PREFIX}${row.id}`;
      const response = await harness.app.inject({ method: "GET", url: `/api/v1/osv/${key}` });
      expect(response.statusCode, key).toBe(200);
      answers.push(response.json());
    }
    expect(errorsOf(answers)).toEqual([]);
    for (const answer of answers) expect(answer).toEqual(byId.get(answer.id));
    expect(answers.filter((answer) => answer.aliases.length > 0).length).toBeGreaterThan(100);
  });
  it("validates the CSAF advisories of a sample of 1,000+ records against the official CSAF 2.0 schema, without exception", async () => {
    // Every 30th record in id order, every 3rd of core and themes, and the six CVSS 3.0 vectors.
    const { rows } = await harness.database.sql.query<{ id: string }>(
      `select id from (
         select v.id, v.cvss_vector, p.kind, row_number() over (order by v.id) as n
         from vulnerabilities v join products p on p.id = v.product_id) v
       where n % 30 = 0 or (kind <> 'plugin' and n % 3 = 0) or cvss_vector like 'CVSS:3.0/%'
         or id in (select vulnerability_id from affected_ranges ar join products p on p.id = ar.product_id
                   where p.slug ~ ' ')
       order by id`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(1_000);
    const advisories: {
      product_tree: { branches: unknown[] };
      vulnerabilities: {
        cve?: string;
        cwe?: unknown;
        scores?: { cvss_v3: { version: string } }[];
        product_status: { fixed?: string[] };
        acknowledgments?: unknown[];
      }[];
    }[] = [];
    for (const row of rows) {
      const response = await harness.app.inject({ method: "GET", url: csafPathOf(row.id) });
      expect(response.statusCode, row.id).toBe(200);
      advisories.push(response.json());
    }
    expect(csafErrorsOf(advisories)).toEqual([]);
    // BSI's reference validator: the strict schema, every mandatory and every recommended test (issue 38).
    expect(await csafValidatorFindings(advisories)).toEqual([]);
    // The upstream slug with spaces (issue 38) is in the sample, named by its normalised slug.
    expect(
      advisories.filter((advisory) =>
        JSON.stringify(advisory.product_tree).includes(
          '"pkg:wordpress/theme/litho-multipurpose-elementor-wordpress-theme"',
        ),
      ),
    ).toHaveLength(1);
    // The sample covers every shape of the data.
    const trees = advisories.map((advisory) => JSON.stringify(advisory.product_tree));
    const vulnerabilities = advisories.map((advisory) => advisory.vulnerabilities[0]!);
    const count = (test: (index: number) => boolean) => advisories.filter((_, index) => test(index)).length;
    expect(count((index) => trees[index]!.includes('"pkg:composer/roots/wordpress"'))).toBeGreaterThan(10);
    expect(count((index) => trees[index]!.includes('"pkg:wordpress/theme/'))).toBeGreaterThan(10);
    expect(count((index) => /"pkg:wordpress\/(?!theme\/)/.test(trees[index]!))).toBeGreaterThan(500);
    for (const has of [
      (index: number) => Boolean(vulnerabilities[index]!.cve),
      (index: number) => Boolean(vulnerabilities[index]!.cwe),
      (index: number) => Boolean(vulnerabilities[index]!.product_status.fixed),
      (index: number) => Boolean(vulnerabilities[index]!.acknowledgments),
    ]) {
      expect(count(has)).toBeGreaterThan(50);
      expect(count((index) => !has(index))).toBeGreaterThan(50);
    }
    const versions = vulnerabilities.map((vulnerability) => vulnerability.scores?.[0]?.cvss_v3.version);
    expect(new Set(versions)).toEqual(new Set(["3.0", "3.1"]));
  }, 180_000);
});

describe("an exclusive lower bound", () => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  /** WordPress core after 5.8 (5.8 itself not affected), before 5.8.3. */
  const AFTER_58 = {
    ...CORE_SQLI,
    id: "0a1b2c3d-0000-4000-8000-000000000058",
    cve: null,
    affected: CORE_SQLI.affected.map((range) => ({ ...range, introduced_inclusive: false })),
    software: CORE_SQLI.software.map((item) => ({
      ...item,
      affected: item.affected.map((range) => ({ ...range, introduced_inclusive: false })),
    })),
  };

  beforeAll(async () => {
    harness = await createTestApp({ APP_URL: "https://db.example.test" });
    const summary = await importVulnerabilities(harness.database, [JSON.stringify(AFTER_58)]);
    expect(summary.rejected).toEqual([]);
  });
  afterAll(() => harness.close());

  it("starts the range at X, as OSV's inclusive introduced must, and says in database_specific that X is not affected", async () => {
    const response = await harness.app.inject({
      method: "GET",
      url: `/api/v1/osv/${OSV_ID_PREFIX}${AFTER_58.id}`,
    });
    expect(response.statusCode).toBe(200);
    const osv = response.json() as OsvJson;
    expect(errorsOf([osv])).toEqual([]);
    expect(osv.affected[0]!.ranges).toEqual([
      {
        type: "ECOSYSTEM",
        events: [{ introduced: "5.8" }, { fixed: "5.8.3" }],
        database_specific: { prefix: "<", version: "5.8.3", introduced_exclusive: true },
      },
    ]);
  });
});
