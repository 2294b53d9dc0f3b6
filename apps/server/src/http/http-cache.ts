import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Public reads: `Cache-Control: public, max-age=<seconds>` plus an ETag answered 304 on revalidation. */
    publicCacheSeconds?: number;
  }
}

/** The ETag of a body: a hash of its bytes, so equal answers revalidate across instances. */
export function etagOf(payload: string | Buffer): string {
  return `"${createHash("sha1").update(payload).digest("base64url")}"`;
}

function matches(ifNoneMatch: string, etag: string): boolean {
  return ifNoneMatch
    .split(",")
    .map((candidate) => candidate.trim().replace(/^W\//, ""))
    .some((candidate) => candidate === "*" || candidate === etag);
}

interface StoredAnswer {
  payload: string | Buffer;
  contentType: string;
  etag: string;
  /** Headers that belong to this very payload (a page's Content-Security-Policy and its nonce). */
  headers?: Record<string, string>;
}

/**
 * Successful public answers kept in memory, keyed by the data version and the URL: a repeated
 * read skips the handler, its queries and serialisation. Entries of an older data version are never
 * read again and age out (least recently used first).
 */
export function createResponseStore(dataVersion: () => string, maxBytes = 64 * 1024 * 1024) {
  const entries = new Map<string, StoredAnswer>();
  let bytes = 0;
  const keyOf = (request: FastifyRequest) => `${dataVersion()} ${request.url}`;
  return {
    get(request: FastifyRequest): StoredAnswer | undefined {
      const key = keyOf(request);
      const entry = entries.get(key);
      if (entry) {
        entries.delete(key);
        entries.set(key, entry);
      }
      return entry;
    },
    set(request: FastifyRequest, entry: StoredAnswer) {
      const key = keyOf(request);
      const previous = entries.get(key);
      if (previous) bytes -= previous.payload.length;
      entries.set(key, entry);
      bytes += entry.payload.length;
      for (const [oldest, answer] of entries) {
        if (bytes <= maxBytes) break;
        entries.delete(oldest);
        bytes -= answer.payload.length;
      }
    },
    get size() {
      return entries.size;
    },
  };
}
export type ResponseStore = ReturnType<typeof createResponseStore>;

const FROM_STORE = Symbol("answered from the response store");
type MarkedRequest = FastifyRequest & { [FROM_STORE]?: StoredAnswer };

/**
 * For the routes of `app` that declare `config.publicCacheSeconds`: successful GETs get Cache-Control
 * and an ETag, and a matching If-None-Match is answered 304 with no body. With a `store`, repeated
 * GETs are answered from memory before the handler runs.
 */
export function registerHttpCache(app: FastifyInstance, store?: ResponseStore) {
  const cacheable = (request: FastifyRequest) =>
    request.routeOptions.config.publicCacheSeconds !== undefined &&
    (request.method === "GET" || request.method === "HEAD");

  if (store) {
    app.addHook("preHandler", async (request: MarkedRequest, reply) => {
      if (!cacheable(request)) return;
      const stored = store.get(request);
      if (!stored) return;
      request[FROM_STORE] = stored;
      return reply.code(200).type(stored.contentType).send(stored.payload);
    });
  }

  app.addHook("onSend", async (request: MarkedRequest, reply, payload) => {
    const seconds = request.routeOptions.config.publicCacheSeconds;
    if (seconds === undefined || !cacheable(request)) return payload;
    if (reply.statusCode !== 200) return payload;
    if (typeof payload !== "string" && !Buffer.isBuffer(payload)) return payload;
    const stored = request[FROM_STORE];
    const etag = stored?.etag ?? etagOf(payload);
    if (store && !stored) {
      store.set(request, {
        payload,
        etag,
        contentType: String(reply.getHeader("content-type") ?? "application/json"),
      });
    }
    reply.header("etag", etag);
    reply.header("cache-control", `public, max-age=${seconds}`);
    const ifNoneMatch = request.headers["if-none-match"];
    if (ifNoneMatch && matches(ifNoneMatch, etag)) {
      reply.code(304);
      reply.removeHeader("content-length");
      reply.removeHeader("content-type");
      return "";
    }
    return payload;
  });
}
