import {
  type AffectedRange,
  type CheckedVulnerability,
  type CheckRequest,
  type Contributors,
  type DatabaseCounts,
  isVersionAffected,
  owaspCategoryByCode,
  type ProductRef,
  type ProductSearchPage,
  type ProgramDirectory,
  type PublicProduct,
  type PublicResearcherProfile,
  parseCvssVector,
  SEARCH_MATCH_LIMIT,
  SOCIAL_NETWORKS,
  socialProfileUrl,
  type VulnerabilityDetail,
  type VulnerabilityPage,
  type VulnerabilitySearchQuery,
  type VulnerabilitySummary,
  vulnerabilityTypeByCode,
  wordPressRoleByCode,
} from "@pressguard/domain";
import { AppError } from "../../errors.ts";
import { type PageRequest, paginationOf } from "../../http/pagination.ts";
import { toOsv } from "./osv.ts";
import { createProductRangesCache, type ProductRangeRow, productRangesKey } from "./product-ranges-cache.ts";
import type { CreditRow, RangeRow, SummaryRow, VulnerabilityQueries } from "./queries.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CVE = /^CVE-\d{4}-\d{4,}$/i;

export const NOT_FOUND_MESSAGES = {
  vulnerability: "Vulnerability not found.",
  product: "Product not found.",
  researcher: "Researcher not found.",
} as const;

/** Public page paths of the web app (apps/web/app/routes.ts). */
export const pagePaths = {
  product: (product: { platform: string; kind: string; slug: string }) =>
    `/database/${product.platform}/${product.kind}/${encodeURIComponent(product.slug)}/vulnerabilities/vdp`,
  vulnerability: (product: { platform: string; kind: string; slug: string }, slug: string) =>
    `/database/${product.platform}/${product.kind}/${encodeURIComponent(product.slug)}/vulnerability/${slug}`,
  researcher: (uuid: string) => `/database/researchers/${uuid}`,
};

const iso = (value: Date | string | null | undefined) =>
  value == null
    ? null
    : (value instanceof Date ? value : new Date(value)).toISOString().replace(".000Z", "Z");

/** Rows keyed by their vulnerability (Map.groupBy needs Node 21). */
function groupByVulnerability<Row extends { vulnerabilityId: string }>(rows: Row[]): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const group = groups.get(row.vulnerabilityId);
    if (group) group.push(row);
    else groups.set(row.vulnerabilityId, [row]);
  }
  return groups;
}

const COUNTS_TTL_MS = 60_000;

