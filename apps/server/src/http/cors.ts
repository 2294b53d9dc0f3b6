import type { FastifyInstance } from "fastify";

/**
 * The public read API (`/api/v1/…`, `/api/public/…`, the OpenAPI document) may be read by scripts of
 * any site: a scanner's dashboard, a host's control panel. Everything else stays same-origin: the
 * answers of the signed-in API depend on the caller's session and are never shared with another
 * origin. No credentials are allowed cross-origin (`*` forbids them): a public answer is the same
 * for everyone, so a cookie or token would add nothing but risk.
 *
 * Written here rather than with `@fastify/cors` (decision 024, amendment): with a policy that
 * depends on the path, the plugin rebuilt its options twice per request, and that cost a third of
 * the throughput of a stored public answer. The policy itself is fixed, so it is a few headers.
 */
const PUBLIC_READ_API = /^\/api\/(?:v1|public)\/|^\/api\/openapi\.json(?:\?|$)/;

/** `*`: any origin, never with credentials. */
const ALLOW_ORIGIN = "*";
/** The RateLimit fields let a dashboard pace itself against the public API's limit (decision 028). */
const EXPOSED_HEADERS =
  "ETag, Last-Modified, Link, Retry-After, Cache-Control, Content-Range, Accept-Ranges, " +
  "RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, RateLimit-Policy, RateLimit";
// POST is the batch check (`/api/v1/check`), which only reads.
const ALLOWED_METHODS = "GET, HEAD, POST";
/**
 * An API key (`Authorization: Bearer pgk_…`, its own budget) and conditional and ranged requests
 * (issue 38). A header, not a credential in the CORS sense: no cookie is ever sent or read.
 */
const ALLOWED_HEADERS = "Accept, Authorization, Content-Type, If-None-Match, If-Modified-Since, Range";
/** Browsers keep a preflight's answer this long (one day). */
const PREFLIGHT_MAX_AGE = "86400";

export function registerPublicReadCors(app: FastifyInstance) {
  // On request, before any handler: stored answers (http-cache.ts) and errors carry the headers too,
  // and a preflight is answered before access control asks who is calling.
  app.addHook("onRequest", (request, reply, done) => {
    if (!PUBLIC_READ_API.test(request.url)) return done();
    reply.raw.setHeader("access-control-allow-origin", ALLOW_ORIGIN);
    reply.raw.setHeader("access-control-expose-headers", EXPOSED_HEADERS);
    if (request.method !== "OPTIONS") return done();
    if (!request.headers.origin || !request.headers["access-control-request-method"]) {
      reply.code(400).type("text/plain").send("Invalid Preflight Request");
      return;
    }
    reply
      .code(204)
      .header("access-control-allow-methods", ALLOWED_METHODS)
      .header("access-control-allow-headers", ALLOWED_HEADERS)
      .header("access-control-max-age", PREFLIGHT_MAX_AGE)
      // Some browsers wait for a body after a 204 without it.
      .header("content-length", "0")
      .send();
  });
}
