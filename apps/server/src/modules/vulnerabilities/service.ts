import {
  type Contributors,
  type PublicProduct,
  type PublicResearcherProfile,
  SOCIAL_NETWORKS,
  socialProfileUrl,
  type VulnerabilityDetail,
} from "@pressguard/domain";
import type { Database } from "../../db/client.ts";
import { keptByVersion } from "../../db/kept-by-version.ts";
import { AppError } from "../../errors.ts";
import { toOsv } from "./osv.ts";
import { CVE, detailOf, iso, NOT_FOUND_MESSAGES, pagePaths, productRefOf, UUID } from "./presenters.ts";
import { createVulnerabilityQueries, type ProductCounters } from "./queries.ts";

/** How many products' counters one instance keeps for the current data version (a few bytes each). */
const KEPT_COUNTERS = 100_000;

interface VulnerabilityServiceOptions {
  database: Database;
  appUrl: string;
  /** The public data version: a product's counters are kept as long as it holds. */
  dataVersion?: () => string;
}

/** The public records: one vulnerability (and its OSV record), a product, a researcher. */
export function createVulnerabilityService({
  database,
  appUrl,
  dataVersion = () => "",
}: VulnerabilityServiceOptions) {
  const queries = createVulnerabilityQueries(database);
  // A product page asks for them twice (its header and its tab's total): counted once per data version.
  const keptCounters = keptByVersion<ProductCounters | null>(dataVersion, KEPT_COUNTERS);
  const productCounters = (productId: number) =>
    keptCounters(String(productId), () => queries.productCounters(productId));

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
    return detailOf(appUrl, row, row.ranges, row.credits);
  }

  return {
    getVulnerability,
    /** A product's known, present and fixed counts, or null for an unknown product id. */
    productCounters,

    async getOsv(key: string) {
      const vulnerability = await getVulnerability(key);
      return toOsv(vulnerability, vulnerability.url);
    },

    async getProduct(platform: string, kind: string, slug: string): Promise<PublicProduct> {
      const row = await queries.findProductByPath(platform, kind, slug);
      if (!row) throw new AppError("not_found", { message: NOT_FOUND_MESSAGES.product });
      return {
        ...productRefOf(appUrl, { productId: row.id, ...row }),
        is_active: row.isActive,
        version: row.version,
        author: row.author,
        active_installs: row.activeInstalls,
        directory_url: row.directoryUrl,
        counters: (await productCounters(row.id)) ?? { vulnerabilities: 0, present: 0, fixed: 0 },
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

    async findProductContributors(productId: number): Promise<Contributors> {
      if (!(await productCounters(productId))) {
        throw new AppError("not_found", { message: NOT_FOUND_MESSAGES.product });
      }
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
  };
}

export type VulnerabilityService = ReturnType<typeof createVulnerabilityService>;
