import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "../test/app.ts";
import { type ImportSummary, importPlugins, importVulnerabilities } from "./import.ts";
import { creditKeyOf } from "./import-vulnerabilities.ts";
import { readSeedSample, type SeedSample } from "./seed-sample.ts";

/**
 * Issue 5: "import of any data set in the seed format must produce pages and API answers for every
 * record it imports; test it on a sample you hold back from the seed". The sample is every 50th line
 * of the real vulns.jsonl.gz from line 25 (744 records) and the plugin directory lines of the plugins
 * they name, imported into a fresh database through the same functions as `npm run db:import`.
 */
const STEP = 50;
const FIRST_LINE = 25;

interface RawRecord {
  id: string;
  researchers?: string[] | null;
  software: { software_type: string; slug: string; affected: unknown[] }[];
}

let harness: Awaited<ReturnType<typeof createTestApp>>;
let sample: SeedSample;
let records: RawRecord[];
let first: { plugins: ImportSummary; vulnerabilities: ImportSummary };

async function importSample() {
  return {
    plugins: await importPlugins(harness.database, sample.pluginLines),
    vulnerabilities: await importVulnerabilities(harness.database, sample.vulnerabilityLines),
  };
}

async function countOf(table: string): Promise<number> {
  const { rows } = await harness.database.sql.query<{ count: number }>(
    `select count(*)::int as count from ${table}`,
  );
  return rows[0]!.count;
}

/** Everything an import writes, without serial ids, in a stable order. */
async function snapshot() {
  const query = async (text: string) => (await harness.database.sql.query(text)).rows;
  return {
    vulnerabilities: await query(
      `select v.*, p.kind as product_kind, p.slug as product_slug from vulnerabilities v
       join products p on p.id = v.product_id order by v.id`,
    ),
    products: await query(
      "select kind, slug, name, version, directory_url, updated_at from products order by kind, slug",
    ),
    ranges: await query(
      `select r.vulnerability_id, p.kind, p.slug, r.position, r.introduced, r.introduced_inclusive, r.fixed,
         r.last_affected, r.prefix, r.version, r.fixed_in
       from affected_ranges r join products p on p.id = r.product_id
       order by r.vulnerability_id, p.kind, p.slug, r.position`,
    ),
    credits: await query(
      `select c.vulnerability_id, r.credit_key, r.display_name, c.position, c.role
       from credits c join researchers r on r.id = c.researcher_id order by c.vulnerability_id, c.position`,
    ),
  };
}

async function getJson(url: string) {
  const response = await harness.app.inject({ method: "GET", url });
  expect(response.statusCode, url).toBe(200);
  return response.json();
}

beforeAll(async () => {
  harness = await createTestApp({ APP_URL: "https://db.example.test" });
  sample = await readSeedSample(STEP, FIRST_LINE);
  records = sample.vulnerabilityLines.map((line) => JSON.parse(line) as RawRecord);
  first = await importSample();
}, 120_000);
afterAll(() => harness.close());

