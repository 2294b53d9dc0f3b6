import type { SessionUser } from "@pressguard/domain";
import type { Database } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import type { Mailer } from "../../mail/outbox.ts";
import type { AuthQueries, UserRow } from "./queries.ts";

/** What every part of auth shares: its parts' ingredients, the rate limits, the signed-in user. */

/** What the service and its parts (sessions.ts, sign-in.ts, registration.ts, passwords.ts) are built from. */
export interface AuthParts {
  database: Database;
  mailer: Mailer;
  appUrl: string;
  /** Multiplies every budget of RATE_LIMITS (AUTH_RATE_LIMIT_FACTOR; load tests raise it). */
  rateLimitFactor: number;
  queries: AuthQueries;
}

/** Rate limits: [hits, window in seconds], per IP and per account (the lower-cased e-mail). */
export const RATE_LIMITS = {
  loginIp: [30, 600],
  magicLinkIp: [10, 600],
  magicLinkAccount: [5, 600],
  resetIp: [10, 600],
  resetAccount: [5, 600],
  verificationAccount: [5, 600],
  /** Each registration mails a verification link: this caps mail sent to strangers from one IP. */
  registerIp: [60, 600],
  /** Registration mails the address each time, known or not: this caps mail to one inbox. */
  registerAccount: [5, 600],
  /** Wrong current passwords on the change-password form, per user (a stolen session guessing). */
  passwordChangeUser: [10, 600],
} as const satisfies Record<string, readonly [number, number]>;

export function tooManyAttempts(secondsLeft: number) {
  return new AppError("rate_limited", {
    message: `Too many attempts. Please try again in ${secondsLeft} seconds.`,
    headers: { "retry-after": String(secondsLeft) },
  });
}

/** Counts a hit on `key`; 429 once its window's budget (times the rate-limit factor) is spent. */
export function rateLimiterOf({ queries, rateLimitFactor }: Pick<AuthParts, "queries" | "rateLimitFactor">) {
  return async function limit(key: string, [budget, windowSeconds]: readonly [number, number]) {
    const maxHits = Math.max(1, Math.floor(budget * rateLimitFactor));
    const { hits, secondsLeft } = await queries.hitRateLimit(key, windowSeconds);
    if (hits > maxHits) throw tooManyAttempts(secondsLeft);
  };
}

export type Role = "researcher" | "vendor";

export function toSessionUser(row: UserRow): SessionUser {
  const roles: Role[] = [];
  if (row.researcher_uuid) roles.push("researcher");
  if (row.vendor_id !== null) roles.push("vendor");
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    roles,
    vendor:
      row.vendor_id === null
        ? null
        : {
            id: row.vendor_id,
            name: row.vendor_name ?? "",
            role: row.vendor_role ?? "member",
            active_count: row.active_count ?? 0,
            account_completed: row.vendor_account_completed === true,
          },
    researcher: row.researcher_uuid
      ? { uuid: row.researcher_uuid, profile_completed: row.researcher_profile_completed === true }
      : null,
    is_staff: row.is_staff,
    two_factor_enabled: row.two_factor,
    email_verified: row.email_verified_at !== null,
    has_password: row.has_password === true,
  };
}

export async function requireUser(queries: AuthQueries, userId: number): Promise<SessionUser> {
  const row = await queries.getUserById(userId);
  if (!row) throw new AppError("unauthenticated");
  return toSessionUser(row);
}
