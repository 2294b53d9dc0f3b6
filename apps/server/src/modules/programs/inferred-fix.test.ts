import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDataVersion } from "../../db/data-version.ts";
import { importVulnerabilities } from "../../db/import.ts";
import { WEB_DIRECTORY_SQLI } from "../../db/import-fixtures.ts";
import { createProgramTestApp, type Harness, program, programHelpers } from "./program-test-kit.ts";

/** Issue 17, "truthful status": a vendor's new current version moves its records' inferred fixes. */
let harness: Harness;
const { vendor, create } = programHelpers(() => harness);

beforeAll(async () => {
  harness = await createProgramTestApp();
});
afterAll(() => harness.close());

describe("a program's current version", () => {
  it("infers a fix for the product's unfixed records once the vendor sets a version past them", async () => {
    const { caller } = await vendor();
    const created = await create(caller, { version: "1.0" });
    // "<= 1.6.9" without a fix, on the vendor's product.
    const software = { ...WEB_DIRECTORY_SQLI.software[0], slug: created.slug, fixed_in: null };
    const record = { ...WEB_DIRECTORY_SQLI, slug: created.slug, fixed_in: null, software: [software] };
    await importVulnerabilities(harness.database, [JSON.stringify(record)]);
    const inferred = async () =>
      (
        await harness.database.sql.query<{ value: string | null }>(
          "select inferred_fixed_from as value from vulnerabilities where id = $1",
          [record.id],
        )
      ).rows[0]?.value;
    expect(await inferred()).toBeNull();

    const before = await readDataVersion(harness.database.sql);
    const updated = await caller.post(
      `/api/products/${created.id}`,
      program({ slug: created.slug, version: "2.0" }),
    );
    expect(updated.statusCode, updated.body).toBe(200);
    expect(await inferred()).toBe("2.0");
    // A pending program is not public, but its records are.
    expect(Number(await readDataVersion(harness.database.sql))).toBeGreaterThan(Number(before));
  });
});
