import {
  type AffectedRange,
  CHECK_LATEST_VERSION,
  type CheckedVulnerability,
  type CheckRequest,
  describeAffectedRange,
  isVersionAffected,
} from "@pressguard/domain";
import type { Database } from "../../db/client.ts";
import { pagePaths } from "../vulnerabilities/presenters.ts";
import { createProductRangesCache, type ProductRangeRow, productRangesKey } from "./product-ranges-cache.ts";
import { createCheckQueries } from "./queries.ts";

interface CheckServiceOptions {
  database: Database;
  appUrl: string;
  /** The public data version; the batch check's range cache lives as long as one version. */
  dataVersion?: () => string;
}

/** The batch version check (PRODUCT.md §6, decision 014): which known vulnerabilities affect each version. */
export function createCheckService({ database, appUrl, dataVersion = () => "" }: CheckServiceOptions) {
  const queries = createCheckQueries(database);

  /**
   * What the batch check keeps per range: the product's current version, the bounds to compare, and
   * the answer's entry serialised once (its URL included), shared by every batch that finds it. A
   * known product without ranges keeps one entry with no range: it is known.
   */
  const checkEntryOf = (row: ProductRangeRow) => {
    const product = { kind: row.kind, slug: row.slug, currentVersion: row.current_version };
    if (row.id === null) return { ...product, range: null, id: null, json: null };
    const vulnerability: CheckedVulnerability = {
      id: row.id,
      title: row.title,
      cve: row.cve,
      severity: row.severity,
      fixed_in: row.fixed_in,
      affected_versions: describeAffectedRange(row),
      url:
        appUrl +
        pagePaths.vulnerability(
          { platform: row.platform, kind: row.main_kind, slug: row.main_slug },
          row.vulnerability_slug,
        ),
    };
    return {
      ...product,
      range: {
        prefix: row.prefix as "<=" | "<" | "",
        version: row.version,
        ...(row.introduced != null && { introduced: row.introduced }),
        introduced_inclusive: row.introduced_inclusive,
        ...(row.fixed != null && { fixed: row.fixed }),
        ...(row.last_affected != null && { last_affected: row.last_affected }),
      } satisfies AffectedRange,
      id: row.id,
      json: Buffer.from(JSON.stringify(vulnerability)),
    };
  };
  const productRanges = createProductRangesCache(
    async (kinds, slugs) => (await queries.rangesForProducts(kinds, slugs)).map(checkEntryOf),
    dataVersion,
  );

  return {
    /**
     * The batch check's answer, UTF-8 JSON in the shape of `CheckResponse`: the ranges of every named
     * product (from the per-version cache, one query for the rest), compared here (domain rules), and
     * the answer assembled from entries encoded when they were cached. Serialising ~100 KB answers
     * afresh and encoding them again to send them was most of a repeated check's cost.
     */
    async checkVersions(request: CheckRequest): Promise<Buffer> {
      // Slugs are matched whatever their case: the cache and the query see them in lower case.
      const wanted = request.items.map((item) => ({ kind: item.kind, slug: item.slug.toLowerCase() }));
      const byProduct = await productRanges.rangesOf(wanted);
      const parts: Buffer[] = [CHECK_OPEN];
      request.items.forEach((item, index) => {
        const entries = byProduct.get(productRangesKey(item.kind, item.slug.toLowerCase())) ?? [];
        const known = entries.length > 0;
        const checked =
          item.version.toLowerCase() === CHECK_LATEST_VERSION
            ? (entries[0]?.currentVersion ?? null)
            : item.version;
        const head = `${index === 0 ? "" : ","}{"kind":${JSON.stringify(item.kind)},"slug":${JSON.stringify(item.slug)},"version":${JSON.stringify(item.version)},"known":${known},"checked_version":${JSON.stringify(checked)},"vulnerabilities":[`;
        parts.push(Buffer.from(head));
        const seen = new Set<string>();
        // `latest` of a product whose current version is unknown (checked null): nothing to compare.
        if (checked !== null) {
          for (const entry of entries) {
            if (entry.id === null || seen.has(entry.id) || !isVersionAffected(checked, entry.range)) continue;
            if (seen.size > 0) parts.push(COMMA);
            seen.add(entry.id);
            parts.push(entry.json);
          }
        }
        parts.push(ITEM_CLOSE);
      });
      parts.push(CHECK_CLOSE);
      return Buffer.concat(parts);
    },
  };
}

const CHECK_OPEN = Buffer.from('{"results":[');
const CHECK_CLOSE = Buffer.from("]}");
const ITEM_CLOSE = Buffer.from("]}");
const COMMA = Buffer.from(",");

export type CheckService = ReturnType<typeof createCheckService>;
