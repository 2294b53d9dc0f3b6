import {
  type AffectedRange,
  type CheckedVulnerability,
  type CheckRequest,
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
   * What the batch check keeps per range: the bounds to compare, and the answer's entry serialised
   * once (its URL included), shared by every batch that finds it.
   */
  const checkEntryOf = (row: ProductRangeRow) => {
    const vulnerability: CheckedVulnerability = {
      id: row.id,
      title: row.title,
      cve: row.cve,
      severity: row.severity,
      fixed_in: row.fixed_in,
      url:
        appUrl +
        pagePaths.vulnerability(
          { platform: row.platform, kind: row.main_kind, slug: row.main_slug },
          row.vulnerability_slug,
        ),
    };
    return {
      kind: row.kind,
      slug: row.slug,
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
      const byProduct = await productRanges.rangesOf(request.items);
      const parts: Buffer[] = [CHECK_OPEN];
      request.items.forEach((item, index) => {
        const head = `${index === 0 ? "" : ","}{"kind":${JSON.stringify(item.kind)},"slug":${JSON.stringify(item.slug)},"version":${JSON.stringify(item.version)},"vulnerabilities":[`;
        parts.push(Buffer.from(head));
        const seen = new Set<string>();
        for (const entry of byProduct.get(productRangesKey(item.kind, item.slug)) ?? []) {
          if (seen.has(entry.id) || !isVersionAffected(item.version, entry.range)) continue;
          if (seen.size > 0) parts.push(COMMA);
          seen.add(entry.id);
          parts.push(entry.json);
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
