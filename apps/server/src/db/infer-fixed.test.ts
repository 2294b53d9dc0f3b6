import { describe, expect, it } from "vitest";
import { importPlugins, importVulnerabilities } from "./import.ts";
import { WEB_DIRECTORY_PLUGIN, WEB_DIRECTORY_SQLI } from "./import-fixtures.ts";
import { database, lines, rows, useFreshDatabase } from "./import-test-kit.ts";
import { inferFixedFrom, inferRecordFixes, updateInferredFixes } from "./infer-fixed.ts";

/** Issue 17, "truthful status": which unfixed ranges the product's current version has left behind. */

describe("inferFixedFrom", () => {
  const upTo = (version: string) => ({ prefix: "<=", version, last_affected: version });

  it("infers a fix when the current version is past the last affected version", () => {
    expect(inferFixedFrom("3.0", [upTo("2.0")])).toEqual(["3.0"]);
    expect(inferFixedFrom("2.0.1", [upTo("2.0")])).toEqual(["2.0.1"]);
  });

  it("infers none while the current version is still affected", () => {
    expect(inferFixedFrom("2.0", [upTo("2.0")])).toEqual([null]);
    expect(inferFixedFrom("1.0", [upTo("2.0")])).toEqual([null]);
  });

  it("reads the first fixed version as the bound of a < range", () => {
    const range = { prefix: "<", version: "4.1.1", fixed: "4.1.1" };
    expect(inferFixedFrom("4.1.1", [range])).toEqual(["4.1.1"]);
    expect(inferFixedFrom("4.1", [range])).toEqual([null]);
    expect(inferFixedFrom("5.0", [{ prefix: "<", version: "4.1.1" }])).toEqual(["5.0"]);
  });

  it("never infers a fix for a range without an upper bound", () => {
    expect(inferFixedFrom("99.0", [{ prefix: "<=", version: "*" }])).toEqual([null]);
    expect(inferFixedFrom("99.0", [{ prefix: "<=", version: "*", last_affected: "*" }])).toEqual([null]);
    expect(inferFixedFrom("3.0", [{ prefix: "", version: "2.5" }])).toEqual([null]);
  });

  it("does not call a current version below the range a later one", () => {
    const range = { prefix: "<=", version: "6.5.4", introduced: "6.5", last_affected: "6.5.4" };
    expect(inferFixedFrom("6.4", [range])).toEqual([null]);
    expect(inferFixedFrom("6.6", [range])).toEqual(["6.6"]);
  });

  it("infers none when another range of the product on the record holds the current version", () => {
    const older = { prefix: "<", version: "4.5", introduced: "4.0", fixed: "4.5" };
    const newer = { prefix: "<", version: "5.2", introduced: "5.0", fixed: "5.2" };
    expect(inferFixedFrom("5.1", [older, newer])).toEqual([null, null]);
    expect(inferFixedFrom("5.3", [older, newer])).toEqual(["5.3", "5.3"]);
  });
});

describe("inferRecordFixes", () => {
  const upTo2 = [{ prefix: "<=", version: "2.0", last_affected: "2.0" }];
  const product = (main: boolean, fixedIn: string | null = null) => ({
    current: "3.0",
    fixedIn,
    main,
    ranges: upTo2,
  });

  it("gives the record its main product's value", () => {
    expect(inferRecordFixes(false, [product(true)])).toEqual({ ranges: [["3.0"]], record: "3.0" });
    expect(inferRecordFixes(false, [product(false), { ...product(true), current: "1.0" }])).toEqual({
      ranges: [["3.0"], [null]],
      record: null,
    });
  });

  it("infers nothing for a record with a fix, or a product with its own fixed version", () => {
    expect(inferRecordFixes(true, [product(true)])).toEqual({ ranges: [[null]], record: null });
    expect(inferRecordFixes(false, [product(true, "2.1")])).toEqual({ ranges: [[null]], record: null });
    expect(inferRecordFixes(false, [{ ...product(true), current: null }])).toEqual({
      ranges: [[null]],
      record: null,
    });
  });
});

