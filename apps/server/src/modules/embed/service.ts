import { isUuid } from "@pressguard/domain";
import type { Database } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { hostOf, isOwnDomain } from "../programs/claim-domains.ts";
import { createEmbedQueries } from "./queries.ts";

/** `GET /api/v1/embed/vendors/{public_key}`: what the vendor's report form embed needs (issue 7). */
export interface EmbedVendor {
  vendor_name: string;
  /** The vendor's active programs: the only products the embedded form offers. */
  programs: { id: number; kind: string; slug: string; name: string }[];
  /**
   * The origins that may frame the form (`Content-Security-Policy: frame-ancestors`): https on the
   * vendor's website host and its active programs' website hosts, each bare and with "www.", never a
   * shared host (wordpress.org, github.com…). Empty: the form can be framed by nobody.
   */
  frame_ancestors: string[];
}

const NOT_AVAILABLE = "This reporting form is not available.";

/** The https origins of a vendor's own hosts (hostOf drops "www.", so both spellings are listed). */
export function frameAncestorsOf(urls: readonly (string | null)[]): string[] {
  const origins = new Set<string>();
  for (const url of urls) {
    const host = hostOf(url);
    // A host name only: no IP literal, no port, nothing a CSP source could misread.
    if (!host || !isOwnDomain(host) || !/^[a-z0-9.-]+$/.test(host) || /^[\d.]+$/.test(host)) continue;
    origins.add(`https://${host}`);
    origins.add(`https://www.${host}`);
  }
  return [...origins];
}

export function createEmbedService({ database }: { database: Database }) {
  const queries = createEmbedQueries(database.sql);
  return {
    async getVendor(publicKey: string): Promise<EmbedVendor> {
      if (!isUuid(publicKey)) throw new AppError("not_found", { message: NOT_AVAILABLE });
      const vendor = await queries.findVendorByKey(publicKey.toLowerCase());
      if (!vendor) throw new AppError("not_found", { message: NOT_AVAILABLE });
      const programs = await queries.listActivePrograms(vendor.id);
      return {
        vendor_name: vendor.vendor_name,
        programs: programs.map(({ id, kind, slug, name }) => ({ id, kind, slug, name })),
        frame_ancestors: frameAncestorsOf([
          vendor.url,
          ...programs.map((program) => program.vendor_website_url),
        ]),
      };
    },
  };
}

export type EmbedService = ReturnType<typeof createEmbedService>;
