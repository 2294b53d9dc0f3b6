import {
  type Contributors,
  csafFileNameOf,
  isUuid,
  OSV_ID_PREFIX,
  osvIdOf,
  type PublicProduct,
  type PublicResearcherProfile,
  packageIdentifiersOf,
  SOCIAL_NETWORKS,
  socialProfileUrl,
  VULNERABILITY_SLUG_KEY_PATTERN,
  type VulnerabilityDetail,
} from "@pressguard/domain";
import type { Database } from "../../db/client.ts";
import { keptByVersion } from "../../db/kept-by-version.ts";
import { AppError } from "../../errors.ts";
import { publishedPolicyOf, securityContactOf } from "../programs/policy.ts";
import {
  CVE,
  directoryDateOf,
  iso,
  NOT_FOUND_MESSAGES,
  pagePaths,
  productRefOf,
} from "../public-records/presenters.ts";
import { type CsafAdvisory, toCsaf } from "./csaf.ts";
import { cweNameOf } from "./cwe-names.ts";
import { toOsv } from "./osv.ts";
import { createVulnerabilityQueries, type ProductCounters } from "./queries.ts";
import { detailOf } from "./record-detail.ts";

/** How many products' counters one instance keeps for the current data version (a few bytes each). */
const KEPT_COUNTERS = 100_000;

interface VulnerabilityServiceOptions {
  database: Database;
  appUrl: string;
  /** The site's name: the publisher of the CSAF advisories. */
  siteName?: string;
  /** The public data version: a product's counters are kept as long as it holds. */
  dataVersion?: () => string;
}

