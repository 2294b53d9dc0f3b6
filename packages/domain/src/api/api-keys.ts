import { z } from "zod";

/**
 * Named API keys (decision 028): made on the account page, sent as `Authorization: Bearer pgk_…`.
 * `read` is public data only (a caller of its own for the rate limit, anonymous otherwise);
 * `watchlists` opens the user's own watchlists (issue 20, any user may grant it); `vendor` and
 * `researcher` open the routes of that role, and only to a user who holds it.
 */
export const API_KEY_SCOPES = ["read", "watchlists", "vendor", "researcher"] as const;
export const ApiKeyScope = z.enum(API_KEY_SCOPES);
export type ApiKeyScope = z.infer<typeof ApiKeyScope>;

/** Every key starts with it, so a leaked key is recognised (secret scanners, logs, a pasted snippet). */
export const API_KEY_PREFIX = "pgk_";

/** The lifetimes offered, in days; a key never lives longer than a year. */
export const API_KEY_LIFETIMES_DAYS = [30, 90, 365] as const;

export const API_KEY_MESSAGES = {
  nameRequired: "Give the key a name.",
  nameTooLong: "The name may not be greater than 100 characters.",
  scopesRequired: "Choose at least one scope.",
  scopesRepeated: "Choose each scope once.",
  lifetime: "Choose 30, 90 or 365 days.",
  scopeNotAllowed: "Your account cannot grant this scope.",
} as const;

/** `POST /api/api-keys`. */
export const ApiKeyCreation = z.strictObject({
  name: z
    .string({ error: API_KEY_MESSAGES.nameRequired })
    .trim()
    .min(1, API_KEY_MESSAGES.nameRequired)
    .max(100, API_KEY_MESSAGES.nameTooLong),
  scopes: z
    .array(ApiKeyScope, { error: API_KEY_MESSAGES.scopesRequired })
    .min(1, API_KEY_MESSAGES.scopesRequired)
    .max(API_KEY_SCOPES.length)
    .refine((scopes) => new Set(scopes).size === scopes.length, API_KEY_MESSAGES.scopesRepeated),
  expires_in_days: z.literal(API_KEY_LIFETIMES_DAYS, { error: API_KEY_MESSAGES.lifetime }),
});
export type ApiKeyCreation = z.infer<typeof ApiKeyCreation>;

/** One key as the list shows it: never its secret. */
export const ApiKeySummary = z
  .object({
    id: z.number().int(),
    name: z.string(),
    scopes: z.array(ApiKeyScope),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
    expires_at: z.string(),
  })
  .meta({ id: "ApiKeySummary" });
export type ApiKeySummary = z.infer<typeof ApiKeySummary>;

/** `POST /api/api-keys` answers the secret, this once; only its hash is stored. */
export const ApiKeyCreated = ApiKeySummary.extend({ key: z.string() }).meta({ id: "ApiKeyCreated" });
export type ApiKeyCreated = z.infer<typeof ApiKeyCreated>;

/** `GET /api/api-keys`: the live keys of the signed-in user; revoked with `DELETE /api/tokens/{id}`. */
export const ApiKeyList = z.object({ data: z.array(ApiKeySummary) });
export type ApiKeyList = z.infer<typeof ApiKeyList>;