describe("importing a held-back sample of the real seed", () => {
  it("imports every line of the sample and rejects none", () => {
    expect(records).toHaveLength(744);
    expect(first.vulnerabilities).toMatchObject({ read: 744, imported: 744, inserted: 744, rejected: [] });
    expect(first.plugins.rejected).toEqual([]);
    expect(first.plugins.inserted).toBe(sample.pluginLines.length);
    expect(sample.pluginLines.length).toBeGreaterThan(300);
  });

  it("writes as many products, ranges, researchers and credits as the records name", async () => {
    const products = new Set(
      records.flatMap((record) => record.software.map((item) => `${item.software_type}/${item.slug}`)),
    );
    const creditKeys = records.map(
      (record) => new Set((record.researchers ?? []).map(creditKeyOf).filter((key) => key !== "")),
    );
    expect(await countOf("vulnerabilities")).toBe(records.length);
    expect(await countOf("products")).toBe(products.size);
    expect(await countOf("affected_ranges")).toBe(
      records.reduce(
        (sum, record) => sum + record.software.reduce((items, item) => items + item.affected.length, 0),
        0,
      ),
    );
    expect(await countOf("credits")).toBe(creditKeys.reduce((sum, keys) => sum + keys.size, 0));
    expect(await countOf("researchers")).toBe(new Set(creditKeys.flatMap((keys) => [...keys])).size);
  });

  it("answers the API for every imported record and every product", async () => {
    for (const record of records) {
      const detail = await getJson(`/api/v1/vulnerabilities/${record.id}`);
      expect(detail.id).toBe(record.id);
      expect(detail.url).toMatch(/^https:\/\/db\.example\.test\/database\/wordpress\/(plugin|theme|core)\//);
      expect(detail.affected.length).toBeGreaterThan(0);
    }
    const products = new Set(
      records.flatMap((record) => record.software.map((item) => `${item.software_type}/${item.slug}`)),
    );
    for (const product of products) await getJson(`/api/v1/products/wordpress/${product}`);
  }, 120_000);

  it("keeps a core record's CVSS, bounds and missing CVE (line 12775)", async () => {
    const detail = await getJson("/api/v1/vulnerabilities/572fe891-5845-4a1c-ad3e-ddf5c54af5ba");
    expect(detail).toMatchObject({
      title:
        "WordPress <= 6.9.1 - Authenticated (Administrator+) Stored Cross-Site Scripting via Navigation Menu Items",
      cve: null,
      severity: "medium",
      cvss_score: 4.4,
      cvss: { vector: "CVSS:3.1/AV:N/AC:H/PR:H/UI:N/S:C/C:L/I:L/A:N", version: "3.1", score: 4.4 },
      patched: false,
      fixed_in: null,
      published_at: null,
      affected_possibly_incomplete: true,
      product: { kind: "core", slug: "wordpress" },
      credits: [],
      source_id: "572fe891-5845-4a1c-ad3e-ddf5c54af5ba",
    });
    expect(detail.affected).toEqual([
      expect.objectContaining({
        introduced: "6.9",
        introduced_inclusive: true,
        fixed: null,
        last_affected: "6.9.1",
        prefix: "<=",
        version: "6.9.1",
      }),
    ]);
  });

  it("keeps every product of a record that names three themes (line 21325)", async () => {
    const detail = await getJson("/api/v1/vulnerabilities/CVE-2007-4014");
    expect(detail).toMatchObject({
      id: "928584e5-7391-4442-820e-d5d5fc288572",
      cvss_score: 6.1,
      severity: "medium",
      product: { kind: "theme", slug: "blix" },
      affected_versions: "<= 0.9.1",
    });
    expect(
      detail.affected.map((range: { product: { slug: string }; last_affected: string }) => [
        range.product.slug,
        range.last_affected,
      ]),
    ).toEqual([
      ["blix", "0.9.1"],
      ["blixed", "1.0"],
      ["blixkrieg", "2.2"],
    ]);
  });

  it("keeps four credits in the source's order, the CWE and the dates (line 31725)", async () => {
    const detail = await getJson("/api/v1/vulnerabilities/CVE-2024-37537");
    expect(detail).toMatchObject({
      id: "d9a2ee71-8be5-448b-a052-1d98880ba847",
      cwe: "CWE-79",
      cvss_score: 4.4,
      published_at: "2024-07-21T07:04:59Z",
      updated_at: "2024-08-02T03:57:39Z",
      product: { kind: "plugin", slug: "ws-contact-form" },
    });
    expect(detail.credits.map((credit: { display_name: string }) => credit.display_name)).toEqual([
      "younsoung kim (Patchstack Alliance)",
      "SeoHyeon Lee (Patchstack Alliance)",
      "MyungJu Kim (Patchstack Alliance)",
      "SeoHee Kang (Patchstack Alliance)",
    ]);
    expect(detail.credits.every((credit: { role: string }) => credit.role === "finder")).toBe(true);
  });

  it("keeps a fixed theme record without a CVE (line 1975) and a patched plugin (line 375)", async () => {
    const theme = await getJson("/api/v1/vulnerabilities/0d4420bf-1095-44ca-8fa6-dd5ea11c7489");
    expect(theme).toMatchObject({
      cve: null,
      severity: "high",
      cvss_score: 7.1,
      patched: true,
      fixed_in: "1.3.32",
      product: { kind: "theme", slug: "findgo", name: "Findgo" },
    });
    expect(theme.affected).toEqual([
      expect.objectContaining({ fixed: "1.3.32", prefix: "<", version: "1.3.32", fixed_in: "1.3.32" }),
    ]);
    const plugin = await getJson("/api/v1/vulnerabilities/CVE-2023-23981");
    expect(plugin).toMatchObject({
      id: "028a90c7-ded7-45ad-90ea-9f1a7d3743a0",
      cvss_score: 5.5,
      patched: true,
      fixed_in: "1.1.7",
      published_at: "2023-04-06T04:43:21Z",
      product: { kind: "plugin", slug: "conversational-forms" },
    });
    expect(plugin.credits.map((credit: { display_name: string }) => credit.display_name)).toEqual([
      "Rio Darmawan (Patchstack Alliance)",
    ]);
  });

  it("changes nothing when the same sample is imported again", async () => {
    const before = await snapshot();
    const again = await importSample();
    expect(again.vulnerabilities).toMatchObject({
      read: 744,
      imported: 744,
      inserted: 0,
      updated: 0,
      unchanged: 744,
      rejected: [],
    });
    expect(again.plugins).toMatchObject({ inserted: 0, updated: 0, rejected: [] });
    expect(await snapshot()).toEqual(before);
  });
});
