import {
  type AffectedRange,
  affectedRangeOf,
  CHECK_LATEST_VERSION,
  type CheckedVulnerability,
  type CheckRequest,
  describeAffectedRange,
  isVersionAffected,
} from "@pressguard/domain";
import type { Database, SqlRunner } from "../../db/client.ts";
import { epssOf, knownExploitedOf, pagePaths } from "../public-records/presenters.ts";
import { createProductRangesCache, type ProductRangeRow, productRangesKey } from "./product-ranges-cache.ts";
import { productSlugKey } from "./product-slug.ts";
import { createCheckQueries } from "./queries.ts";

interface CheckServiceOptions {
  database: Database;
  appUrl: string;
  /** The public data version; the batch check's range cache lives as long as one version. */
  dataVersion?: () => string;
}

/** A product's cached record with its range: its answer's entry encoded once (`json`). */
export interface CheckEntry {
  kind: string;
  slug: string;
  currentVersion: string | null;
  range: AffectedRange | null;
  id: string | null;
  /** What to update to: this product's listed fix, or else the one inferred above its range. */
  fixedIn: string | null;
  /** Whether the record's CVE is in CISA's KEV catalog: a watchlist's exposures list those first. */
  knownExploited: boolean;
  json: Buffer | null;
}

/** One item compared: whether its product is known, the version compared, the records affecting it. */
export interface CheckMatch {
  known: boolean;
  /** The version sent, or the product's current version for `latest` (null when that is unknown). */
  checked: string | null;
  affecting: CheckEntry[];
}

/** The batch version check (PRODUCT.md §6, decision 014): which known vulnerabilities affect each version. */
export function createCheckService({ database, appUrl, dataVersion = () => "" }: CheckServiceOptions) {
  const queries = createCheckQueries(database);

  /**
   * What the batch check keeps per range: the product's current version, the bounds to compare, and
   * the answer's entry serialised once (its URL included), shared by every batch that finds it. A
   * known product without ranges keeps one entry with no range: it is known.
   */
  const checkEntryOf = (row: ProductRangeRow): CheckEntry => {
    const product = { kind: row.kind, slug: row.slug, currentVersion: row.current_version };
    if (row.id === null)
      return { ...product, range: null, id: null, fixedIn: null, knownExploited: false, json: null };
    const range = affectedRangeOf(row);
    const vulnerability: CheckedVulnerability = {
      id: row.id,
      title: row.title,
      cve: row.cve,
      severity: row.severity,
      fixed_in: row.fixed_in,
      // Issue 17's rule, applied where it lives (db/infer-fixed.ts): the current version above the range.
      fixed_in_inferred: row.inferred_fixed_from,
      affected_versions: describeAffectedRange(row),
      url:
        appUrl +
        pagePaths.vulnerability(
          { platform: row.platform, kind: row.main_kind, slug: row.main_slug },
          row.vulnerability_slug,
        ),
      known_exploited: knownExploitedOf(row.known_exploited),
      epss: epssOf(row.epss),
    };
    return {
      ...product,
      range,
      id: row.id,
      fixedIn: row.fixed_in ?? vulnerability.fixed_in_inferred,
      knownExploited: vulnerability.known_exploited !== null,
      json: Buffer.from(JSON.stringify(vulnerability)),
    };
  };
  const entriesOf = async (kinds: string[], slugs: string[], sql?: SqlRunner) =>
    (await queries.rangesForProducts(kinds, slugs, sql)).map(checkEntryOf);
  const productRanges = createProductRangesCache(entriesOf, dataVersion);

  /** The products of these items, as the cache and the query key them. */
  const productsOf = (items: CheckRequest["items"]) =>
    items.map((item) => ({ kind: item.kind, slug: productSlugKey(item.slug) }));

  /**
   * Each item's product and the records whose ranges include its version (each record once, newest
   * first): the one comparison of versions the batch check, the watchlists and their alerts share.
   * Items of the same product and version (a host's sites) are compared once.
   */
  function compare(
    items: CheckRequest["items"],
    wanted: { kind: string; slug: string }[],
    byProduct: Map<string, CheckEntry[]>,
  ): CheckMatch[] {
    const compared = new Map<string, CheckMatch>();
    return items.map((item, index) => {
      const key = productRangesKey(item.kind, wanted[index]!.slug);
      const memo = `${key}\u0000${item.version.toLowerCase()}`;
      const known = compared.get(memo);
      if (known) return known;
      const entries = byProduct.get(key) ?? [];
      const currentVersion = entries[0]?.currentVersion ?? null;
      const checked = item.version.toLowerCase() === CHECK_LATEST_VERSION ? currentVersion : item.version;
      const affecting: CheckEntry[] = [];
      const seen = new Set<string>();
      // `latest` of a product whose current version is unknown (checked null): nothing to compare.
      if (checked !== null) {
        for (const entry of entries) {
          if (entry.id === null || entry.range === null || seen.has(entry.id)) continue;
          if (!isVersionAffected(checked, entry.range)) continue;
          seen.add(entry.id);
          affecting.push(entry);
        }
      }
      const match = { known: entries.length > 0, checked, affecting };
      compared.set(memo, match);
      return match;
    });
  }

  /** Compares the items with their products' ranges from the per-data-version cache. */
  async function matchItems(items: CheckRequest["items"]): Promise<CheckMatch[]> {
    const wanted = productsOf(items);
    return compare(items, wanted, await productRanges.rangesOf(wanted));
  }

  return {
    matchItems,

    /**
     * The same comparison on ranges read now through `sql` (a transaction's): the alert job matches
     * records just written, which the cache may not see until the data version moves.
     */
    async matchItemsNow(items: CheckRequest["items"], sql?: SqlRunner): Promise<CheckMatch[]> {
      const wanted = productsOf(items);
      const byProduct = new Map<string, CheckEntry[]>();
      for (const entry of await entriesOf(
        wanted.map((item) => item.kind),
        wanted.map((item) => item.slug),
        sql,
      )) {
        const key = productRangesKey(entry.kind, entry.slug);
        const group = byProduct.get(key);
        if (group) group.push(entry);
        else byProduct.set(key, [entry]);
      }
      return compare(items, wanted, byProduct);
    },

    /**
     * The batch check's answer, UTF-8 JSON in the shape of `CheckResponse`: the ranges of every named
     * product (from the per-version cache, one query for the rest), compared here (domain rules), and
     * the answer assembled from entries encoded when they were cached. Serialising ~100 KB answers
     * afresh and encoding them again to send them was most of a repeated check's cost.
     */
    async checkVersions(request: CheckRequest): Promise<Buffer> {
      const matches = await matchItems(request.items);
      const parts: Buffer[] = [CHECK_OPEN];
      request.items.forEach((item, index) => {
        const { known, checked, affecting } = matches[index]!;
        const head = `${index === 0 ? "" : ","}{"kind":${JSON.stringify(item.kind)},"slug":${JSON.stringify(item.slug)},"version":${JSON.stringify(item.version)},"known":${known},"checked_version":${JSON.stringify(checked)},"vulnerabilities":[`;
        parts.push(Buffer.from(head));
        affecting.forEach((entry, position) => {
          if (position > 0) parts.push(COMMA);
          parts.push(entry.json!);
        });
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
