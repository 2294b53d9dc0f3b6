import { createHash } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  acceptedEncoding,
  COMPRESSIBLE_TYPES,
  COMPRESSION_THRESHOLD,
  type ContentEncoding,
  compressStored,
} from "./compression.ts";

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
  /** The payload compressed, once per encoding a request asked for (`ResponseStore.encoded`). */
  encoded?: Partial<Record<ContentEncoding, Buffer>>;
  /** Headers that belong to this very payload (a page's Content-Security-Policy and its nonce). */
  headers?: Record<string, string>;
  /** Whether it is sent compressed when the request accepts it; set once, as the store keeps it. */
  compressible?: boolean;
}

const isCompressible = (stored: StoredAnswer) =>
  COMPRESSIBLE_TYPES.test(stored.contentType) && Buffer.byteLength(stored.payload) >= COMPRESSION_THRESHOLD;

const sizeOf = (entry: StoredAnswer) =>
  entry.payload.length + (entry.encoded?.br?.length ?? 0) + (entry.encoded?.gzip?.length ?? 0);

/**
 * Sends a stored answer, compressed as the request accepts (kept compressed in the store, so a
 * repeated read costs no compression). The caller sets the status and the ETag.
 */
export function sendStored(
  request: FastifyRequest,
  reply: FastifyReply,
  store: ResponseStore,
  stored: StoredAnswer,
) {
  reply.type(stored.contentType);
  if (!(stored.compressible ?? isCompressible(stored))) return reply.send(stored.payload);
  // Compressed or not by the request's Accept-Encoding: a shared cache must tell the two apart.
  reply.header("vary", "accept-encoding");
  const encoding = acceptedEncoding(request.headers["accept-encoding"]);
  if (encoding === null) return reply.send(stored.payload);
  reply.header("content-encoding", encoding);
  return reply.send(store.encoded(request, stored, encoding));
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
      // A stored answer is served to every later visitor of the URL: never a bodiless one (a HEAD's).
      if (Buffer.byteLength(entry.payload) === 0) return;
      // Kept as bytes: a string would be encoded again for every answer.
      if (typeof entry.payload === "string") entry.payload = Buffer.from(entry.payload);
      entry.compressible = isCompressible(entry);
      const key = keyOf(request);
      const previous = entries.get(key);
      if (previous) bytes -= sizeOf(previous);
      entries.set(key, entry);
      bytes += sizeOf(entry);
      for (const [oldest, answer] of entries) {
        if (bytes <= maxBytes) break;
        entries.delete(oldest);
        bytes -= sizeOf(answer);
      }
    },
    /** The payload of `request`'s entry in `encoding`, compressed on first use and kept (and counted) with it. */
    encoded(request: FastifyRequest, entry: StoredAnswer, encoding: ContentEncoding): Buffer {
      const kept = entry.encoded?.[encoding];
      if (kept) return kept;
      const compressed = compressStored(entry.payload, encoding);
      entry.encoded = { ...entry.encoded, [encoding]: compressed };
      // Counted only while the entry is still kept (another request may have pushed it out).
      if (entries.get(keyOf(request)) === entry) bytes += compressed.length;
      return compressed;
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
      return sendStored(request, reply.code(200), store, stored);
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
      reply.removeHeader("content-encoding");
      return "";
    }
    return payload;
  });
}
