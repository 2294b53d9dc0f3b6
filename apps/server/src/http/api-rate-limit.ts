import type { FastifyInstance, FastifyRequest } from "fastify";
import ipaddr from "ipaddr.js";
import type { SqlRunner } from "../db/client.ts";
import { AppError } from "../errors.ts";
import { addRateLimitHits } from "./api-rate-limit-queries.ts";

/**
 * The rate limit of the public API (`/api/v1/*`, decision 028): fixed windows aligned on the clock
 * (every instance agrees where a window starts), one budget per API key or, without one, per client
 * address. Counted in memory, so a request costs no database round trip; about once a second each
 * instance adds what it counted to `rate_limits` (one statement for all its active buckets) and
 * takes the total every instance has written as its new base. So the instances share one budget,
 * each overshooting it by at most what reaches it within a second.
 */

declare module "fastify" {
  interface FastifyContextConfig {
    /** What a request to this route costs of the budget (default 1): a batch check weighs its items. */
    rateLimitCost?: (request: FastifyRequest) => number;
  }
}

export interface ApiRateLimitOptions {
  sql: SqlRunner;
  windowSeconds: number;
  /** Per client address (IPv6: per /64), for callers without an API key. */
  anonymousBudget: number;
  /** Per API key. */
  keyBudget: number;
  /** The API key a request came with (null: none), set by the access hook before this one runs. */
  apiKeyOf: (request: FastifyRequest) => number | null;
  /**
   * The web server's own calls while it renders a page (http/web.ts): the page is the visitor's
   * request, not these; they carry this per-process secret in `INTERNAL_CALL_HEADER`.
   */
  internalSecret?: string;
  log: { warn(object: object, message: string): void; info(message: string): void };
  /** How often the counts are written to the database (ms). */
  flushEveryMs?: number;
  now?: () => number;
}

/** Sent by the page renderer on its calls to the API of its own process (with `internalSecret`). */
export const INTERNAL_CALL_HEADER = "x-pressguard-internal";

/**
 * Sent by the page renderer, beside `INTERNAL_CALL_HEADER`, on a call it makes for the visitor (the
 * "Check your site" page's batch check): the visitor's address, whose budget the call is counted on.
 * Trusted only with a valid internal secret; without one it is ignored.
 */
export const VISITOR_ADDRESS_HEADER = "x-pressguard-visitor";

interface Bucket {
  /** `api:<subject>:<window start, epoch seconds>`: its row in rate_limits. */
  key: string;
  windowEnd: number;
  /** The count every instance had written when this one last flushed. */
  base: number;
  /** Counted here and not yet written. */
  pending: number;
  /** Being written now. */
  inFlight: number;
}

/** The bucket of an address: an IPv6 client usually holds a whole /64, so that is one client. */
export function clientOf(ip: string): string {
  if (!ip.includes(":")) return ip;
  try {
    const address = ipaddr.process(ip);
    if (address.kind() === "ipv4") return address.toString();
    return `${(address as ipaddr.IPv6).parts
      .slice(0, 4)
      .map((part) => part.toString(16))
      .join(":")}::/64`;
  } catch {
    return ip;
  }
}

function sameSecret(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index += 1) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}

