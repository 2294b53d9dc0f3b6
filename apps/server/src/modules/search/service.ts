import {
  type DatabaseCounts,
  type ProductSearchPage,
  type ProgramDirectory,
  SEARCH_MATCH_LIMIT,
  type VulnerabilityPage,
  type VulnerabilitySearchQuery,
  type VulnerabilitySummary,
  vulnerabilityTypeByCode,
} from "@pressguard/domain";
import type { Database } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { type PageRequest, paginationOf } from "../../http/pagination.ts";
import {
  identifierOf,
  iso,
  NOT_FOUND_MESSAGES,
  pagePaths,
  productRefOf,
  UUID,
} from "../vulnerabilities/presenters.ts";
import { createVulnerabilityQueries } from "../vulnerabilities/queries.ts";
import { createSearchQueries, type SearchFilters, type SummaryRow } from "./queries.ts";

/** Shorter texts are alike to too many names to be worth a typo's guess. */
const SIMILAR_MIN_LENGTH = 4;

interface SearchServiceOptions {
  database: Database;
  appUrl: string;
  /** The headline counts (cached by the statistics): an unfiltered list knows its total from them. */
  databaseCounts: () => Promise<DatabaseCounts>;
  /** The public data version: counts of filtered lists are kept as long as it holds. */
  dataVersion?: () => string;
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
}: SearchServiceOptions) {
  const queries = createSearchQueries(database, dataVersion);
  const records = createVulnerabilityQueries(database);

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
      affected_versions: row.affected_versions,
      published_at: iso(row.published_at),
      product,
    };
  };

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
    async searchVulnerabilities(query: VulnerabilitySearchQuery, request: PageRequest) {
      const q = query.q?.trim() ?? "";
      // A CVE, record or CWE id finds its records exactly, not as words.
      const identifier = q ? identifierOf(q) : null;
      const unfiltered =
        !q && !query.kind && !query.type && !query.severity && query.patched === undefined && !query.year;
      return pageOf(request, {
        knownTotal: unfiltered ? (await databaseCounts()).vulnerabilities : undefined,
        text: q && !identifier ? q : undefined,
        ...identifier,
        kind: query.kind,
        type: query.type,
        severity: query.severity,
        patched: query.patched,
        year: query.year,
        sort: query.sort ?? (q && !identifier ? "relevance" : "date"),
        // Searches by words stop counting there (decision 015: 300 ms for 229 000 matches otherwise);
        // browsing by filters alone counts exactly and reaches every record (issue 17).
        matchLimit: q && !identifier ? SEARCH_MATCH_LIMIT : undefined,
      });
    },

    async findProductVulnerabilities(productId: number, tab: "present" | "fixed", request: PageRequest) {
      if (!(await records.productExists(productId))) {
        throw new AppError("not_found", { message: NOT_FOUND_MESSAGES.product });
      }
      return pageOf(request, { productId, patched: tab === "fixed", sort: "date" });
    },

    async findResearcherVulnerabilities(uuid: string, request: PageRequest) {
      const row = UUID.test(uuid) ? await records.findResearcher(uuid.toLowerCase()) : null;
      if (!row) throw new AppError("not_found", { message: NOT_FOUND_MESSAGES.researcher });
      return pageOf(request, { researcherId: row.id, sort: "date" });
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
      const text = query.q?.trim().toLowerCase() ?? "";
      // Only letters and digits reach to_tsquery: its operators (& | ! : * ( )) are never the user's.
      const words = (text.match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8);
      const found = await queries.searchProducts(
        { words, slug: words.length > 0 ? text : undefined, kind: query.kind },
        request.perPage,
        (request.page - 1) * request.perPage,
      );
      // No name or slug starts so: a typo, perhaps (issue 17). One page of the most alike products.
      const { rows, total } =
        found.total === 0 && text.length >= SIMILAR_MIN_LENGTH && request.page === 1
          ? await queries.similarProducts(text, query.kind, request.perPage).then((similar) => ({
              rows: similar,
              total: similar.length,
            }))
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
