import fastifyCors from "@fastify/cors";
import type { FastifyInstance } from "fastify";

/**
 * The public read API (`/api/v1/…`, `/api/public/…`, the OpenAPI document) may be read by scripts of
 * any site: a scanner's dashboard, a host's control panel. Everything else stays same-origin: the
 * answers of the signed-in API depend on the caller's session and are never shared with another
 * origin. No credentials are allowed cross-origin (`*` forbids them): a public answer is the same
 * for everyone, so a cookie or token would add nothing but risk.
 */
const PUBLIC_READ_API = /^\/api\/(?:v1|public)\/|^\/api\/openapi\.json(?:\?|$)/;

const PUBLIC_READ_CORS = {
  origin: "*",
  // POST is the batch check (`/api/v1/check`), which only reads.
  methods: ["GET", "HEAD", "POST"],
  allowedHeaders: ["Accept", "Content-Type", "If-None-Match"],
  exposedHeaders: ["ETag", "Link", "Retry-After", "Cache-Control"],
  credentials: false,
  maxAge: 86_400,
};

export async function registerPublicReadCors(app: FastifyInstance) {
  await app.register(fastifyCors, {
    // Before any handler, so stored answers (http-cache.ts) and errors carry the headers too.
    hook: "onRequest",
    delegator: (request, callback) => {
      callback(null, PUBLIC_READ_API.test(request.url) ? PUBLIC_READ_CORS : { origin: false });
    },
  });
}