describe("updateInferredFixes", () => {
  useFreshDatabase();

  const UNFIXED = {
    ...WEB_DIRECTORY_SQLI,
    fixed_in: null,
    software: [{ ...WEB_DIRECTORY_SQLI.software[0], fixed_in: null }],
  };
  const plugin = (version: string | null) => ({ ...WEB_DIRECTORY_PLUGIN, version });
  const stored = () =>
    rows<{ range: string | null; record: string | null }>(
      `select ar.inferred_fixed_from as range, v.inferred_fixed_from as record
       from vulnerabilities v join affected_ranges ar on ar.vulnerability_id = v.id`,
    );

  it("follows the product's current version and the record's fix through imports", async () => {
    await importVulnerabilities(database, lines(UNFIXED));
    expect(await stored()).toEqual([{ range: null, record: null }]);
    // The directory says 1.7.0, past "<= 1.6.9".
    await importPlugins(database, lines(plugin("1.7.0")));
    expect(await stored()).toEqual([{ range: "1.7.0", record: "1.7.0" }]);
    await importPlugins(database, lines(plugin("1.6.9")));
    expect(await stored()).toEqual([{ range: null, record: null }]);
    await importPlugins(database, lines(plugin("1.8")));
    expect(await stored()).toEqual([{ range: "1.8", record: "1.8" }]);
    // The record gets its fixed version: nothing is inferred any more.
    await importVulnerabilities(database, lines(WEB_DIRECTORY_SQLI));
    expect(await stored()).toEqual([{ range: null, record: null }]);
  });

  it("has the importer write the values with the record when the directory came first", async () => {
    await importPlugins(database, lines(plugin("1.7.0")));
    await importVulnerabilities(database, lines(UNFIXED));
    expect(await stored()).toEqual([{ range: "1.7.0", record: "1.7.0" }]);
    // Written once, by the batch's transaction (its credits' too), not again after the import.
    const written = await rows<{ once: boolean }>(
      `select bool_and(ar.xmin = c.xmin and v.xmin = c.xmin) as once from affected_ranges ar
       join vulnerabilities v on v.id = ar.vulnerability_id join credits c on c.vulnerability_id = v.id`,
    );
    expect(written).toEqual([{ once: true }]);
  });

  it("writes nothing when nothing changed", async () => {
    await importVulnerabilities(database, lines(UNFIXED));
    await importPlugins(database, lines(plugin("1.7.0")));
    const [product] = await rows<{ id: number }>("select id from products where slug = 'web-directory-free'");
    expect(await updateInferredFixes(database.sql)).toBe(0);
    expect(await updateInferredFixes(database.sql, { productId: product!.id })).toBe(0);
    expect(await updateInferredFixes(database.sql, { vulnerabilityId: UNFIXED.id })).toBe(0);
  });

  it("leaves records of other main products alone when scoped to one product", async () => {
    await importVulnerabilities(database, lines(UNFIXED));
    await importPlugins(database, lines(plugin("1.7.0")));
    await database.sql.query("update products set version = '1.0' where slug = 'web-directory-free'");
    const [other] = await rows<{ id: number }>(
      `insert into products (platform_id, kind, slug, name) select id, 'plugin', 'other', 'Other'
       from platforms returning id`,
    );
    expect(await updateInferredFixes(database.sql, { productId: other!.id })).toBe(0);
    expect(await stored()).toEqual([{ range: "1.7.0", record: "1.7.0" }]);
    const [product] = await rows<{ id: number }>("select id from products where slug = 'web-directory-free'");
    expect(await updateInferredFixes(database.sql, { productId: product!.id })).toBe(2);
    expect(await stored()).toEqual([{ range: null, record: null }]);
  });
});