/** The public records: one vulnerability (and its OSV record), a product, a researcher. */
export function createVulnerabilityService({
  database,
  appUrl,
  siteName = "Pressguard",
  dataVersion = () => "",
}: VulnerabilityServiceOptions) {
  const queries = createVulnerabilityQueries(database);
  // A product page asks for them twice (its header and its tab's total): counted once per data version.
  const keptCounters = keptByVersion<ProductCounters | null>(dataVersion, KEPT_COUNTERS);
  const productCounters = (productId: number) =>
    keptCounters(String(productId), () => queries.productCounters(productId));

  /** The record `key` names: its uuid, its CVE id or its slug (trimmed). */
  async function findRecord(key: string) {
    const row = isUuid(key)
      ? await queries.findVulnerability({ id: key.toLowerCase() })
      : CVE.test(key)
        ? await queries.findVulnerability({ cve: key.toUpperCase() })
        : VULNERABILITY_SLUG_KEY_PATTERN.test(key)
          ? await queries.findVulnerability({ slug: key })
          : null;
    if (!row) throw new AppError("not_found", { message: NOT_FOUND_MESSAGES.vulnerability });
    return row;
  }
  type RecordRow = Awaited<ReturnType<typeof findRecord>>;
  const detailOfRecord = (row: RecordRow) => detailOf(appUrl, row, row.ranges, row.credits);

  async function getVulnerability(key: string): Promise<VulnerabilityDetail> {
    return detailOfRecord(await findRecord(key.trim()));
  }

  return {
    getVulnerability,
    /** A product's known, present and fixed counts, or null for an unknown product id. */
    productCounters,

    /**
     * What `GET /api/v1/osv/{id}` answers (decision 025): the OSV record, for its OSV id
     * (`x_PRESSGUARD-<uuid>`, the prefix as written), its CVE id or its slug; for a bare uuid (the
     * OSV id before decision 025) of a known record, the OSV id it moved to, which the route
     * redirects to.
     */
    async getOsv(key: string): Promise<{ record: ReturnType<typeof toOsv> } | { movedTo: string }> {
      const trimmed = key.trim();
      const uuid = trimmed.startsWith(OSV_ID_PREFIX) ? trimmed.slice(OSV_ID_PREFIX.length) : null;
      if (uuid === null && isUuid(trimmed)) return { movedTo: osvIdOf((await findRecord(trimmed)).id) };
      if (uuid !== null && !isUuid(uuid)) {
        throw new AppError("not_found", { message: NOT_FOUND_MESSAGES.vulnerability });
      }
      const detail = detailOfRecord(await findRecord(uuid ?? trimmed));
      return { record: toOsv(detail, detail.record_dates) };
    },

    /**
     * `GET /api/v1/csaf/{id}` (decision 029): the CSAF advisory of the record `key` names — its
     * document's file name (`x_pressguard-<uuid>.json`, the URL the ROLIE feeds list), its OSV id, its
     * bare uuid, its CVE id or its slug. Not found otherwise.
     */
    async getCsaf(key: string): Promise<CsafAdvisory> {
      const trimmed = key.trim();
      const fileName = /^x_pressguard-(.+)\.json$/.exec(trimmed);
      const osvUuid = trimmed.startsWith(OSV_ID_PREFIX) ? trimmed.slice(OSV_ID_PREFIX.length) : null;
      const uuid = fileName ? (csafFileNameOf(fileName[1]!) === trimmed ? fileName[1]! : null) : osvUuid;
      if ((fileName || osvUuid !== null) && (uuid === null || !isUuid(uuid))) {
        throw new AppError("not_found", { message: NOT_FOUND_MESSAGES.vulnerability });
      }
      const row = await findRecord(uuid ?? trimmed);
      const detail = detailOfRecord(row);
      return toCsaf(detail, {
        appUrl,
        publisherName: siteName,
        dates: detail.record_dates,
        cweName: cweNameOf,
        authors: new Map(row.ranges.map((range) => [range.productId, range.author])),
      });
    },

    async getProduct(platform: string, kind: string, slug: string): Promise<PublicProduct> {
      type ProductRow = NonNullable<Awaited<ReturnType<typeof queries.findProductByPath>>>;
      /** The policy page's program values (issue 20): the policy, the point of contact, the support period. */
      const publishedPolicy = (row: ProductRow, vendorName: string) => {
        const source = {
          kind: row.kind,
          slug: row.slug,
          name: row.name,
          version: row.version,
          fix_deadline_days: row.fixDeadlineDays,
          vendor_name: vendorName,
          policy_markdown: row.policyMarkdown,
          security_contact_email: row.securityContactEmail,
          vendor_contact_email: row.vendorContactEmail,
          vendor_account_email: row.vendorAccountEmail,
        };
        return {
          policy_markdown: publishedPolicyOf(source, siteName),
          policy_updated_at: iso(row.policyUpdatedAt),
          security_contact_email: securityContactOf(source),
          support_ends_on: row.supportEndsOn,
        };
      };
      const row = await queries.findProductByPath(platform, kind, slug);
      if (!row) throw new AppError("not_found", { message: NOT_FOUND_MESSAGES.product });
      return {
        ...productRefOf(appUrl, { productId: row.id, ...row }),
        is_active: row.isActive,
        version: row.version,
        author: row.author,
        active_installs: row.activeInstalls,
        directory_url: row.directoryUrl,
        directory_updated: directoryDateOf(row.directoryUpdated),
        closed_at: iso(row.closedAt),
        identifiers: packageIdentifiersOf(row),
        counters: (await productCounters(row.id)) ?? { vulnerabilities: 0, present: 0, fixed: 0 },
        program:
          row.isActive && row.vendorName !== null
            ? {
                vendor_name: row.vendorName,
                vendor_website_url: row.vendorWebsiteUrl,
                fix_deadline_days: row.fixDeadlineDays,
                activated_at: iso(row.activatedAt),
                plan: row.plan as "free" | "premium" | "both",
                ...publishedPolicy(row, row.vendorName),
              }
            : null,
      };
    },

    async findProductContributors(productId: number): Promise<Contributors> {
      if (!(await productCounters(productId))) {
        throw new AppError("not_found", { message: NOT_FOUND_MESSAGES.product });
      }
      const rows = await queries.productContributors(productId);
      return { data: rows.map((row) => ({ ...row, url: appUrl + pagePaths.researcher(row.uuid) })) };
    },

    async getResearcher(uuid: string): Promise<PublicResearcherProfile> {
      const row = isUuid(uuid) ? await queries.findResearcher(uuid.toLowerCase()) : null;
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
  };
}

export type VulnerabilityService = ReturnType<typeof createVulnerabilityService>;
