import { z } from "zod";

/**
 * The part of the signed-in user the shell reads (spec §3 "User session"): the roles, the
 * vendor's count of active programs, whether the vendor account is complete (decision 006), the
 * vendor role (owner, admin, member) and the researcher's uuid. Other fields pass through.
 * Parsed on the server only (session.server.ts): the browser gets it with the root loader's data,
 * so this schema (and zod) stays out of every page's first load (issue 35).
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
