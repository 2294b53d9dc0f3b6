import { z } from "zod";

/**
 * The part of the signed-in user the shell reads (spec §3 "User session"): the roles, the
 * vendor's count of active programs, whether the vendor account is complete (decision 006), the
 * vendor role (owner, admin, member) and the researcher's uuid. Other fields pass through.
 */
export const SessionUser = z
  .object({
    roles: z.array(z.string()),
    vendor: z
      .object({
        active_count: z.number().int().nonnegative(),
        /** Saved once through the account form; the is-vendor-active guard reads it. */
        account_completed: z.boolean().optional(),
        role: z.string().optional(),
      })
      .loose()
      .nullish(),
    researcher: z
      .object({
        uuid: z.string().min(1),
        /** Saved once through the profile form; `/researchers/create` then moves on (decision 010). */
        profile_completed: z.boolean().optional(),
      })
      .loose()
      .nullish(),
    /** Platform staff (PRODUCT.md §1): the triage area, which also needs the second factor. */
    is_staff: z.boolean().optional(),
    two_factor_enabled: z.boolean().optional(),
  })
  .loose();
export type SessionUser = z.infer<typeof SessionUser>;

export const PROGRAMS_ALL_PATH = "/vdp/programs/all";
export const PROGRAMS_PENDING_PATH = "/vdp/programs/pending";
const VENDOR_LOGIN_PATH = "/vdp/login";
const STAFF_HOME_PATH = "/staff/reports";
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

/** Spec §2 menus: Programs opens "all" when the vendor has an active program, else "pending". */
export function programsPathFor(activeCount: number | null | undefined): string {
  return (activeCount ?? 0) >= 1 ? PROGRAMS_ALL_PATH : PROGRAMS_PENDING_PATH;
}

export function researcherReportsPath(uuid: string): string {
  return `/researchers/${encodeURIComponent(uuid)}/in-review`;
}

/**
 * Where `/` sends a visitor (spec §2): anonymous → the vendor login; a vendor (also one who is a
 * researcher too) → their programs; a researcher only → their reports in review. A signed-in user
 * with neither role lands on the triage queue when staff (PRODUCT.md §1), else on the public database.
 */
export function homePathFor(user: SessionUser | null): string {
  if (!user) return VENDOR_LOGIN_PATH;
  if (isVendor(user)) return programsPathFor(user.vendor?.active_count);
  if (isResearcher(user) && user.researcher?.uuid) return researcherReportsPath(user.researcher.uuid);
  if (isStaff(user)) return STAFF_HOME_PATH;
  return "/database";
}
