import { describe, expect, it } from "vitest";
import { createProductRangesCache, type ProductRangeRow, productRangesKey } from "./product-ranges-cache.ts";

const rowOf = (kind: string, slug: string, id: string) => ({ kind, slug, id }) as unknown as ProductRangeRow;

function harness(maxProducts?: number) {
  let version = "v1";
  const loads: string[][] = [];
  const table = [
    rowOf("plugin", "alpha", "a-1"),
    rowOf("plugin", "alpha", "a-2"),
    rowOf("theme", "beta", "b-1"),
  ];
  const cache = createProductRangesCache(
    async (kinds, slugs) => {
      loads.push(slugs);
      return table.filter((row) =>
        kinds.some((kind, index) => kind === row.kind && slugs[index] === row.slug),
      );
    },
    () => version,
    maxProducts,
  );
  return {
    cache,
    loads,
    table,
    bump(next: string) {
      version = next;
    },
  };
}

const ALPHA = { kind: "plugin", slug: "alpha" };
const BETA = { kind: "theme", slug: "beta" };
const UNKNOWN = { kind: "plugin", slug: "nowhere" };

describe("the batch check's product ranges cache", () => {
  it("reads each product once per data version, unknown products included", async () => {
    const { cache, loads } = harness();
    const first = await cache.rangesOf([ALPHA, UNKNOWN, ALPHA]);
    expect(first.get(productRangesKey("plugin", "alpha"))?.map((row) => row.id)).toEqual(["a-1", "a-2"]);
    expect(first.get(productRangesKey("plugin", "nowhere"))).toEqual([]);
    expect(loads).toEqual([["alpha", "nowhere"]]);

    const second = await cache.rangesOf([ALPHA, UNKNOWN, BETA]);
    expect(second.get(productRangesKey("theme", "beta"))?.map((row) => row.id)).toEqual(["b-1"]);
    expect(loads).toEqual([["alpha", "nowhere"], ["beta"]]);
    expect(cache.size).toBe(3);
  });

  it("forgets everything when the public data version changes", async () => {
    const { cache, loads, table, bump } = harness();
    await cache.rangesOf([UNKNOWN]);
    table.push(rowOf("plugin", "nowhere", "n-1"));
    expect((await cache.rangesOf([UNKNOWN])).get(productRangesKey("plugin", "nowhere"))).toEqual([]);
    bump("v2");
    const fresh = await cache.rangesOf([UNKNOWN]);
    expect(fresh.get(productRangesKey("plugin", "nowhere"))?.map((row) => row.id)).toEqual(["n-1"]);
    expect(loads).toHaveLength(2);
  });

  it("keeps at most the configured number of products, dropping the least recently used", async () => {
    const { cache, loads } = harness(2);
    await cache.rangesOf([ALPHA]);
    await cache.rangesOf([BETA]);
    await cache.rangesOf([ALPHA]);
    await cache.rangesOf([UNKNOWN]);
    expect(cache.size).toBe(2);
    await cache.rangesOf([ALPHA]);
    await cache.rangesOf([BETA]);
    expect(loads).toEqual([["alpha"], ["beta"], ["nowhere"], ["beta"]]);
  });
});
