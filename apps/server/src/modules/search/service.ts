import {
  type Autocomplete,
  type DatabaseCounts,
  isUuid,
  type ProductMatch,
  type ProductSearchPage,
  type ProgramDirectory,
  SEARCH_MATCH_LIMIT,
  type VulnerabilityPage,
  type VulnerabilitySearchPage,
  type VulnerabilitySearchQuery,
  type VulnerabilitySummary,
  vulnerabilityTypeByCode,
} from "@pressguard/domain";
import type { Database } from "../../db/client.ts";
import { keptByVersion } from "../../db/kept-by-version.ts";
import { AppError } from "../../errors.ts";
import { type PageRequest, paginationOf } from "../../http/pagination.ts";
import {
  epssOf,
  identifierOf,
  iso,
  knownExploitedOf,
  NOT_FOUND_MESSAGES,
  pagePaths,
  productRefOf,
} from "../public-records/presenters.ts";
import { createRecordReader, type ProductCounters } from "../vulnerabilities/public.ts";
import {
  ALIKE_MIN_LENGTH,
  mayBeMisspelt,
  misspeltProduct,
  type ProductsNamed,
  productsNamed,
} from "./product-matching.ts";
import { createProductQueries, type ProductMatchRow, researchersNamed } from "./product-queries.ts";
import { createSearchQueries, type SearchFilters, type SearchResult, type SummaryRow } from "./queries.ts";
import { expandAbbreviations, wordsOf } from "./query-text.ts";

/** How many products a search shows above its records. */
const SEARCH_PRODUCTS = 5;
/** How many answers of each kind (products and researchers a query names) one instance keeps. */
const KEPT_ANSWERS = 2_000;
/** Fewer records than this found for the words as typed: the search looks for a misspelling. */
const FEW_MATCHES = 3;
/** How many researchers a search shows. */
const SEARCH_RESEARCHERS = 3;
/** How many products the search box suggests. */
const SUGGESTED_PRODUCTS = 8;

interface SearchServiceOptions {
  database: Database;
  appUrl: string;
  /** The headline counts (cached by the statistics): an unfiltered list knows its total from them. */
  databaseCounts: () => Promise<DatabaseCounts>;
  /** The public data version: counts of filtered lists are kept as long as it holds. */
  dataVersion?: () => string;
  /** A product's counters (the vulnerability service keeps them), or null for an unknown product. */
  productCounters: (productId: number) => Promise<ProductCounters | null>;
}

/**
 * The public database's lists: the vulnerability search (decision 015's match limit), a product's and
 * a researcher's vulnerabilities, the VDP directory and the report form's product picker.
 */
