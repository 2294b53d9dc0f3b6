import { createHash } from "node:crypto";
import type { FastifyInstance } from "fastify";

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

/**
 * For the routes of `app` that declare `config.publicCacheSeconds`: successful GETs get Cache-Control
 * and an ETag, and a matching If-None-Match is answered 304 with no body.
 */
export function registerHttpCache(app: FastifyInstance) {
  app.addHook("onSend", async (request, reply, payload) => {
    const seconds = request.routeOptions.config.publicCacheSeconds;
    if (seconds === undefined || (request.method !== "GET" && request.method !== "HEAD")) return payload;
    if (reply.statusCode !== 200) return payload;
    if (typeof payload !== "string" && !Buffer.isBuffer(payload)) return payload;
    const etag = etagOf(payload);
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
