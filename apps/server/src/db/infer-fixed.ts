import { affectedRangeOf, compareVersions, isVersionAffected, type RangeBounds } from "@pressguard/domain";
import type { SqlRunner } from "./client.ts";

/**
 * "Fixed in a later version", inferred (issue 17). A record without a fixed version counted as
 * present on product pages even when the product's current version (products.version, from the
 * plugin directory) is long past every affected version. Such a range keeps the current version in
 * `affected_ranges.inferred_fixed_from`, and the record keeps its main product's in
 * `vulnerabilities.inferred_fixed_from`, so that lists and counters read a column instead of comparing
 * versions. The rule is `inferRecordFixes`; `updateInferredFixes` applies it to what is stored, at the
 * end of every import, for a published record and for a product whose version a vendor edits. The
 * vulnerability importer applies the rule too as it writes a record: written afterwards, the values of
 * a first import's 10,000 ranges and records cost a second write of each (about 1 s on PGlite).
 */

/** The range's last affected version or first fixed one; null when it has none ("every version", exactly X). */
function upperBoundOf(range: RangeBounds): string | null {
  if (range.fixed) return range.fixed;
  if (range.last_affected) return range.last_affected;
  if (range.prefix === "<" || range.prefix === "<=") return range.version;
  return null;
}

/**
 * For each of one product's ranges on one unfixed record: the product's current version when that
 * version lies past the range (so some later version fixed it), else null. Past means: the range has
 * an upper bound, the current version is in none of the product's ranges on the record, is not below
 * the range's `introduced`, and is not below the bound ("<= *" is never passed: "*" sorts last).
 */
export function inferFixedFrom(current: string, ranges: readonly RangeBounds[]): (string | null)[] {
  if (ranges.some((range) => isVersionAffected(current, affectedRangeOf(range)))) {
    return ranges.map(() => null);
  }
  return ranges.map((range) => {
    const bound = upperBoundOf(range);
    if (bound === null || compareVersions(current, bound) < 0) return null;
    if (range.introduced && compareVersions(current, range.introduced) < 0) return null;
    return current;
  });
}

/** One product's ranges on one record, with what the rule reads of the product. */
export interface ProductRanges {
  /** The product's current version (products.version); null when unknown. */
  current: string | null;
  /** The product's own fixed version on the record (affected_ranges.fixed_in). */
  fixedIn: string | null;
  /** The record's main product (vulnerabilities.product_id). */
  main: boolean;
  ranges: readonly RangeBounds[];
}

/**
 * The rule: a record with a fix (`patched`, or the product's own fixed version) infers nothing;
 * otherwise each product's ranges are compared with its current version. The record's value is its
 * main product's (null when no range of it is passed).
 */
export function inferRecordFixes(
  patched: boolean,
  products: readonly ProductRanges[],
): { ranges: (string | null)[][]; record: string | null } {
  const ranges = products.map((product) =>
    patched || product.fixedIn !== null || product.current === null
      ? product.ranges.map(() => null)
      : inferFixedFrom(product.current, product.ranges),
  );
  const mainIndex = products.findIndex((product) => product.main);
  const record = mainIndex < 0 ? null : (ranges[mainIndex]!.find((value) => value !== null) ?? null);
  return { ranges, record };
}

/** What the pass reads of a range, as a JSON array (one text for all rows: PGlite reads it 3x faster). */
type StoredRange = [
  id: number,
  vulnerabilityId: string,
  productId: number,
  main: boolean,
  patched: boolean,
  fixedIn: string | null,
  current: string | null,
  prefix: string,
  version: string,
  introduced: string | null,
  introducedInclusive: boolean,
  fixed: string | null,
  lastAffected: string | null,
  stored: string | null,
  storedRecord: string | null,
];

/** Which records to look at: all, one (a publication) or those with a range on one product. */
export type InferFixedScope = { vulnerabilityId: string } | { productId: number } | undefined;

/**
 * Brings every `inferred_fixed_from` of the scope up to date: one read, the rule here, one write of
 * the rows whose value changes (none after an unchanged re-import). Returns how many rows changed,
 * so that the caller bumps the data version when it is not 0. An update of affected_ranges fires the
 * search documents' statement trigger (migration 0012): a bulk caller runs this in a transaction with
 * `pressguard.bulk_import` on, as the column is in no document.
 */
