import { Program, type SessionUser, type VendorProgram } from "@pressguard/domain";
import type { Database } from "../../db/client.ts";
import { isoOrNull } from "../../db/timestamps.ts";
import { AppError, validationErrorOf } from "../../errors.ts";
import { idOrNotFound } from "../../http/ids.ts";
import type { Mailer } from "../../mail/outbox.ts";
import type { OwnershipRow, ProgramQueries, ProgramRow } from "./queries.ts";

/** What every part of the programs shares: the specification's messages, the caller's vendor, a slug's rules. */

/** What the service and its parts (claims.ts, csv-import.ts) are built from. */
export interface ProgramParts {
  database: Database;
  queries: ProgramQueries;
  appUrl: string;
  /** The site's name, in the generated policy (defaults to Pressguard). */
  siteName?: string;
  mailer?: Mailer;
  /** Called after a change to public data is committed (refreshes this instance's data version). */
  onPublicChange?: () => Promise<void> | void;
}

export const PROGRAM_NOT_FOUND = "Program not found.";

export const MESSAGES = {
  activated: "The program is now active: researchers can report vulnerabilities in it to you.",
  alreadyActive: "The program is already active.",
  claimed: "The product is now yours and its program is active.",
  claimPending:
    "Your claim was sent to our team for review, because the product's URL domain does not match your website or a verified e-mail address. We will e-mail you once it is decided.",
  claimedByOther: "This product is already claimed by another vendor.",
  verifyFirst: "Verify your e-mail address before activating a program.",
  slugOwn: "You already have a program with this slug.",
  slugLobby: "This product is already in the public database: claim it from the lobby instead.",
  slugOther: "This product belongs to another vendor.",
  activeSlug: "The slug of an active program cannot change.",
  activeKind: "The kind of an active program cannot change.",
  claimNotPending: "This claim was already decided.",
} as const;

/** The caller's vendor organisation; the access level "vendor" guarantees one. */
export function vendorOf(user: SessionUser): { id: number; role: string } {
  if (!user.vendor) throw new AppError("forbidden");
  return { id: user.vendor.id, role: user.vendor.role };
}

export function programOf(row: ProgramRow): VendorProgram {
  return {
    ...row,
    activated_at: isoOrNull(row.activated_at),
    created_at: isoOrNull(row.created_at) ?? "",
    public_path: `/database/${row.platform}/${row.kind}/${encodeURIComponent(row.slug)}/security-policy/vdp`,
  };
}

/** A product id in a path: digits only; anything else names no program (spec §2). */
export function programIdOf(value: string): number {
  return idOrNotFound(value, PROGRAM_NOT_FOUND);
}

export function parseProgram(input: unknown): Program {
  const result = Program.safeParse(input);
  if (!result.success) throw validationErrorOf(result.error.issues);
  return result.data;
}

/** Why `slug` cannot be used by this vendor, or null when it is free (or already this program). */
export function slugConflict(
  existing: OwnershipRow | null,
  vendorId: number,
  programId?: number,
): string | null {
  if (!existing || existing.id === programId) return null;
  if (existing.vendor_id === vendorId) return MESSAGES.slugOwn;
  if (existing.vendor_id === null) return MESSAGES.slugLobby;
  return MESSAGES.slugOther;
}
