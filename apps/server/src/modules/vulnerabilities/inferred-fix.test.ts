import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDataVersion } from "../../db/data-version.ts";
import { importPlugins, importVulnerabilities } from "../../db/import.ts";
import { WEB_DIRECTORY_PLUGIN, WEB_DIRECTORY_SQLI } from "../../db/import-fixtures.ts";
import { createTestApp } from "../../test/app.ts";

/**
 * Issue 17, "truthful status": a record without a fix whose range ends below the product's current
 * version is fixed in a later version, inferred, and counts as fixed on the product page.
 */
let harness: Awaited<ReturnType<typeof createTestApp>>;

/** An unfixed record of one plugin, from a real record with its fix taken away. */
function unfixedRecord(id: string, slug: string, range: { prefix: string; version: string }) {
  const affected = [{ ...range, ...(range.version !== "*" && { last_affected: range.version }) }];
  const software = { software_type: "plugin", slug, software_name: slug, affected, fixed_in: null };
  return {
    ...WEB_DIRECTORY_SQLI,
    id,
    title: `${slug} ${range.prefix} ${range.version} - Unauthenticated SQL Injection`,
    slug,
    software_name: slug,
    affected,
    fixed_in: null,
    software: [software],
  };
}

const BEHIND = unfixedRecord("7d1c5d0e-0000-4000-8000-000000000001", "behind-plugin", {
  prefix: "<=",
  version: "2.0",
});
const EVERY_VERSION = unfixedRecord("7d1c5d0e-0000-4000-8000-000000000002", "every-version-plugin", {
  prefix: "<=",
  version: "*",
});
const VERSIONLESS = unfixedRecord("7d1c5d0e-0000-4000-8000-000000000003", "versionless-plugin", {
  prefix: "<=",
  version: "2.0",
});
const CURRENT = unfixedRecord("7d1c5d0e-0000-4000-8000-000000000004", "current-plugin", {
  prefix: "<=",
  version: "3.0",
});
const RECORDS = [BEHIND, EVERY_VERSION, VERSIONLESS, CURRENT];
/** The directory's current versions (versionless-plugin is not in the directory). */
const PLUGINS = [
  { ...WEB_DIRECTORY_PLUGIN, slug: "behind-plugin", name: "Behind", version: "3.0" },
  { ...WEB_DIRECTORY_PLUGIN, slug: "every-version-plugin", name: "Every version", version: "3.0" },
  { ...WEB_DIRECTORY_PLUGIN, slug: "current-plugin", name: "Current", version: "3.0" },
];
const lines = (records: unknown[]) => records.map((record) => JSON.stringify(record));

beforeAll(async () => {
  harness = await createTestApp();
  expect((await importVulnerabilities(harness.database, lines(RECORDS))).rejected).toEqual([]);
  expect((await importPlugins(harness.database, lines(PLUGINS))).rejected).toEqual([]);
});
afterAll(() => harness.close());

const get = async (url: string) => {
  const response = await harness.app.inject({ method: "GET", url });
  expect(response.statusCode, url).toBe(200);
  return response.json();
};
const product = (slug: string) => get(`/api/v1/products/wordpress/plugin/${slug}`);
const tab = async (slug: string, name: "present" | "fixed") =>
  (await get(`/api/products/${(await product(slug)).id}/vulnerabilities?filter[tab]=${name}`)).data;
const ids = (items: { id: string }[]) => items.map((item) => item.id);

describe("fixed in a later version (inferred from the current version)", () => {
  it("counts an unfixed record whose range ends below the current version as fixed", async () => {
    expect((await product("behind-plugin")).counters).toEqual({ vulnerabilities: 1, present: 0, fixed: 1 });
  });

  it("lists it in the product's fixed tab, not the present one, with the version it was inferred from", async () => {
    expect(await tab("behind-plugin", "present")).toEqual([]);
    const [summary] = await tab("behind-plugin", "fixed");
    expect(summary).toMatchObject({
      id: BEHIND.id,
      patched: false,
      fixed_in: null,
      inferred_fixed_from: "3.0",
      affected_versions: "<= 2.0",
    });
  });

  it("says so on the record, its range included", async () => {
    const detail = await get(`/api/v1/vulnerabilities/${BEHIND.id}`);
    expect(detail).toMatchObject({ patched: false, fixed_in: null, inferred_fixed_from: "3.0" });
    expect(detail.affected).toEqual([expect.objectContaining({ inferred_fixed_from: "3.0" })]);
  });

  it("treats it as patched in the public search's filter", async () => {
    expect(ids((await get("/api/v1/vulnerabilities?patched=true")).data)).toEqual([BEHIND.id]);
    expect(ids((await get("/api/v1/vulnerabilities?patched=false")).data).sort()).toEqual(
      [EVERY_VERSION.id, VERSIONLESS.id, CURRENT.id].sort(),
    );
  });

  it("keeps present a range without an upper bound, a product without a version, and an affected current version", async () => {
    for (const [slug, record] of [
      ["every-version-plugin", EVERY_VERSION],
      ["versionless-plugin", VERSIONLESS],
      ["current-plugin", CURRENT],
    ] as const) {
      expect((await product(slug)).counters, slug).toEqual({ vulnerabilities: 1, present: 1, fixed: 0 });
      expect(ids(await tab(slug, "present")), slug).toEqual([record.id]);
      expect(await tab(slug, "fixed"), slug).toEqual([]);
      const detail = await get(`/api/v1/vulnerabilities/${record.id}`);
      expect(detail.inferred_fixed_from, slug).toBeNull();
    }
  });

  it("writes no row and keeps the data version when the same data is imported again", async () => {
    const state = async () => ({
      version: await readDataVersion(harness.database.sql),
      // xmin changes with every write of a row.
      rows: (
        await harness.database.sql.query(
          `select v.xmin::text as record, ar.xmin::text as range from vulnerabilities v
           join affected_ranges ar on ar.vulnerability_id = v.id order by v.id`,
        )
      ).rows,
    });
    const before = await state();
    await importVulnerabilities(harness.database, lines(RECORDS));
    await importPlugins(harness.database, lines(PLUGINS));
    expect(await state()).toEqual(before);
  });

  // Runs last: it changes the product's current version.
  it("counts again when the data moves: the counters and the tab's total are kept per data version", async () => {
    expect((await product("behind-plugin")).counters).toEqual({ vulnerabilities: 1, present: 0, fixed: 1 });
    const older = PLUGINS.map((plugin) =>
      plugin.slug === "behind-plugin" ? { ...plugin, version: "1.5" } : plugin,
    );
    await importPlugins(harness.database, lines(older));
    // Every instance sees the new data version at its next poll (2 s).
    await expect
      .poll(async () => (await product("behind-plugin")).counters, { timeout: 10_000 })
      .toEqual({ vulnerabilities: 1, present: 1, fixed: 0 });
    const present = await get(
      `/api/products/${(await product("behind-plugin")).id}/vulnerabilities?filter[tab]=present`,
    );
    expect(ids(present.data)).toEqual([BEHIND.id]);
    expect(present.pagination.total).toBe(1);
  });
});
