import { createHash } from "node:crypto";
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendHookHandler,
  preHandlerHookHandler,
} from "fastify";
import type { Database, SqlRunner } from "../db/client.ts";
import { AppError } from "../errors.ts";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  findIdempotencyKey,
  purgeIdempotencyKeys,
  releaseIdempotencyKey,
} from "./idempotency-queries.ts";

declare module "fastify" {
  interface FastifyContextConfig {
    /** A POST a client may retry: it honours an `Idempotency-Key` header (http/idempotency.ts). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /** Set while an idempotent request with a key runs; its effect may record its answer with it. */
    idempotency: IdempotentAttempt | null;
  }
}

const IDEMPOTENCY_HEADER = "Idempotency-Key";
/** Set on a stored answer sent again. */
const IDEMPOTENT_REPLAY_HEADER = "Idempotent-Replayed";
/** How long an answer is kept for a retry. */
const IDEMPOTENCY_TTL_HOURS = 24;
/** How long a request in progress holds its key; a process killed mid-request frees it after this. */
const IDEMPOTENCY_CLAIM_SECONDS = 30;

export const IDEMPOTENCY_MESSAGES = {
  invalid: `The ${IDEMPOTENCY_HEADER} header must be 1 to 200 visible ASCII characters.`,
  inProgress: `A request with this ${IDEMPOTENCY_HEADER} is still in progress. Retry it later.`,
  reused: `This ${IDEMPOTENCY_HEADER} was already used for a different request.`,
} as const;

const KEY_PATTERN = /^[\x21-\x7e]{1,200}$/;

export interface IdempotentAttempt {
  /**
   * Stores the answer within `tx`, the transaction of the request's effect: the effect and its answer
   * commit together, so a retry after a lost response (a reset, a restart) replays it and never
   * repeats the effect. The answer actually sent replaces it when the request completes.
   */
  record(tx: SqlRunner, status: number, body: unknown): Promise<void>;
}

type Claim = { kind: "new" } | { kind: "replay"; status: number; body: string };

/** Claims, replays and frees the keys of idempotency_keys (the statements: idempotency-queries.ts). */
function createIdempotencyStore(sql: SqlRunner) {
  let purgedAt = 0;
  return {
    /** Takes `key` for this request, or says why not: the stored answer, 409 in progress, 422 reused. */
    async claim(scope: string, key: string, requestHash: string): Promise<Claim> {
      if (Date.now() - purgedAt > 60 * 60 * 1000) {
        purgedAt = Date.now();
        await purgeIdempotencyKeys(sql, IDEMPOTENCY_TTL_HOURS);
      }
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const claimed = await claimIdempotencyKey(sql, {
          scope,
          key,
          requestHash,
          claimSeconds: IDEMPOTENCY_CLAIM_SECONDS,
          ttlHours: IDEMPOTENCY_TTL_HOURS,
        });
        if (claimed) return { kind: "new" };
        const row = await findIdempotencyKey(sql, scope, key);
        // Released by a failed request in the meantime: claim again.
        if (!row) continue;
        if (row.request_hash !== requestHash)
          throw new AppError("validation", { message: IDEMPOTENCY_MESSAGES.reused });
        if (row.response_status === null)
          throw new AppError("conflict", { message: IDEMPOTENCY_MESSAGES.inProgress });
        return { kind: "replay", status: row.response_status, body: row.response_body ?? "" };
      }
      throw new AppError("conflict", { message: IDEMPOTENCY_MESSAGES.inProgress });
    },

    complete: (runner: SqlRunner, scope: string, key: string, status: number, body: string) =>
      completeIdempotencyKey(runner, scope, key, status, body),

    /** Frees the key of a request that failed before its effect committed (its answer not recorded). */
    release: (scope: string, key: string) => releaseIdempotencyKey(sql, scope, key),
  };
}

/** JSON with object keys in order, so that the same request hashes alike however it was written. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

/**
 * What makes two requests "the same" for a key. A multipart upload's file is a stream read after this
 * runs, so for uploads the route, parameters and query count: the key names the upload, and a second
 * request with it gets the first one's answer, whatever its bytes.
 */
