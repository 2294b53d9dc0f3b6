import { z } from "zod";
import { AccountRole } from "./auth-requests.ts";

/**
 * The signed-in user as `GET /api/user` answers it (spec §3 "User session"): roles, the vendor seat
 * (with the count of active programs and whether the account fields were saved), the researcher
 * profile, staff and the second factor.
 */
export const SessionUser = z
  .object({
    id: z.number().int(),
    name: z.string(),
    email: z.string(),
    roles: z.array(AccountRole),
    vendor: z
      .object({
        id: z.number().int(),
        name: z.string(),
        role: z.string(),
        active_count: z.number().int(),
        /** The vendor account fields were saved (`/vdp/create-account` done). */
        account_completed: z.boolean(),
      })
      .nullable(),
    /** `profile_completed`: the profile was saved once (`/researchers/create` done, decision 010). */
    researcher: z.object({ uuid: z.string(), profile_completed: z.boolean() }).nullable(),
    is_staff: z.boolean(),
    two_factor_enabled: z.boolean(),
    email_verified: z.boolean(),
    /**
     * False for an account made by a magic link or a signed-out report: the settings offer to set a
     * first password rather than change one.
     */
    has_password: z.boolean(),
  })
  .meta({ id: "SessionUser" });
export type SessionUser = z.infer<typeof SessionUser>;

/** Token mode: a sign-in asked with `"token": true` answers the personal access token (decision 021). */
export const AccessToken = z.object({ token: z.string() }).meta({ id: "AccessToken" });
export type AccessToken = z.infer<typeof AccessToken>;

/** What a sign-in answers: the user (cookie mode) or the token (token mode). */
export const SignInAnswer = z.union([SessionUser, AccessToken]);
export type SignInAnswer = z.infer<typeof SignInAnswer>;

/** `GET /api/sessions`: where the signed-in user is signed in, each revocable but the current one. */
export const SignedInPlaces = z.object({
  data: z.array(
    z.object({
      id: z.number().int(),
      /**
       * A session is revoked with `DELETE /sessions/{id}`, a token (a browser or client signed in
       * in token mode) with `DELETE /tokens/{id}`.
       */
      kind: z.enum(["session", "token"]),
      user_agent: z.string().nullable(),
      ip: z.string().nullable(),
      created_at: z.string(),
      last_seen_at: z.string(),
      /** When it ends unless used again (a session or a token 14 days after its last use; decision 028). */
      expires_at: z.string(),
      current: z.boolean(),
    }),
  ),
});
export type SignedInPlaces = z.infer<typeof SignedInPlaces>;
export type SignedInPlace = SignedInPlaces["data"][number];