export async function updateInferredFixes(sql: SqlRunner, scope?: InferFixedScope): Promise<number> {
  const params: unknown[] = [];
  let scopeSql = "";
  if (scope && "vulnerabilityId" in scope) {
    params.push(scope.vulnerabilityId);
    scopeSql = "ar.vulnerability_id = $1::uuid and";
  } else if (scope) {
    params.push(scope.productId);
    scopeSql = "ar.product_id = $1 and";
  }
  // The ranges the rule may give a value, and those holding one that may have to go (the record got
  // a fix, the product lost its version). A record holding a value is read whole.
  const { rows } = await sql.query<{ ranges: string }>(
    `select coalesce(json_agg(json_build_array(ar.id, ar.vulnerability_id, ar.product_id,
         ar.product_id = v.product_id, v.patched, ar.fixed_in, p.version, ar.prefix, ar.version,
         ar.introduced, ar.introduced_inclusive, ar.fixed, ar.last_affected, ar.inferred_fixed_from,
         v.inferred_fixed_from) order by ar.vulnerability_id, ar.product_id, ar.position), '[]')::text
       as ranges
     from affected_ranges ar
     join vulnerabilities v on v.id = ar.vulnerability_id
     join products p on p.id = ar.product_id
     where ${scopeSql} ((not v.patched and ar.fixed_in is null and p.version is not null)
       or ar.inferred_fixed_from is not null or v.inferred_fixed_from is not null)`,
    params,
  );
  const stored = JSON.parse(rows[0]?.ranges ?? "[]") as StoredRange[];

  /** Rows by record, then by product (in the read's order). */
  const records = new Map<string, Map<number, StoredRange[]>>();
  for (const row of stored) {
    const [, vulnerabilityId, productId] = row;
    const products = records.get(vulnerabilityId) ?? new Map<number, StoredRange[]>();
    records.set(vulnerabilityId, products);
    const group = products.get(productId);
    if (group) group.push(row);
    else products.set(productId, [row]);
  }
  const rangeIds: number[] = [];
  const rangeValues: (string | null)[] = [];
  const recordIds: string[] = [];
  const recordValues: (string | null)[] = [];
  for (const [vulnerabilityId, products] of records) {
    const groups = [...products.values()];
    const first = groups[0]![0]!;
    const fixes = inferRecordFixes(
      first[4],
      groups.map((group) => ({
        current: group[0]![6],
        fixedIn: group[0]![5],
        main: group[0]![3],
        ranges: group.map((row) => ({
          prefix: row[7],
          version: row[8],
          introduced: row[9],
          introduced_inclusive: row[10],
          fixed: row[11],
          last_affected: row[12],
        })),
      })),
    );
    groups.forEach((group, groupIndex) => {
      group.forEach((row, index) => {
        const value = fixes.ranges[groupIndex]![index] ?? null;
        if (value === row[13]) return;
        rangeIds.push(row[0]);
        rangeValues.push(value);
      });
    });
    // A product scope reads only that product's ranges: it decides the records it is the main product of.
    const decides = !(scope && "productId" in scope) || groups.some((group) => group[0]![3]);
    if (decides && fixes.record !== first[14]) {
      recordIds.push(vulnerabilityId);
      recordValues.push(fixes.record);
    }
  }
  if (rangeIds.length === 0 && recordIds.length === 0) return 0;
  await sql.query(
    `with ranges as (
       update affected_ranges ar set inferred_fixed_from = u.value
       from unnest($1::int[], $2::text[]) as u(id, value)
       where ar.id = u.id
     )
     update vulnerabilities v set inferred_fixed_from = u.value
     from unnest($3::uuid[], $4::text[]) as u(id, value)
     where v.id = u.id`,
    [rangeIds, rangeValues, recordIds, recordValues],
  );
  return rangeIds.length + recordIds.length;
}

/**
 * SQL: whether the record `v` is fixed for the product `product` (an SQL expression of its id): a
 * known fix, or that product's current version past its range. The product's counters, its tabs and
 * the search's products all count with it, so their numbers agree.
 */
export const fixedForProductSql = (product: string) =>
  `(v.patched or exists (select 1 from affected_ranges fr where fr.vulnerability_id = v.id
     and fr.product_id = ${product} and fr.inferred_fixed_from is not null))`;
