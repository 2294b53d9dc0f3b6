import type { CheckQueries } from "./queries.ts";

export type ProductRangeRow = Awaited<ReturnType<CheckQueries["rangesForProducts"]>>[number];

/** How many products' ranges one instance keeps (about 1 KB each on average; real data far less). */
const DEFAULT_CACHED_PRODUCTS = 20_000;

const keyOf = (kind: string, slug: string) => `${kind}\u0000${slug}`;

/**
 * The batch version check's memory (issue 5): each product's affected ranges, read once per data
 * version. Scanners and hosts check the same popular plugins over and over, so most items of a batch
 * are answered without a query; a product with no ranges (or unknown) is remembered too. The whole
 * cache is dropped when the public data version changes (an import or a publication), so an answer
 * is never older than the data every other public read shows. Least recently used products go first.
 */
export function createProductRangesCache<Row extends { kind: string; slug: string } = ProductRangeRow>(
  /** The rows of these products (as read, or already prepared for comparison by the caller). */
  load: (kinds: string[], slugs: string[]) => Promise<Row[]>,
  dataVersion: () => string,
  maxProducts = DEFAULT_CACHED_PRODUCTS,
) {
  let version = dataVersion();
  const entries = new Map<string, Row[]>();

  return {
    /** The ranges of each named product, by `kind\0slug`, newest vulnerability first. */
    async rangesOf(items: readonly { kind: string; slug: string }[]): Promise<Map<string, Row[]>> {
      const current = dataVersion();
      if (current !== version) {
        entries.clear();
        version = current;
      }
      const found = new Map<string, Row[]>();
      const missing = new Map<string, { kind: string; slug: string }>();
      for (const { kind, slug } of items) {
        const key = keyOf(kind, slug);
        const cached = entries.get(key);
        if (cached) {
          entries.delete(key);
          entries.set(key, cached);
          found.set(key, cached);
        } else missing.set(key, { kind, slug });
      }
      if (missing.size === 0) return found;

      const wanted = [...missing.values()];
      const rows = await load(
        wanted.map((item) => item.kind),
        wanted.map((item) => item.slug),
      );
      for (const key of missing.keys()) found.set(key, []);
      for (const row of rows) found.get(keyOf(row.kind, row.slug))?.push(row);
      // Only what was read under the version still current is kept.
      if (dataVersion() === version) {
        for (const key of missing.keys()) entries.set(key, found.get(key) ?? []);
        for (const oldest of entries.keys()) {
          if (entries.size <= maxProducts) break;
          entries.delete(oldest);
        }
      }
      return found;
    },
    get size() {
      return entries.size;
    },
  };
}

export { keyOf as productRangesKey };
