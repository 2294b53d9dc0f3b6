import type { Database } from "../../db/client.ts";
import type { Mailer } from "../../mail/outbox.ts";
import { createApiKeys } from "./api-keys.ts";
import { createHousekeeping } from "./housekeeping.ts";
import { createPasswords } from "./passwords.ts";
import { prepareAuthQueries } from "./queries.ts";
import { createRegistration } from "./registration.ts";
import { createSessions } from "./sessions.ts";
import { createSignIn } from "./sign-in.ts";

// The type other modules name a magic link's outcome by (the signed-in user is the domain's SessionUser).
export type { MagicLinkOutcome } from "./sign-in.ts";

export interface AuthServiceOptions {
  database: Database;
  mailer: Mailer;
  appUrl: string;
  /** Multiplies every budget of RATE_LIMITS (AUTH_RATE_LIMIT_FACTOR; load tests raise it). */
  rateLimitFactor?: number;
}

/**
 * Sign-in and accounts (decision 003): who is calling and where they are signed in (sessions.ts),
 * signing in by password, magic link and second factor (sign-in.ts), new accounts and e-mail
 * verification (registration.ts), password reset and change (passwords.ts), named API keys
 * (api-keys.ts, decision 028), the hourly clean-up
 * (housekeeping.ts). Other modules use its queries' rate limits (`queries.hitRateLimit`).
 */
export function createAuthService({ database, mailer, appUrl, rateLimitFactor = 1 }: AuthServiceOptions) {
  const queries = prepareAuthQueries(database.sql);
  const parts = { database, mailer, appUrl, rateLimitFactor, queries };
  return {
    queries,
    ...createHousekeeping(queries),
    ...createSessions(parts),
    ...createApiKeys(parts),
    ...createSignIn(parts),
    ...createRegistration(parts),
    ...createPasswords(parts),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
