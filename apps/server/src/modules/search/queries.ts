import { describeAffectedRange, type RangeBounds } from "@pressguard/domain";
import type { Database } from "../../db/client.ts";
import { fixedForProductSql } from "../../db/infer-fixed.ts";
import { keptByVersion } from "../../db/kept-by-version.ts";

/**
 * The public search's SQL: parameterised statements built from fixed fragments, since the WHERE
 * clause depends on the filters. Vulnerabilities by text and filters (decision 015's match limit),
 * and the VDP directory (products: product-queries.ts).
 */

export interface SummaryRow {
  id: string;
  slug: string;
  title: string;
  cve: string | null;
  severity: string | null;
  cvss_score: number | null;
  type_code: number | null;
  patched: boolean;
  fixed_in: string | null;
  inferred_fixed_from: string | null;
  published_at: Date | string | null;
  created_at: Date | string;
  affected_versions: string | null;
  product_id: number;
  platform: string;
  kind: string;
  product_slug: string;
  product_name: string;
  /** The stored CISA KEV listing and FIRST EPSS score (jsonb, issue 34), null when absent. */
  known_exploited: unknown;
  epss: unknown;
  withdrawn_at: Date | string | null;
}

/** A summary as the statements read it: the main product's first range, described once read. */
type SummaryQueryRow = Omit<SummaryRow, "affected_versions"> & { affected_range: RangeBounds | null };

const summaryRowOf = ({ affected_range, ...row }: SummaryQueryRow): SummaryRow => ({
  ...row,
  affected_versions: affected_range ? describeAffectedRange(affected_range) : null,
});

interface DocumentStatistics {
  /** The table's estimated row count. */
  rows: number;
  /** Share of records holding each of the most common words. */
  frequencies: Map<string, number>;
  /** The smallest share in that list: any other word is rarer. */
  rarest: number;
}

export interface SearchResult {
  rows: SummaryRow[];
  total: number;
  /** More than `matchLimit` matched: `total` is the limit and the rows are the newest. */
  capped: boolean;
}

export interface SearchFilters {
  text?: string | undefined;
  cve?: string | undefined;
  /** One record by its id. */
  id?: string | undefined;
  cwe?: string | undefined;
  kind?: string | undefined;
  type?: number | undefined;
  severity?: string | undefined;
  patched?: boolean | undefined;
  year?: number | undefined;
  /** Only vulnerabilities with a range on this product (the product tabs). */
  productId?: number | undefined;
  /** No vulnerability with a range on this product (the search's other matches, after its records). */
  excludeProductId?: number | undefined;
  /** Only vulnerabilities credited to this researcher. */
  researcherId?: number | undefined;
  /** Only records whose CVE is in CISA's KEV catalog (true), or only the others (false). */
  knownExploited?: boolean | undefined;
  /**
   * Withdrawn records (decision 035) are left out of every list unless asked for: a lookup by CVE id
   * or record id still finds one (its page stays reachable, marked withdrawn).
   */
  includeWithdrawn?: boolean | undefined;
  /** `epss`: the highest EPSS score first, records without one last, then by date. */
  sort: "date" | "relevance" | "epss";
  /**
   * The list's total, when the caller knows it (an unfiltered list: the headline count; a product's
   * tab: its counter): spares the count.
   */
  knownTotal?: number | undefined;
  /**
   * The most matches counted and ordered exactly (the public search, decision 015). Beyond it the
   * answer is `capped`: the total is this limit, the order is by date and no page goes further.
   */
  matchLimit?: number | undefined;
  limit: number;
  offset: number;
  /** Only the total (and whether it is capped), no rows: a list whose page others filled. */
  countOnly?: boolean | undefined;
}

const SUMMARY_COLUMNS = `v.id, v.slug, v.title, v.cve, v.severity, v.cvss_score::float8 as cvss_score,
  v.type_code, v.patched, v.fixed_in, v.inferred_fixed_from, v.published_at, v.created_at,
  (select json_build_object('prefix', ar.prefix, 'version', ar.version, 'introduced', ar.introduced,
      'introduced_inclusive', ar.introduced_inclusive, 'fixed', ar.fixed, 'last_affected', ar.last_affected)
    from affected_ranges ar
    where ar.vulnerability_id = v.id and ar.product_id = v.product_id order by ar.position limit 1)
    as affected_range,
  p.id as product_id, pl.slug as platform, p.kind, p.slug as product_slug, p.name as product_name,
  s.known_exploited, s.epss, v.withdrawn_at`;