function requestHashOf(request: FastifyRequest): string {
  return createHash("sha256")
    .update(
      canonicalJson([request.method, request.routeOptions.url, request.params, request.query, request.body]),
    )
    .digest("hex");
}

/** The key a request holds until its answer is stored. */
interface HeldKey {
  scope: string;
  key: string;
}

/** Keys are the caller's own: the signed-in user's, or a signed-out client's (its address). */
function scopeOf(request: FastifyRequest): string {
  return request.auth ? `user:${request.auth.user.id}` : `anon:${request.ip}`;
}

/**
 * `Idempotency-Key` on the routes marked `config: { idempotent: true }` (the POSTs a client may
 * retry): the first request with a key runs and its 2xx answer is stored 24 h; the same key again —
 * same caller, same request — gets that answer back (with `Idempotent-Replayed: true`), while the
 * first still runs a 409, with another request a 422. A request that fails frees its key. Runs
 * after access control (the caller is known) and validation (an invalid body takes no key).
 */
export function registerIdempotency(
  app: FastifyInstance,
  { database, retryDelayMs = 1000 }: { database: Database; retryDelayMs?: number },
) {
  const store = createIdempotencyStore(database.sql);
  const headerName = IDEMPOTENCY_HEADER.toLowerCase();
  const held = new WeakMap<FastifyRequest, HeldKey>();

  /** The database may be the reason the request failed: keep trying a while, in the background. */
  const releaseSoon = (scope: string, key: string, triesLeft: number) => {
    store.release(scope, key).catch(() => {
      if (triesLeft > 0) setTimeout(() => releaseSoon(scope, key, triesLeft - 1), retryDelayMs).unref();
    });
  };

  app.decorateRequest("idempotency", null);

  // The requests that carry no key leave the hooks at once, without a promise.
  /** True when it answered the request itself (a replay). */
  const claimKey = async (request: FastifyRequest, reply: FastifyReply, key: string | string[]) => {
    if (typeof key !== "string" || !KEY_PATTERN.test(key))
      throw new AppError("bad_request", { message: IDEMPOTENCY_MESSAGES.invalid });
    const scope = scopeOf(request);
    const claim = await store.claim(scope, key, requestHashOf(request));
    if (claim.kind === "replay") {
      reply
        .status(claim.status)
        .header(IDEMPOTENT_REPLAY_HEADER, "true")
        .header("content-type", "application/json; charset=utf-8")
        .send(claim.body);
      return true;
    }
    held.set(request, { scope, key });
    request.idempotency = {
      record: (tx, status, body) => store.complete(tx, scope, key, status, JSON.stringify(body)),
    };
    return false;
  };
  const preHandler: preHandlerHookHandler = (request, reply, done) => {
    const key = request.headers[headerName];
    if (key === undefined) return done();
    // A hook that answered the request itself must not go on (Fastify: "respond from a hook").
    claimKey(request, reply, key).then((answered) => answered || done(), done);
  };

  const finish = async (request: FastifyRequest, reply: FastifyReply, payload: unknown, claim: HeldKey) => {
    held.delete(request);
    request.idempotency = null;
    if (reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === "string") {
      await store.complete(database.sql, claim.scope, claim.key, reply.statusCode, payload).catch((error) => {
        // The effect is done: a retry within the claim gets a 409, after it runs again.
        request.log.warn({ err: error }, "could not store the answer of an idempotent request");
      });
    } else {
      releaseSoon(claim.scope, claim.key, 15);
    }
  };
  const onSend: onSendHookHandler = (request, reply, payload, done) => {
    const claim = held.get(request);
    if (!claim) return done(null, payload);
    finish(request, reply, payload, claim).then(() => done(null, payload), done);
  };

  // Hooks of the idempotent routes only: every other answer skips them (two hooks less on each
  // stored public read, measured in bench/README.md). Route hooks run after the app's own, so
  // access control and validation come first.
  app.addHook("onRoute", (route) => {
    if (!(route.config as { idempotent?: boolean } | undefined)?.idempotent) return;
    route.preHandler = [...hooksOf(route.preHandler), preHandler];
    route.onSend = [...hooksOf(route.onSend), onSend];
  });
}

const hooksOf = <Hook>(hooks: Hook | Hook[] | undefined): Hook[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
