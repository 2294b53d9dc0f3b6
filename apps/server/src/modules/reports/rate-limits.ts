import { AppError } from "../../errors.ts";

/**
 * Submission budgets, [hits, window in seconds]: anonymous per IP and per e-mail (decision 008),
 * signed in per user (issue 15: a burst of reports from one account was accepted without end).
 */
export const REPORT_RATE_LIMITS = {
  submitIp: [10, 600],
  submitEmail: [5, 600],
  submitUser: [20, 3600],
} as const satisfies Record<string, readonly [number, number]>;

/** The PIN endpoint: [hits, window in seconds] per IP, besides the per-report lock. */
export const PIN_RATE_LIMIT = [20, 900] as const;

export interface RateLimitOptions {
  /** The shared fixed-window counter of the auth module (rate_limits). */
  hitRateLimit(key: string, windowSeconds: number): Promise<{ hits: number; secondsLeft: number }>;
  /** Multiplies the budgets of REPORT_RATE_LIMITS (AUTH_RATE_LIMIT_FACTOR). */
  rateLimitFactor?: number;
}

/** Counts a hit on `key` and refuses it (429 with Retry-After) over the budget. */
export function createRateLimiter({ hitRateLimit, rateLimitFactor }: RateLimitOptions) {
  return async function limit(
    key: string,
    [budget, windowSeconds]: readonly [number, number],
    what = "reports",
  ): Promise<void> {
    const maxHits = Math.max(1, Math.floor(budget * (rateLimitFactor ?? 1)));
    const { hits, secondsLeft } = await hitRateLimit(key, windowSeconds);
    if (hits > maxHits) {
      throw new AppError("rate_limited", {
        message: `Too many ${what}. Please try again in ${secondsLeft} seconds.`,
        headers: { "retry-after": String(secondsLeft) },
      });
    }
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