export function createVulnerabilityService(
  queries: VulnerabilityQueries,
  appUrl: string,
  now: () => number = Date.now,
  /** The public data version; the batch check's range cache lives as long as one version. */
  dataVersion: () => string = () => "",
) {
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

  const productRef = (row: {
    productId: number;
    platform: string;
    kind: string;
    slug: string;
    name: string;
  }) =>
    ({
      id: row.productId,
      platform: row.platform,
      kind: row.kind,
      slug: row.slug,
      name: row.name,
      url: appUrl + pagePaths.product(row),
    }) satisfies ProductRef;

  const summaryOf = (row: SummaryRow): VulnerabilitySummary => {
    const product = productRef({
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
    filters: Omit<Parameters<VulnerabilityQueries["search"]>[0], "limit" | "offset">,
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

  async function getVulnerability(key: string): Promise<VulnerabilityDetail> {
    const trimmed = key.trim();
    const row = UUID.test(trimmed)
      ? await queries.findVulnerability({ id: trimmed.toLowerCase() })
      : CVE.test(trimmed)
        ? await queries.findVulnerability({ cve: trimmed.toUpperCase() })
        : /^[a-z0-9-]{1,200}$/.test(trimmed)
          ? await queries.findVulnerability({ slug: trimmed })
          : null;
    if (!row) throw new AppError("not_found", { message: NOT_FOUND_MESSAGES.vulnerability });
    return detailOf(row, row.ranges, row.credits);
  }

  type DetailRow = Awaited<ReturnType<VulnerabilityQueries["vulnerabilityBatch"]>>[number];

  function detailOf(row: DetailRow, ranges: RangeRow[], creditRows: CreditRow[]): VulnerabilityDetail {
    const product = productRef({
      productId: row.productId,
      platform: row.platform,
      kind: row.productKind,
      slug: row.productSlug,
      name: row.productName,
    });
    const type = row.typeCode == null ? null : vulnerabilityTypeByCode.get(row.typeCode);
    const owasp = row.owaspCode == null ? null : owaspCategoryByCode.get(row.owaspCode);
    const role = row.requiredPrivilege == null ? null : wordPressRoleByCode.get(row.requiredPrivilege);
    const cvss = row.cvssVector ? parseCvssVector(row.cvssVector) : null;
    const mainRange = ranges.find((range) => range.productId === row.productId);
    return {
      id: row.id,
      slug: row.slug,
      url: appUrl + pagePaths.vulnerability(product, row.slug),
      title: row.title,
      description: row.description,
      cve: row.cve,
      cwe: row.cwe,
      severity: row.severity,
      cvss_score: row.cvssScore == null ? null : Number(row.cvssScore),
      type: type ? { code: type.code, label: type.label } : null,
      type_label: row.typeLabel,
      owasp: owasp ? { code: owasp.code, id: owasp.id, label: owasp.label } : null,
      required_privilege: role ? { code: role.code, label: role.label } : null,
      cvss:
        cvss?.ok === true
          ? {
              vector: cvss.vector,
              version: cvss.version,
              score: row.cvssScore == null ? cvss.baseScore : Number(row.cvssScore),
              severity: row.severity ?? cvss.severity,
              metrics: { ...cvss.metrics },
            }
          : null,
      references: row.references,
      patched: row.patched,
      fixed_in: row.fixedIn,
      affected_versions: mainRange ? `${mainRange.prefix} ${mainRange.version}`.trim() || null : null,
      affected: ranges.map((range) => ({
        product: productRef(range),
        introduced: range.introduced,
        introduced_inclusive: range.introducedInclusive,
        fixed: range.fixed,
        last_affected: range.lastAffected,
        prefix: range.prefix,
        version: range.version,
        fixed_in: range.fixedIn,
      })),
      affected_possibly_incomplete: row.affectedPossiblyIncomplete,
      credits: creditRows.map((credit) => ({
        uuid: credit.uuid,
        display_name: credit.displayName,
        role: credit.role,
        url: appUrl + pagePaths.researcher(credit.uuid),
      })),
      published_at: iso(row.publishedAt),
      updated_at: iso(row.sourceUpdatedAt) ?? iso(row.publishedAt),
      product,
      source: row.source,
      source_id: row.source === "pressguard" ? null : row.id,
      source_url: row.sourceUrl,
      attribution: row.attribution,
    };
  }

  let countsCache: { value: DatabaseCounts; at: number } | null = null;
  let countsInFlight: Promise<DatabaseCounts> | null = null;
  async function readDatabaseCounts(): Promise<DatabaseCounts> {
    const row = await queries.databaseCounts();
    return {
      vulnerabilities: row.vulnerabilities,
      products: row.products,
      researchers: row.researchers,
      patched: row.patched,
      by_kind: { plugin: row.plugin, theme: row.theme, core: row.core },
      by_severity: {
        critical: row.critical,
        high: row.high,
        medium: row.medium,
        low: row.low,
        none: row.none,
      },
    };
  }

  /** Headline counts scan the whole table: one shared copy, refreshed at most once a minute. */
  async function getDatabaseCounts(): Promise<DatabaseCounts> {
    if (countsCache && now() - countsCache.at < COUNTS_TTL_MS) return countsCache.value;
    countsInFlight ??= readDatabaseCounts()
      .then((value) => {
        countsCache = { value, at: now() };
        return value;
      })
      .finally(() => {
        countsInFlight = null;
      });
    return countsInFlight;
  }

  async function requireProduct(productId: number) {
    if (!(await queries.productExists(productId))) {
      throw new AppError("not_found", { message: NOT_FOUND_MESSAGES.product });
    }
  }

  return {
    async searchVulnerabilities(query: VulnerabilitySearchQuery, request: PageRequest) {
      const q = query.q?.trim() ?? "";
      const isCve = CVE.test(q);
      const unfiltered =
        !q && !query.kind && !query.type && !query.severity && query.patched === undefined && !query.year;
      return pageOf(request, {
        knownTotal: unfiltered ? (await getDatabaseCounts()).vulnerabilities : undefined,
        text: q && !isCve ? q : undefined,
        cve: isCve ? q.toUpperCase() : undefined,
        kind: query.kind,
        type: query.type,
        severity: query.severity,
        patched: query.patched,
        year: query.year,
        sort: query.sort ?? (q && !isCve ? "relevance" : "date"),
        // Broad searches stop counting there (decision 015: 300 ms for 229 000 matches otherwise).
        matchLimit: SEARCH_MATCH_LIMIT,
      });
    },

    getVulnerability,

    async getOsv(key: string) {
      const vulnerability = await getVulnerability(key);
      return toOsv(vulnerability, vulnerability.url);
    },

    /** Every record as OSV, one JSON document per line, read in batches of `batchSize` (three queries each). */
    async *exportOsv(batchSize = 500): AsyncGenerator<string> {
      let after: string | null = null;
      for (;;) {
        const rows = await queries.vulnerabilityBatch(after, batchSize);
        if (rows.length === 0) return;
        const ids = rows.map((row) => row.id);
        const [ranges, creditRows] = await Promise.all([
          queries.rangesOfMany(ids),
          queries.creditsOfMany(ids),
        ]);
        const rangesBy = groupByVulnerability(ranges);
        const creditsBy = groupByVulnerability(creditRows);
        let chunk = "";
        for (const row of rows) {
          const detail = detailOf(row, rangesBy.get(row.id) ?? [], creditsBy.get(row.id) ?? []);
          chunk += `${JSON.stringify(toOsv(detail, detail.url))}\n`;
        }
        yield chunk;
        after = rows.at(-1)?.id ?? null;
        if (rows.length < batchSize) return;
      }
    },

    async getProduct(platform: string, kind: string, slug: string): Promise<PublicProduct> {
      const row = await queries.findProductByPath(platform, kind, slug);
      if (!row) throw new AppError("not_found", { message: NOT_FOUND_MESSAGES.product });
      return {
        ...productRef({ productId: row.id, ...row }),
        is_active: row.isActive,
        version: row.version,
        author: row.author,
        active_installs: row.activeInstalls,
        directory_url: row.directoryUrl,
        counters: await queries.productCounters(row.id),
        program:
          row.isActive && row.vendorName !== null
            ? {
                vendor_name: row.vendorName,
                vendor_website_url: row.vendorWebsiteUrl,
                fix_deadline_days: row.fixDeadlineDays,
                activated_at: iso(row.activatedAt),
                plan: row.plan as "free" | "premium" | "both",
              }
            : null,
      };
    },

    async findProductVulnerabilities(productId: number, tab: "present" | "fixed", request: PageRequest) {
      await requireProduct(productId);
      return pageOf(request, { productId, patched: tab === "fixed", sort: "date" });
    },

    async findProductContributors(productId: number): Promise<Contributors> {
      await requireProduct(productId);
      const rows = await queries.productContributors(productId);
      return { data: rows.map((row) => ({ ...row, url: appUrl + pagePaths.researcher(row.uuid) })) };
    },

    async getResearcher(uuid: string): Promise<PublicResearcherProfile> {
      const row = UUID.test(uuid) ? await queries.findResearcher(uuid.toLowerCase()) : null;
      if (!row) throw new AppError("not_found", { message: NOT_FOUND_MESSAGES.researcher });
      const standing = await queries.researcherStanding(row.id);
      return {
        uuid: row.uuid,
        display_name: row.display_name,
        country: row.country,
        website: row.website,
        bio: row.bio,
        social: SOCIAL_NETWORKS.flatMap((network) => {
          const handle = row[network];
          return handle ? [{ network, handle, url: socialProfileUrl[network](handle) }] : [];
        }),
        url: appUrl + pagePaths.researcher(row.uuid),
        ...standing,
      };
    },

    async findResearcherVulnerabilities(uuid: string, request: PageRequest) {
      const row = UUID.test(uuid) ? await queries.findResearcher(uuid.toLowerCase()) : null;
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
          ...productRef({ productId: row.id, ...row }),
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
      const { rows, total } = await queries.searchProducts(
        { words, slug: words.length > 0 ? text : undefined, kind: query.kind },
        request.perPage,
        (request.page - 1) * request.perPage,
      );
      return {
        data: rows.map((row) => ({
          ...productRef({ productId: row.id, ...row }),
          is_active: row.is_active,
          is_lobby_product: row.is_lobby_product,
          vulnerabilities: row.vulnerabilities,
        })),
        pagination: paginationOf(request.path, request.query, request.page, request.perPage, total),
      };
    },

    getDatabaseCounts,

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

export type VulnerabilityService = ReturnType<typeof createVulnerabilityService>;
