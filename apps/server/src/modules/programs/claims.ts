import {
  type ActivationAnswer,
  type LobbyPage,
  type ProductClaim,
  type SessionUser,
  softwareTypeByValue,
} from "@pressguard/domain";
import type { SqlRunner } from "../../db/client.ts";
import { bumpDataVersion } from "../../db/data-version.ts";
import { isoOrNull } from "../../db/timestamps.ts";
import { AppError } from "../../errors.ts";
import { type PageRequest, paginationOf } from "../../http/pagination.ts";
import { emailDomainOf, hostMatches, hostOf, ownDomains } from "./claim-domains.ts";
import { MESSAGES, PROGRAM_NOT_FOUND, type ProgramParts, vendorOf } from "./rules.ts";

/**
 * Spec §7 `activate-product` and the lobby (decision 006): a vendor activates its own program or
 * claims a lobby product — at once when the product's URL domain is the vendor's, otherwise staff
 * decide the claim.
 */
export function createLobbyClaims({ database, queries, mailer, appUrl, onPublicChange }: ProgramParts) {
  async function vendorDomains(vendorId: number, tx?: SqlRunner) {
    const sources = await queries.vendorDomainSources(vendorId, tx);
    return ownDomains([hostOf(sources.url), ...sources.emails.map(emailDomainOf)]);
  }

  return {
    /**
     * Spec §7 `activate-product`: the vendor's own pending program becomes active; a lobby product is
     * claimed — at once when its URL domain is the vendor's, otherwise after staff review.
     */
    async activate(user: SessionUser, id: number, isLobbyProduct: boolean): Promise<ActivationAnswer> {
      const vendor = vendorOf(user);
      const requireVerified = () => {
        if (!user.email_verified) throw new AppError("forbidden", { message: MESSAGES.verifyFirst });
      };
      const answer = await database.sql.transaction(async (tx): Promise<ActivationAnswer> => {
        const product = await queries.findOwnership(id, tx);
        if (product?.vendor_id === vendor.id) {
          if (product.is_active) return { status: "success", message: MESSAGES.alreadyActive };
          requireVerified();
          await queries.activate(vendor.id, id, tx);
          await bumpDataVersion(tx);
          return { status: "success", message: MESSAGES.activated };
        }
        // Only a lobby claim may name a product the vendor does not own; for anything else it does not exist.
        if (!product || !isLobbyProduct) throw new AppError("not_found", { message: PROGRAM_NOT_FOUND });
        if (product.vendor_id !== null) throw new AppError("conflict", { message: MESSAGES.claimedByOther });
        if (!softwareTypeByValue.has(product.kind))
          throw new AppError("not_found", { message: PROGRAM_NOT_FOUND });
        requireVerified();
        const domains = await vendorDomains(vendor.id, tx);
        if (hostMatches(product.website_host, domains) || hostMatches(product.product_host, domains)) {
          if (!(await queries.takeLobbyProduct(vendor.id, id, tx)))
            throw new AppError("conflict", { message: MESSAGES.claimedByOther });
          await queries.closeOtherClaims(id, "Another vendor's claim was accepted.", null, tx);
          await bumpDataVersion(tx);
          return { status: "success", message: MESSAGES.claimed };
        }
        await queries.upsertPendingClaim(id, vendor.id, user.id, tx);
        return { status: "pending", message: MESSAGES.claimPending };
      });
      await onPublicChange?.();
      return answer;
    },

    async lobby(vendorId: number, text: string | undefined, page: PageRequest): Promise<LobbyPage> {
      const domains = await vendorDomains(vendorId);
      const offset = (page.page - 1) * page.perPage;
      const { rows, total } = await queries.lobby(vendorId, { domains, text }, page.perPage, offset);
      return {
        data: rows.map(({ website_host, product_host, claim_status, ...row }) => ({
          ...row,
          domain_match: hostMatches(website_host, domains) || hostMatches(product_host, domains),
          claim_status: claim_status === "pending" || claim_status === "rejected" ? claim_status : null,
        })),
        pagination: paginationOf(page.path, page.query, page.page, page.perPage, total),
      };
    },

    async listClaims(status: string, page: PageRequest) {
      const offset = (page.page - 1) * page.perPage;
      const { rows, total } = await queries.listClaims(status, page.perPage, offset);
      const data: ProductClaim[] = rows.map((row) => ({
        id: row.id,
        status: row.status,
        reason: row.reason,
        created_at: isoOrNull(row.created_at) ?? "",
        decided_at: isoOrNull(row.decided_at),
        product: {
          id: row.product_id,
          platform: row.platform,
          kind: row.kind,
          slug: row.slug,
          name: row.name,
          product_url: row.product_url,
          vendor_website_url: row.vendor_website_url,
          vendor_id: row.product_vendor_id,
        },
        vendor: {
          id: row.vendor_id,
          vendor_name: row.vendor_name,
          url: row.vendor_url,
          contact_email: row.vendor_contact_email,
        },
        requested_by:
          row.requester_id === null
            ? null
            : { id: row.requester_id, name: row.requester_name ?? "", email: row.requester_email ?? "" },
      }));
      return { data, pagination: paginationOf(page.path, page.query, page.page, page.perPage, total) };
    },

    /** Staff decide a pending claim; approving makes the product the vendor's active program. */
    async decideClaim(
      staffId: number,
      claimId: number,
      decision: { approve: true } | { approve: false; reason: string },
    ) {
      const claim = await database.sql.transaction(async (tx) => {
        const claim = await queries.findClaimForUpdate(claimId, tx);
        if (!claim) throw new AppError("not_found", { message: "Claim not found." });
        if (claim.status !== "pending") throw new AppError("conflict", { message: MESSAGES.claimNotPending });
        if (!decision.approve) {
          await queries.decideClaim(
            claimId,
            { status: "rejected", reason: decision.reason, deciderId: staffId },
            tx,
          );
          return claim;
        }
        if (!(await queries.takeLobbyProduct(claim.vendor_id, claim.product_id, tx)))
          throw new AppError("conflict", { message: MESSAGES.claimedByOther });
        await queries.decideClaim(claimId, { status: "approved", reason: null, deciderId: staffId }, tx);
        await queries.closeOtherClaims(claim.product_id, "Another vendor's claim was accepted.", staffId, tx);
        await bumpDataVersion(tx);
        return claim;
      });
      await onPublicChange?.();
      if (mailer && claim.requester_email) {
        const path = decision.approve ? `/vdp/programs/${claim.product_id}` : "/vdp/start-program";
        await mailer.enqueue(claim.requester_email, {
          template: "product_claim_decided",
          name: claim.requester_name ?? "",
          productName: claim.product_name,
          approved: decision.approve,
          reason: decision.approve ? null : decision.reason,
          url: `${appUrl}${path}`,
        });
      }
      return { status: "success" as const };
    },
  };
}
