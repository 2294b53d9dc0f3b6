import { hasCapability } from "@pressguard/domain";
import type { SessionUser } from "./session-user-schema.ts";

/** The signed-in user as the shell reads it; its schema (server-side parse only) is in session-user-schema.ts. */
export type { SessionUser };

export const PROGRAMS_ALL_PATH = "/vdp/programs/all";
/** The vendor account set-up (decision 006) and the researcher profile set-up (decision 010). */
export const VENDOR_SETUP_PATH = "/vdp/create-account";
export const RESEARCHER_SETUP_PATH = "/researchers/create";
export const PROGRAMS_PENDING_PATH = "/vdp/programs/pending";
const VENDOR_LOGIN_PATH = "/vdp/login";
const STAFF_HOME_PATH = "/staff/reports";
/** The home of an account with neither role: a site owner's watchlists (issue 20). */
export const WATCHLISTS_PATH = "/watchlists";
/** Where a staff account without a second factor is told to set one up (PRODUCT.md §7). */
export const STAFF_TWO_FACTOR_PATH = "/staff/two-factor";

export function isVendor(user: SessionUser): boolean {
  return user.roles.includes("vendor");
}

export function isResearcher(user: SessionUser): boolean {
  return user.roles.includes("researcher");
}

export function isStaff(user: SessionUser): boolean {
  return user.is_staff === true;
}

/**
 * The vendor account still lacks its fields (issue 19: the set-up could be skipped for good) and the
 * user may save them: owners and admins. A member cannot complete it, so is not held at the set-up.
 */
export function needsVendorSetup(user: SessionUser): boolean {
  return isVendor(user) && user.vendor?.account_completed === false && hasCapability(user, "manage-vendor");
}

/** A researcher who has not saved the public profile yet (new account, magic link, signed-out report). */
function needsResearcherSetup(user: SessionUser): boolean {
  return isResearcher(user) && user.researcher?.profile_completed === false;
}

/** Spec §2 menus: Programs opens "all" when the vendor has an active program, else "pending". */
export function programsPathFor(activeCount: number | null | undefined): string {
  return (activeCount ?? 0) >= 1 ? PROGRAMS_ALL_PATH : PROGRAMS_PENDING_PATH;
}

export function researcherReportsPath(uuid: string): string {
  return `/researchers/${encodeURIComponent(uuid)}/in-review`;
}

/**
 * Where `/` sends a visitor (spec §2): anonymous → the vendor login; a vendor (also one who is a
 * researcher too) → their programs; a researcher only → their reports in review. An account not set
 * up yet goes to its set-up page first (issue 19), so every sign-in lands there. A signed-in user
 * with neither role lands on the triage queue when staff (PRODUCT.md §1), else on their watchlists (a
 * site owner, issue 20).
 */
export function homePathFor(user: SessionUser | null): string {
  if (!user) return VENDOR_LOGIN_PATH;
  if (isVendor(user)) {
    return needsVendorSetup(user) ? VENDOR_SETUP_PATH : programsPathFor(user.vendor?.active_count);
  }
  if (needsResearcherSetup(user)) return RESEARCHER_SETUP_PATH;
  if (isResearcher(user) && user.researcher?.uuid) return researcherReportsPath(user.researcher.uuid);
  if (isStaff(user)) return STAFF_HOME_PATH;
  return WATCHLISTS_PATH;
}