export function createSearchService({
  database,
  appUrl,
  databaseCounts,
  dataVersion = () => "",
  productCounters,
}: SearchServiceOptions) {
  const queries = createSearchQueries(database, dataVersion);
  const productQueries = createProductQueries(database);
  const records = createRecordReader(database, appUrl);

  // What a query names depends on the data only: kept by its version, like the filtered counts.
  const keptNames = keptByVersion<ProductsNamed>(dataVersion, KEPT_ANSWERS);
  const keptMisspelt = keptByVersion<ProductsNamed | null>(dataVersion, KEPT_ANSWERS);
  const keptResearchers = keptByVersion<Awaited<ReturnType<typeof researchersNamed>>>(
    dataVersion,
    KEPT_ANSWERS,
  );
  const keyOf = (q: string, kind: string | undefined, limit: number) =>
    `${kind ?? ""}\u0000${limit}\u0000${q.toLowerCase()}`;
  const named = (q: string, kind: string | undefined, limit: number) =>
    keptNames(keyOf(q, kind, limit), () => productsNamed(productQueries, q, kind, limit));
  // The answer depends on the doubt too: a named product's records confirm it under some filters only.
  const misspelt = (q: string, kind: string | undefined, limit: number, typed: ProductsNamed) =>
    keptMisspelt(`${keyOf(q, kind, limit)}\u0000${typed.doubt ?? ""}`, () =>
      misspeltProduct(productQueries, q, kind, limit, typed),
    );
  const researchersOf = (q: string) =>
    keptResearchers(wordsOf(q).join(" "), () => researchersNamed(database, wordsOf(q), SEARCH_RESEARCHERS));

  const productMatchOf = (row: ProductMatchRow): ProductMatch => ({
    ...productRefOf(appUrl, { productId: row.id, ...row }),
    version: row.version,
    active_installs: row.active_installs,
    vulnerabilities: row.vulnerabilities,
    unfixed: row.unfixed,
  });

  const summaryOf = (row: SummaryRow): VulnerabilitySummary => {
    const product = productRefOf(appUrl, {
      productId: row.product_id,
      platform: row.platform,
      kind: row.kind,
      slug: row.product_slug,
      name: row.product_name,
    });
    const type = row.type_code == null ? null : vulnerabilityTypeByCode.get(row.type_code);
    return {
      id: row.id,
      slug: row.slug,
      url: appUrl + pagePaths.vulnerability(product, row.slug),
      title: row.title,
      cve: row.cve,
      severity: row.severity,
      cvss_score: row.cvss_score == null ? null : Number(row.cvss_score),
      type: type ? { code: type.code, label: type.label } : null,
      patched: row.patched,
      fixed_in: row.fixed_in,
      inferred_fixed_from: row.inferred_fixed_from,
      affected_versions: row.affected_versions,
      published_at: iso(row.published_at),
      product,
      known_exploited: knownExploitedOf(row.known_exploited),
      epss: epssOf(row.epss),
      withdrawn_at: iso(row.withdrawn_at),
    };
  };

  /**
   * The records of the product a query names, then the query's other matches: one list, paged across
   * both (issue 17). A product's records are few (358 at most in the bundled data) and counted
   * exactly; the other matches keep the search's match limit. `rest`: the query's words besides the
   * product's, looked for among its records. `own`: how many of the product's records it lists.
   */
  async function productFirst(
    productId: number,
    rest: string | undefined,
    matches: Omit<SearchFilters, "limit" | "offset">,
    limit: number,
    offset: number,
  ): Promise<SearchResult & { own: number }> {
    const own = {
      ...matches,
      productId,
      text: rest ? expandAbbreviations(rest) : undefined,
      // Relevance needs words besides the product's; an EPSS order holds with or without them.
      sort: matches.sort === "epss" || rest ? matches.sort : "date",
      matchLimit: undefined,
    } as const;
    const others = { ...matches, excludeProductId: productId };
    // The product's page first: when its records fill it, the other matches are only counted.
    const first = await queries.search({ ...own, limit, offset });
    const after = await queries.search({
      ...others,
      limit: Math.max(1, limit - first.rows.length),
      offset: Math.max(0, offset - first.total),
      countOnly: first.rows.length >= limit,
    });
    return {
      rows: [...first.rows, ...after.rows].slice(0, limit),
      total: first.total + after.total,
      capped: after.capped,
      own: first.total,
    };
  }

  async function pageOf(
    request: PageRequest,
    filters: Omit<SearchFilters, "limit" | "offset">,
  ): Promise<VulnerabilityPage> {
    const { rows, total, capped } = await queries.search({
      ...filters,
      limit: request.perPage,
      offset: (request.page - 1) * request.perPage,
    });
    return {
      data: rows.map(summaryOf),
      pagination: paginationOf(request.path, request.query, request.page, request.perPage, total, capped),
    };
  }

  return {
    async searchVulnerabilities(
      query: VulnerabilitySearchQuery,
      request: PageRequest,
    ): Promise<VulnerabilitySearchPage> {
      const q = query.q?.trim() ?? "";
      // A CVE, record or CWE id finds its records exactly, not as words.
      const identifier = q ? identifierOf(q) : null;
      const filters = {
        kind: query.kind,
        type: query.type,
        severity: query.severity,
        patched: query.patched,
        year: query.year,
        knownExploited: query.known_exploited,
      };
      if (!q || identifier) {
        const unfiltered =
          !q &&
          !query.kind &&
          !query.type &&
          !query.severity &&
          query.patched === undefined &&
          !query.year &&
          query.known_exploited === undefined;
        const page = await pageOf(request, {
          // The headline count leaves withdrawn records out, as the list does.
          knownTotal: unfiltered ? (await databaseCounts()).vulnerabilities : undefined,
          ...identifier,
          ...filters,
          // A record named by its CVE id or its id is found even when withdrawn: its page stays reachable.
          includeWithdrawn: identifier !== null && !("cwe" in identifier),
          sort: query.sort ?? "date",
        });
        return { ...page, products: [], records_first: null, researchers: [], did_you_mean: null };
      }

      const [typed, researchers] = await Promise.all([
        named(q, query.kind, SEARCH_PRODUCTS),
        request.page === 1 ? researchersOf(q) : [],
      ]);
      // Searches by words stop counting there (decision 015: 300 ms for 229 000 matches otherwise).
      const matches = {
        ...filters,
        // Abbreviations are read as their type's words only among a named product's records
        // (productFirst): across 250,000 records `stored cross site scripting` matches old records only,
        // and walking the date order to them took 0.7 s where the literal `stored xss` is instant.
        text: q,
        sort: query.sort ?? "relevance",
        matchLimit: SEARCH_MATCH_LIMIT,
      } as const;
      const offset = (request.page - 1) * request.perPage;
      const find = (named: ProductsNamed): Promise<SearchResult & { own?: number }> =>
        named.named
          ? productFirst(named.named.id, named.rest, matches, request.perPage, offset)
          : queries.search({ ...matches, limit: request.perPage, offset });
      let meant = typed;
      // The products alike are asked below whatever the records found when no product is named, or a
      // little-used one exactly: asked at once, beside the records (the answer is kept, so asking
      // again below reads it).
      const askedAnyway =
        researchers.length === 0 &&
        (typed.products.length === 0 || typed.doubt === "obscure") &&
        mayBeMisspelt(typed, q);
      if (askedAnyway) misspelt(q, query.kind, SEARCH_PRODUCTS, typed).catch(() => {});
      let found = await find(typed);
      // Hardly anything found, or no product named at all, and no popular product named as typed: a
      // misspelling, perhaps (`elementr`; `contact from 7`, whose words are common enough to match
      // many records). Asked only then, since the products alike cost more than the rest of a search;
      // the answer is kept for the data version. With many matches, only a product it surely means
      // replaces them. Also asked, however many records the words find elsewhere: a little-used
      // product named exactly (`wp optimizer`, a popular one misspelt), and a product named by some
      // of the words whose records hold none of the others (`coming soon and maintenance by
      // niteothemes`). A product whose records hold them is the one meant (`elementor xss`).
      const confirmed = found.own !== undefined && found.own > 0;
      const doubt = typed.doubt === "partial" && confirmed ? undefined : typed.doubt;
      const fewFound = found.total < FEW_MATCHES;
      const doubted = fewFound || typed.products.length === 0 || doubt !== undefined;
      if (doubted && researchers.length === 0 && mayBeMisspelt({ ...typed, doubt }, q)) {
        const corrected = await misspelt(q, query.kind, SEARCH_PRODUCTS, { ...typed, doubt });
        if (corrected?.named) {
          found = await find(corrected);
          meant = corrected;
        } else if (fewFound) meant = corrected ?? typed;
      }
      return {
        data: found.rows.map(summaryOf),
        pagination: paginationOf(
          request.path,
          request.query,
          request.page,
          request.perPage,
          found.total,
          found.capped,
        ),
        products: meant.products.map(productMatchOf),
        records_first: meant.named
          ? productRefOf(appUrl, { productId: meant.named.id, ...meant.named })
          : null,
        researchers: researchers.map((row) => ({
          uuid: row.uuid,
          display_name: row.display_name,
          url: appUrl + pagePaths.researcher(row.uuid),
          vulnerabilities: row.vulnerabilities,
        })),
        did_you_mean: meant.didYouMean,
      };
    },

    /** The search box's suggestions: the products its text names, best first. */
    async autocomplete(query: { q?: string | undefined; kind?: string | undefined }): Promise<Autocomplete> {
      const q = query.q?.trim() ?? "";
      if (wordsOf(q).length === 0 || identifierOf(q)) return { products: [] };
      // The suggestions doubt no product named: no records confirm or refute it, and each letter
      // typed would ask for the products alike.
      const typed = { ...(await named(q, query.kind, SUGGESTED_PRODUCTS)), doubt: undefined };
      const meant = mayBeMisspelt(typed, q)
        ? ((await misspelt(q, query.kind, SUGGESTED_PRODUCTS, typed)) ?? typed)
        : typed;
      return { products: meant.products.map(productMatchOf) };
    },

    async findProductVulnerabilities(productId: number, tab: "present" | "fixed", request: PageRequest) {
      const counters = await productCounters(productId);
      if (!counters) throw new AppError("not_found", { message: NOT_FOUND_MESSAGES.product });
      // The tab's total is the product's counter: the same rule, so no second count.
      const knownTotal = tab === "fixed" ? counters.fixed : counters.present;
      return pageOf(request, { productId, patched: tab === "fixed", sort: "date", knownTotal });
    },

    async findResearcherVulnerabilities(uuid: string, request: PageRequest) {
      const researcherId = isUuid(uuid) ? await records.researcherIdOf(uuid.toLowerCase()) : null;
      if (researcherId === null) throw new AppError("not_found", { message: NOT_FOUND_MESSAGES.researcher });
      return pageOf(request, { researcherId, sort: "date" });
    },

    async findActivePrograms(q: string | undefined, request: PageRequest): Promise<ProgramDirectory> {
      const { rows, total } = await queries.activePrograms(
        q?.trim() || undefined,
        request.perPage,
        (request.page - 1) * request.perPage,
      );
      return {
        data: rows.map((row) => ({
          ...productRefOf(appUrl, { productId: row.id, ...row }),
          vulnerabilities: row.vulnerabilities,
        })),
        pagination: paginationOf(request.path, request.query, request.page, request.perPage, total),
      };
    },

    /** The report form's product picker: any product by name or slug, best match first. */
    async findProducts(
      query: { q?: string | undefined; kind?: string | undefined },
      request: PageRequest,
    ): Promise<ProductSearchPage> {
      const text = query.q?.trim() ?? "";
      const words = wordsOf(text);
      const found = await productQueries.byWords(
        { words, slugs: words.length > 0 ? [text.toLowerCase()] : undefined, kind: query.kind },
        {
          order: "picker",
          limit: request.perPage,
          offset: (request.page - 1) * request.perPage,
          count: true,
        },
      );
      // No name or slug starts so: a typo, perhaps (issue 17). One page of the products most alike.
      const { rows, total } =
        found.total === 0 && request.page === 1 && text.length >= ALIKE_MIN_LENGTH
          ? await productQueries
              .alike(text.toLowerCase(), query.kind, request.perPage)
              .then((alike) => ({ rows: alike, total: alike.length }))
          : found;
      return {
        data: rows.map((row) => ({
          ...productRefOf(appUrl, { productId: row.id, ...row }),
          is_active: row.is_active,
          is_lobby_product: row.is_lobby_product,
          vulnerabilities: row.vulnerabilities,
        })),
        pagination: paginationOf(request.path, request.query, request.page, request.perPage, total),
      };
    },
  };
}

export type SearchService = ReturnType<typeof createSearchService>;
