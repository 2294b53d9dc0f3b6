import { Ajv2020, type ErrorObject } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importPlugins, importVulnerabilities } from "../../db/import.ts";
import { readSeedSample } from "../../db/seed-sample.ts";
import { createTestApp } from "../../test/app.ts";
import { osvPackageOf, uriOf } from "./osv.ts";
import officialSchema from "./osv-schema.json" with { type: "json" };

/**
 * Every OSV record we serve must pass the published OSV JSON schema (osv-schema.json, 1.7.5) with
 * one exception: `id` must start with a prefix from OSV's registry of home databases, which only a
 * pull request to ossf/osv-schema can extend (decision 009). Every error the validator reports must
 * therefore be that one pattern on /id, and nothing else.
 */
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats.default(ajv);
const validateOsv = ajv.compile(officialSchema);
type OsvJson = { id: string; affected: { package: { name: string } }[]; severity?: unknown };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function schemaErrors(record: { id?: unknown }): ErrorObject[] {
  if (validateOsv(record)) return [];
  return (validateOsv.errors ?? []).filter(
    (error) =>
      !(
        error.instancePath === "/id" &&
        error.keyword === "pattern" &&
        typeof record.id === "string" &&
        UUID.test(record.id)
      ),
  );
}

/** Errors of many records, compact enough to read in a failed assertion. */
function errorsOf(records: { id?: unknown }[]) {
  return records.flatMap((record) =>
    schemaErrors(record).map((error) => `${record.id} ${error.instancePath} ${error.message}`),
  );
}

describe("the vendored OSV schema", () => {
  it("accepts a well-formed record and names what is wrong in a bad one", () => {
    const good = {
      schema_version: "1.7.5",
      id: "GHSA-aaaa-bbbb-cccc",
      modified: "2024-06-13T06:00:02Z",
      affected: [
        {
          package: { ecosystem: "Packagist:https://wpackagist.org", name: "wpackagist-plugin/x" },
          ranges: [{ type: "ECOSYSTEM", events: [{ introduced: "0" }, { fixed: "1.2" }] }],
        },
      ],
      references: [{ type: "WEB", url: "https://example.com/a?b=c" }],
    };
    expect(validateOsv(good)).toBe(true);
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

  it("allows only our own ids past the home-database prefix rule", () => {
    const record = { id: "01889c7b-f47b-4caf-8e35-4f8af188426e", modified: "2024-06-13T06:00:02Z" };
    expect(schemaErrors(record)).toEqual([]);
    expect(schemaErrors({ ...record, id: "PRESSGUARD-1" }).map((error) => error.instancePath)).toEqual([
      "/id",
    ]);
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
});

describe("OSV records of a real seed sample", () => {
  /** Every 10th record of the seed (about 3,700) and the plugins they name, imported as production does. */
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  let sampleSize = 0;

  beforeAll(async () => {
    harness = await createTestApp({ APP_URL: "https://db.example.test" });
    const sample = await readSeedSample(10);
    sampleSize = sample.vulnerabilityLines.length;
    expect((await importPlugins(harness.database, sample.pluginLines)).rejected).toEqual([]);
    expect((await importVulnerabilities(harness.database, sample.vulnerabilityLines)).rejected).toEqual([]);
  }, 120_000);
  afterAll(() => harness.close());

  it("validates every record of the bulk export against the OSV schema", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/api/v1/osv" });
    expect(response.statusCode).toBe(200);
    const records = response.body
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as OsvJson);
    expect(records).toHaveLength(sampleSize);
    expect(sampleSize).toBeGreaterThan(3000);
    expect(errorsOf(records)).toEqual([]);
    // The sample covers the shapes that matter: several packages, core, themes, CVSS vectors.
    expect(records.some((record) => record.affected.length > 1)).toBe(true);
    const names = new Set(records.flatMap((record) => record.affected.map((item) => item.package.name)));
    expect([...names].some((name) => name.startsWith("wpackagist-theme/"))).toBe(true);
    expect(names.has("roots/wordpress")).toBe(true);
    expect(records.filter((record) => record.severity).length).toBeGreaterThan(sampleSize / 2);
  });

  it("validates the single-record answers, looked up by id and by CVE alias", async () => {
    const { rows } = await harness.database.sql.query<{ id: string; cve: string | null }>(
      "select id, cve from vulnerabilities order by id limit 300",
    );
    const records = [];
    for (const row of rows) {
      const response = await harness.app.inject({ method: "GET", url: `/api/v1/osv/${row.cve ?? row.id}` });
      expect(response.statusCode).toBe(200);
      records.push(response.json());
    }
    expect(errorsOf(records)).toEqual([]);
  });
});