/** What CISA and FIRST say of the record (decision 036): every statement selecting SUMMARY_COLUMNS joins it. */
const SIGNALS_JOIN = "left join vulnerability_signals s on s.vulnerability_id = v.id";
/** A record's EPSS value, for the match sets that are sorted by it. */
const EPSS_OF_V = "(select s.epss from vulnerability_signals s where s.vulnerability_id = v.id)";

/** Newest first; records without a date (most 2025–2026 CVEs, see the data README §1.7) by CVE id. */
const DATE_ORDER = "v.published_at desc nulls last, v.cve desc nulls last, v.id";
/** The highest EPSS score first, records without one last (issue 34); ties and the rest by date. */
const epssOrder = (alias: string) => `(${alias}.epss->>'score')::float8 desc nulls last`;

/** How many filtered lists' counts one instance keeps for the current data version. */
const KEPT_COUNTS = 2_000;

export function createSearchQueries(database: Database, dataVersion: () => string = () => "") {
  const run = database.sql;

  /**
   * Exact counts of lists by filters alone (no words), and the capped counts of searches whose page
   * is filled by others (productFirst), kept for their data version: browsing page after page of
   * the same filters counts once (a count of 250,000 rows is the page's costliest part). Keyed by
   * the cap, the statement and its values until the data version moves, like the response store.
   */
  const counts = keptByVersion<{ total: number; capped: boolean }>(dataVersion, KEPT_COUNTS);
  const keptCount = (whereSql: string, params: unknown[], cap?: number) =>
    counts(`${cap}\u0000${whereSql}\u0000${JSON.stringify(params)}`, () =>
      countMatches(whereSql, params, cap),
    );

  /**
   * A full text search in one statement: the matches (one GIN scan and every match's rank) are
   * computed once and serve both the page and the count, which as two queries cost twice that
   * (bench/README.md, cold path). Only for text: without one, the page is a top-N read of the date index and the
   * materialised match set would be the whole filtered table.
   */
  async function searchText(
    whereSql: string,
    plainWhere: string,
    rank: string,
    filters: SearchFilters,
    params: unknown[],
    filterParams: unknown[],
  ): Promise<SearchResult> {
    const cap = filters.matchLimit;
    // A search whose words are all common is counted first, by a statement that stops at the limit:
    // the prepared one below would read every match (a GIN bitmap of 229 000 records, 25 ms alone).
    if (cap !== undefined && (await likelyBroad(filters.text ?? "", cap))) {
      const counted = await countMatches(plainWhere, filterParams, cap);
      if (counted.capped) return newestOfMany(plainWhere, filterParams, filters);
    }
    const byRank =
      filters.sort === "relevance" ? "f.rank desc, " : filters.sort === "epss" ? `${epssOrder("f")}, ` : "";
    const order = `${byRank}f.published_at desc nulls last, f.cve desc nulls last, f.id`;
    const { rows } = await run.query<SummaryQueryRow & { total: number }>(
      `with filtered as materialized (
         select v.id, ${rank} as rank, v.published_at, v.cve,
           ${filters.sort === "epss" ? EPSS_OF_V : "null::jsonb"} as epss
         from vulnerabilities v
         ${whereSql}
         ${cap === undefined ? "" : `limit ${cap + 1}`}
       ), page as (
         select f.* from filtered f order by ${order}
         limit $${params.length + 1} offset $${params.length + 2}
       )
       select ${SUMMARY_COLUMNS}, (select count(*)::int from filtered) as total
       from page f
       join vulnerabilities v on v.id = f.id
       join products p on p.id = v.product_id
       join platforms pl on pl.id = p.platform_id
       ${SIGNALS_JOIN}
       order by ${order}`,
      [...params, filters.limit, filters.offset],
      { prepare: true },
    );
    const total = rows[0]?.total;
    // More matches than the limit after all: the rows above came from an arbitrary part of them.
    if (cap !== undefined && total !== undefined && total > cap)
      return newestOfMany(plainWhere, filterParams, filters);
    if (rows.length > 0 || filters.offset === 0) {
      return {
        rows: rows.map(({ total: _total, ...row }) => summaryRowOf(row)),
        total: total ?? 0,
        capped: false,
      };
    }
    // A page past the end has no row to carry the count.
    const counted = await countMatches(plainWhere, filterParams, cap);
    if (counted.capped) return newestOfMany(plainWhere, filterParams, filters);
    return { rows: [], total: counted.total, capped: false };
  }

  /**
   * Whether the words may match more than `cap` records, from PostgreSQL's statistics of the search
   * document (its most common words and their frequencies, gathered by ANALYZE): every word common,
   * or an OR. A wrong "no" costs one slow search, never a wrong answer.
   */
  async function likelyBroad(text: string, cap: number): Promise<boolean> {
    const words: string[] = text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
    if (words.length === 0 || words.includes("or")) return true;
    const stats = await documentStatistics();
    let matches = stats.rows;
    for (const word of words) matches *= stats.frequencies.get(word) ?? stats.rarest;
    return matches > cap;
  }

  let statistics: { at: number; value: Promise<DocumentStatistics> } | null = null;
  /** Read again every ten minutes: frequencies move slowly, and only ANALYZE changes them. */
  function documentStatistics(): Promise<DocumentStatistics> {
    if (!statistics || Date.now() - statistics.at > 600_000) {
      const value = readDocumentStatistics();
      statistics = { at: Date.now(), value };
      value.catch(() => {
        statistics = null;
      });
    }
    return statistics.value;
  }

  async function readDocumentStatistics(): Promise<DocumentStatistics> {
    const { rows } = await run.query<{ rows: number; words: string[] | null; frequencies: number[] | null }>(
      `select greatest(c.reltuples, 0)::float8 as rows,
              s.most_common_elems::text::text[] as words,
              s.most_common_elem_freqs::float8[] as frequencies
       from pg_class c
       left join pg_stats s on s.tablename = c.relname and s.attname = 'search_document'
         and s.schemaname = current_schema()
       where c.relname = 'vulnerabilities' and c.relnamespace = current_schema()::regnamespace`,
    );
    const row = rows[0];
    const words = row?.words ?? [];
    const frequencies = row?.frequencies ?? [];
    const byWord = new Map(words.map((word, index) => [word, frequencies[index] ?? 0]));
    // After the words' own frequencies come the smallest and the largest of them.
    const rarest = frequencies[words.length] ?? 0;
    return { rows: row?.rows ?? 0, frequencies: byWord, rarest };
  }

  /** The number of matches, counting no further than `cap` + 1 when there is a cap. */
  async function countMatches(whereSql: string, params: unknown[], cap: number | undefined) {
    const matches = `select 1 from vulnerabilities v ${whereSql} ${cap === undefined ? "" : `limit ${cap + 1}`}`;
    const { rows } = await run.query<{ total: number }>(
      `select count(*)::int as total from (${matches}) m`,
      params,
    );
    const total = rows[0]?.total ?? 0;
    return cap !== undefined && total > cap ? { total: cap, capped: true } : { total, capped: false };
  }

  /**
   * A page of a search with more matches than its limit: the newest first, read along the date index
   * until the page is full, never past the limit. Planned for its values (not prepared): how far the
   * scan goes before the page is full depends on how many records match.
   */
  async function newestOfMany(
    whereSql: string,
    params: unknown[],
    filters: SearchFilters,
  ): Promise<SearchResult> {
    const cap = filters.matchLimit ?? 0;
    if (filters.offset >= cap) return { rows: [], total: cap, capped: true };
    const limit = Math.min(filters.limit, cap - filters.offset);
    const { rows } = await run.query<SummaryQueryRow>(
      `select ${SUMMARY_COLUMNS}
       from vulnerabilities v
       join products p on p.id = v.product_id
       join platforms pl on pl.id = p.platform_id
       ${SIGNALS_JOIN}
       ${whereSql}
       order by ${DATE_ORDER} limit $${params.length + 1} offset $${params.length + 2}`,
      [...params, limit, filters.offset],
    );
    return { rows: rows.map(summaryRowOf), total: cap, capped: true };
  }

  /**
   * The ids of a page of a list sorted by EPSS, without words or a selective filter: the scored
   * records walked from the highest score by their index (`vulnerability_signals_epss_idx`), and only
   * when the page reaches past the last of them the unscored ones by the date index. One statement
   * over an outer join, or a union of both, read every record for every page (decision 036).
   */
  async function epssPageIds(whereSql: string, params: unknown[], limit: number, offset: number) {
    const and = (condition: string) => (whereSql ? `${whereSql} and ${condition}` : `where ${condition}`);
    const next = params.length + 1;
    const { rows: scored } = await run.query<{ id: string }>(
      `select v.id from vulnerability_signals e join vulnerabilities v on v.id = e.vulnerability_id
       ${and("e.epss is not null")}
       order by (e.epss->>'score')::float8 desc, ${DATE_ORDER} limit $${next} offset $${next + 1}`,
      [...params, limit, offset],
    );
    const ids = scored.map((row) => row.id);
    if (ids.length === limit) return ids;
    const scoredTotal =
      ids.length > 0
        ? offset + ids.length
        : (
            await run.query<{ total: number }>(
              `select count(*)::int as total from vulnerability_signals e
               join vulnerabilities v on v.id = e.vulnerability_id ${and("e.epss is not null")}`,
              params,
            )
          ).rows[0]!.total;
    const { rows: unscored } = await run.query<{ id: string }>(
      `select v.id from vulnerabilities v
       ${and("not exists (select 1 from vulnerability_signals e where e.vulnerability_id = v.id and e.epss is not null)")}
       order by ${DATE_ORDER} limit $${next} offset $${next + 1}`,
      [...params, limit - ids.length, Math.max(0, offset - scoredTotal)],
    );
    return [...ids, ...unscored.map((row) => row.id)];
  }

  return {
    async search(filters: SearchFilters): Promise<SearchResult> {
      const params: unknown[] = [];
      const param = (value: unknown) => {
        params.push(value);
        return `$${params.length}`;
      };
      const where: string[] = [];
      let rank = "0";
      let textQuery = "";
      if (filters.cve) where.push(`v.cve = ${param(filters.cve)}`);
      if (filters.id) where.push(`v.id = ${param(filters.id)}::uuid`);
      if (filters.cwe) where.push(`v.cwe = ${param(filters.cwe)}`);
      if (filters.text) {
        // A sub-select is computed once per statement; the bare call would be evaluated again for
        // every match's rank under a prepared statement's generic plan.
        textQuery = `websearch_to_tsquery('simple', ${param(filters.text)})`;
        const query = `(select ${textQuery})`;
        // One document holds the title, the description and the affected products' names and slugs
        // (kept by triggers, migration 0012): one GIN scan; a product match weighs most in the rank.
        where.push(`v.search_document @@ ${query}`);
        rank = `ts_rank(v.search_document, ${query})`;
      }
      // The main product's kind, copied onto the record (migration 0013): no join per match.
      if (filters.kind) where.push(`v.product_kind = ${param(filters.kind)}`);
      if (filters.type !== undefined) where.push(`v.type_code = ${param(filters.type)}`);
      if (filters.severity) where.push(`v.severity = ${param(filters.severity)}`);
      // Fixed in a later version (inferred, issue 17) counts as patched: on a product's tabs by that
      // product's range, as its counters do (productCounters); elsewhere by the main product's.
      if (filters.patched !== undefined && filters.productId !== undefined) {
        where.push(`${fixedForProductSql(param(filters.productId))} = ${param(filters.patched)}`);
      } else if (filters.patched !== undefined) {
        where.push(`(v.patched or v.inferred_fixed_from is not null) = ${param(filters.patched)}`);
      }
      if (filters.year !== undefined) {
        // The year a record was published; records without a date count in their CVE id's year.
        const from = param(`${filters.year}-01-01T00:00:00Z`);
        const to = param(`${filters.year + 1}-01-01T00:00:00Z`);
        const cvePrefix = param(`CVE-${filters.year}-%`);
        where.push(
          `((v.published_at >= ${from}::timestamptz and v.published_at < ${to}::timestamptz)
            or (v.published_at is null and v.cve like ${cvePrefix}))`,
        );
      }
      if (filters.productId !== undefined) {
        where.push(
          `v.id in (select vulnerability_id from affected_ranges where product_id = ${param(filters.productId)})`,
        );
      }
      if (filters.excludeProductId !== undefined) {
        where.push(
          `v.id not in (select vulnerability_id from affected_ranges where product_id = ${param(filters.excludeProductId)})`,
        );
      }
      if (filters.researcherId !== undefined) {
        where.push(
          `v.id in (select vulnerability_id from credits where researcher_id = ${param(filters.researcherId)})`,
        );
      }
      if (filters.knownExploited !== undefined) {
        // The catalog lists a few hundred WordPress records: the listed ones are found by their index.
        where.push(
          `v.id ${filters.knownExploited ? "in" : "not in"} (select vulnerability_id from vulnerability_signals
             where known_exploited is not null)`,
        );
      }
      if (!filters.includeWithdrawn) where.push("v.withdrawn_at is null");
      const byEpss = filters.sort === "epss";
      // `v.epss` in a match set, `s.epss` where the page is joined to the signals.
      const orderBy = (epss: string) =>
        filters.sort === "relevance" && filters.text
          ? `${rank} desc, ${DATE_ORDER}`
          : byEpss
            ? `${epssOrder(epss)}, ${DATE_ORDER}`
            : DATE_ORDER;
      const order = orderBy("v");
      const whereSql = where.length ? `where ${where.join(" and ")}` : "";
      const filterParams = [...params];
      if (filters.countOnly) {
        // Only the total: kept for the data version, like the counts of filters alone.
        const plainWhere = whereSql.replaceAll(`(select ${textQuery})`, textQuery);
        return { rows: [], ...(await keptCount(plainWhere, filterParams, filters.matchLimit)) };
      }
      if (filters.text) {
        // Statements planned for their values see the words themselves (how common they are).
        const plainWhere = whereSql.replaceAll(`(select ${textQuery})`, textQuery);
        return searchText(whereSql, plainWhere, rank, filters, params, filterParams);
      }
      const selective =
        filters.cve !== undefined ||
        filters.id !== undefined ||
        filters.cwe !== undefined ||
        filters.productId !== undefined ||
        filters.researcherId !== undefined ||
        // The catalog lists ~1,500 CVEs in all: a few hundred WordPress records at most.
        filters.knownExploited === true;
      // The page and the count are two queries: a window count would compute every match's row.
      const cap = filters.matchLimit;
      // With a limit, no page reaches past it (deep offsets would read the date index that far).
      const limit =
        cap === undefined ? filters.limit : Math.max(0, Math.min(filters.limit, cap - filters.offset));
      // The offset walks ids only (the CTE `page`): PostgreSQL computes a row's whole select list
      // (joins, the range sub-select) even for rows an offset skips, and a deep page of 250,000
      // records took 2.7 s that way against a fraction of that for the ids alone.
      const summaries = (pageCte: string, values: unknown[], prepare: boolean) =>
        run.query<SummaryQueryRow>(
          `with ${pageCte}
           select ${SUMMARY_COLUMNS}
           from page join vulnerabilities v on v.id = page.id
           join products p on p.id = v.product_id
           join platforms pl on pl.id = p.platform_id
           ${SIGNALS_JOIN}
           order by ${orderBy("s")}`,
          values,
          { prepare },
        );
      const page =
        limit === 0
          ? Promise.resolve({ rows: [] as SummaryQueryRow[] })
          : selective
            ? // A filter that picks few records (an id, a CWE, a product, a researcher) is applied
              // first and its matches sorted: walking the date order instead reads every newer
              // record first (CWE-352 at 250,000 records: 200,000 rows, 1 s). The same plan suits
              // every value, and planning it afresh cost more than running it (1.1 ms against 0.1 ms
              // for a product's records at 250,000 records).
              summaries(
                `matches as materialized (
                   select v.id, v.published_at, v.cve, ${byEpss ? EPSS_OF_V : "null::jsonb"} as epss
                   from vulnerabilities v ${whereSql}
                 ), page as (
                   select v.id from matches v
                   order by ${order} limit ${param(limit)} offset ${param(filters.offset)}
                 )`,
                params,
                true,
              )
            : byEpss
              ? epssPageIds(whereSql, filterParams, limit, filters.offset).then((ids) =>
                  summaries("page as (select unnest($1::uuid[]) as id)", [ids], false),
                )
              : summaries(
                  `page as (
                     select v.id from vulnerabilities v
                     ${whereSql}
                     order by ${order} limit ${param(limit)} offset ${param(filters.offset)}
                   )`,
                  params,
                  false,
                );
      const known = filters.knownTotal;
      const counted =
        known === undefined
          ? cap === undefined
            ? keptCount(whereSql, filterParams)
            : countMatches(whereSql, filterParams, cap)
          : Promise.resolve(
              cap !== undefined && known > cap
                ? { total: cap, capped: true }
                : { total: known, capped: false },
            );
      const [{ rows }, total] = await Promise.all([page, counted]);
      return { rows: rows.map(summaryRowOf), ...total };
    },

    /** Products with an active program (the VDP directory), optionally matching a full text query. */
    async activePrograms(text: string | undefined, limit: number, offset: number) {
      const params: unknown[] = [];
      let where = "p.is_active";
      if (text) {
        params.push(text);
        where += " and p.search @@ websearch_to_tsquery('simple', $1)";
      }
      const { rows } = await run.query<{
        id: number;
        platform: string;
        kind: string;
        slug: string;
        name: string;
        vulnerabilities: number;
      }>(
        `select p.id, pl.slug as platform, p.kind, p.slug, p.name,
           (select count(*)::int from affected_ranges ar where ar.product_id = p.id) as vulnerabilities
         from products p join platforms pl on pl.id = p.platform_id
         where ${where}
         order by lower(p.name), p.id
         limit ${limit} offset ${offset}`,
        params,
      );
      const counted = await run.query<{ total: number }>(
        `select count(*)::int as total from products p where ${where}`,
        params,
      );
      return { rows, total: counted.rows[0]?.total ?? 0 };
    },
  };
}