export function createApiRateLimiter(options: ApiRateLimitOptions) {
  const now = options.now ?? Date.now;
  const windowMs = options.windowSeconds * 1000;
  const buckets = new Map<string, Bucket>();
  let flushing: Promise<void> | null = null;
  let failing = false;

  /** Counts `cost` for `subject`; the answer says whether it fits and what the headers say. */
  function hit(subject: string, budget: number, cost: number) {
    const at = now();
    const windowStart = Math.floor(at / windowMs) * windowMs;
    const key = `api:${subject}:${windowStart / 1000}`;
    let bucket = buckets.get(key);
    if (!bucket) {
      bucket = { key, windowEnd: windowStart + windowMs, base: 0, pending: 0, inFlight: 0 };
      buckets.set(key, bucket);
    }
    const used = bucket.base + bucket.inFlight + bucket.pending;
    const allowed = used + cost <= budget;
    if (allowed) bucket.pending += cost;
    return {
      allowed,
      limit: budget,
      remaining: Math.max(0, budget - used - (allowed ? cost : 0)),
      resetSeconds: Math.max(1, Math.ceil((bucket.windowEnd - at) / 1000)),
    };
  }

  async function writeCounts() {
    const at = now();
    const batch: Bucket[] = [];
    for (const bucket of buckets.values()) {
      // An ended window's count matters no more, written or not.
      if (bucket.windowEnd <= at) buckets.delete(bucket.key);
      else if (bucket.pending > 0) {
        bucket.inFlight = bucket.pending;
        bucket.pending = 0;
        batch.push(bucket);
      }
    }
    if (batch.length === 0) return;
    batch.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    try {
      const totals = await addRateLimitHits(
        options.sql,
        batch.map((bucket) => ({ key: bucket.key, hits: bucket.inFlight, windowEndMs: bucket.windowEnd })),
      );
      for (const bucket of batch) {
        bucket.base = totals.get(bucket.key) ?? bucket.base + bucket.inFlight;
        bucket.inFlight = 0;
      }
      if (failing) options.log.info("API rate-limit counts are written to the database again");
      failing = false;
    } catch (error) {
      // The limit goes on counting here, and writes it all once it can: a database fault costs the
      // sharing for a while, not the API.
      for (const bucket of batch) {
        bucket.pending += bucket.inFlight;
        bucket.inFlight = 0;
      }
      if (!failing)
        options.log.warn(
          { err: error },
          "API rate-limit counts could not be written to the database; counting in this instance until it can",
        );
      failing = true;
    }
  }

  /** Writes what was counted since the last time (one at a time). */
  function flush(): Promise<void> {
    flushing ??= writeCounts().finally(() => {
      flushing = null;
    });
    return flushing;
  }

  let timer: NodeJS.Timeout | null = null;

  return {
    hit,
    flush,
    start() {
      timer ??= setInterval(() => void flush(), options.flushEveryMs ?? 1000);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await flush();
    },

    /** Counts every request to `/api/v1/*` and refuses one over its budget: 429 with Retry-After. */
    register(app: FastifyInstance) {
      const internalSecret = options.internalSecret;
      app.addHook("preValidation", async (request, reply) => {
        if (!request.routeOptions.url?.startsWith("/api/v1/")) return;
        let visitor: string | null = null;
        if (internalSecret) {
          const internal = request.headers[INTERNAL_CALL_HEADER];
          if (typeof internal === "string" && sameSecret(internal, internalSecret)) {
            const address = request.headers[VISITOR_ADDRESS_HEADER];
            // A reading page's calls are the server's; a call made for the visitor is theirs.
            if (typeof address !== "string" || address === "") return;
            visitor = address;
          }
        }
        const apiKey = visitor === null ? options.apiKeyOf(request) : null;
        const cost = request.routeOptions.config.rateLimitCost?.(request) ?? 1;
        const outcome =
          apiKey === null
            ? hit(`ip:${clientOf(visitor ?? request.ip)}`, options.anonymousBudget, cost)
            : hit(`key:${apiKey}`, options.keyBudget, cost);
        const policy = apiKey === null ? "anonymous" : "key";
        const headers = {
          // draft-ietf-httpapi-ratelimit-headers as clients read it today: the separate fields of its
          // drafts up to -06, and the structured fields of -08 to -10 (the quota policy, then what is
          // left of it), both in seconds.
          "ratelimit-limit": String(outcome.limit),
          "ratelimit-remaining": String(outcome.remaining),
          "ratelimit-reset": String(outcome.resetSeconds),
          "ratelimit-policy": `"${policy}";q=${outcome.limit};w=${options.windowSeconds}`,
          ratelimit: `"${policy}";r=${outcome.remaining};t=${outcome.resetSeconds}`,
        };
        if (outcome.allowed) {
          reply.headers(headers);
          return;
        }
        throw new AppError("rate_limited", {
          message: `Too many requests. Please try again in ${outcome.resetSeconds} seconds.`,
          headers: { ...headers, "retry-after": String(outcome.resetSeconds) },
        });
      });
    },
  };
}
