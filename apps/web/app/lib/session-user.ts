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
      .object({ uuid: z.string().min(1) })
      .loose()
      .nullish(),
  })
  .loose();
export type SessionUser = z.infer<typeof SessionUser>;

export const PROGRAMS_ALL_PATH = "/vdp/programs/all";
export const PROGRAMS_PENDING_PATH = "/vdp/programs/pending";
export const VENDOR_LOGIN_PATH = "/vdp/login";

export function isVendor(user: SessionUser): boolean {
  return user.roles.includes("vendor");
}

export function isResearcher(user: SessionUser): boolean {
  return user.roles.includes("researcher");
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
 * with neither role has no area of their own and lands on the public database.
 */
export function homePathFor(user: SessionUser | null): string {
  if (!user) return VENDOR_LOGIN_PATH;
  if (isVendor(user)) return programsPathFor(user.vendor?.active_count);
  if (isResearcher(user) && user.researcher?.uuid) return researcherReportsPath(user.researcher.uuid);
  return "/database";
}
