import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import fastifyCompress from "@fastify/compress";
import type { FastifyInstance } from "fastify";

/**
 * Response compression (issue 14): every answer of a compressible type and at least
 * `COMPRESSION_THRESHOLD` bytes goes out as brotli or gzip when the request's `Accept-Encoding`
 * allows it, with `Vary: Accept-Encoding`. Three paths lead here:
 * - API answers and server-rendered pages, compressed as they are sent by `@fastify/compress`
 *   (web.ts hands React Router's Response to `reply.send`, so pages pass through it too);
 * - answers kept in a response store (http-cache.ts), compressed once per encoding and kept;
 * - the build's static files, compressed at build time (scripts/ensure-build.mjs) and served
 *   as they are by `@fastify/static` (`preCompressed`).
 */
export const COMPRESSION_THRESHOLD = 1024;

/** HTML, CSS, JavaScript, JSON (incl. JSON Lines), XML feeds, SVG and plain text; never images or files. */
export const COMPRESSIBLE_TYPES =
  /^text\/(?!event-stream)|javascript|[/+](?:x-nd)?json(?:;|$)|[/+]xml(?:;|$)/;

export type ContentEncoding = "br" | "gzip";

/**
 * The encoding to answer with, as `@fastify/compress` negotiates it: of brotli and gzip, the one
 * `Accept-Encoding` gives the higher quality (brotli on a tie), if above zero; null for identity.
 */
export function acceptedEncoding(acceptEncoding: string | string[] | undefined): ContentEncoding | null {
  if (!acceptEncoding) return null;
  const qualities = new Map<string, number>();
  for (const part of String(acceptEncoding).split(",")) {
    const [name = "", ...parameters] = part.trim().toLowerCase().split(";");
    const q = parameters.map((p) => p.trim()).find((p) => p.startsWith("q="));
    qualities.set(name.trim(), q ? Number(q.slice(2)) || 0 : 1);
  }
  const quality = (encoding: ContentEncoding) => qualities.get(encoding) ?? qualities.get("*") ?? 0;
  const best = quality("br") >= quality("gzip") ? "br" : "gzip";
  return quality(best) > 0 ? best : null;
}

/** Brotli quality for answers compressed as they are sent: 11 costs too much CPU per request. */
const DYNAMIC_BROTLI_QUALITY = 4;
/** Stored answers are compressed once and sent many times: a better ratio is worth more CPU. */
const STORED_BROTLI_QUALITY = 6;

/** Compresses a stored answer once (response store). */
export function compressStored(payload: string | Buffer, encoding: ContentEncoding): Buffer {
  return encoding === "br"
    ? brotliCompressSync(payload, { params: { [constants.BROTLI_PARAM_QUALITY]: STORED_BROTLI_QUALITY } })
    : gzipSync(payload);
}

/** Registered before any route: `@fastify/compress` adds its hook to each route as it is declared. */
export async function registerCompression(app: FastifyInstance) {
  await app.register(fastifyCompress, {
    encodings: ["br", "gzip"],
    threshold: COMPRESSION_THRESHOLD,
    customTypes: COMPRESSIBLE_TYPES,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY } },
  });
}
