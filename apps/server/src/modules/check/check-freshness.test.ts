import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importVulnerabilities } from "../../db/import.ts";
import { SMASH_BALLOON_XSS } from "../../db/import-fixtures.ts";
import { createTestApp } from "../../test/app.ts";

/**
 * The batch check remembers each product's ranges for one public data version: an import changes
 * the version, and the next check (within the data version's poll interval, as every public read)
 * answers from the new data.
 */
let harness: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(() => harness.close());

const ITEM = { kind: "plugin", slug: "custom-facebook-feed", version: "4.1" };

async function found(): Promise<string[]> {
  const response = await harness.app.inject({
    method: "POST",
    url: "/api/v1/check",
    payload: { items: [ITEM] },
  });
  expect(response.statusCode).toBe(200);
  return response.json().results[0].vulnerabilities.map((item: { id: string }) => item.id);
}

describe("POST /api/v1/check after an import", () => {
  it("answers from the new data once the data version moves", async () => {
    expect(await found()).toEqual([]);
    // Remembered: the product is unknown under this data version.
    expect(await found()).toEqual([]);
    const summary = await importVulnerabilities(harness.database, [JSON.stringify(SMASH_BALLOON_XSS)]);
    expect(summary.rejected).toEqual([]);
    const deadline = Date.now() + 10_000;
    let ids: string[] = [];
    while (Date.now() < deadline) {
      ids = await found();
      if (ids.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(ids).toEqual([SMASH_BALLOON_XSS.id]);
  });
});
