import type { FastifyPluginAsync, FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../errors.ts";
import { publicData } from "../../http/access.ts";
import { type ResponseStore, registerHttpCache } from "../../http/http-cache.ts";
import { tags } from "../public-records/public-read.ts";
import type { OsvExportFileName, OsvExportSet, OsvExports } from "./osv-export-files.ts";
import { sendModifiedSince, sendStoredFile } from "./osv-export-http.ts";
import { FEED_SIZE, type FeedService } from "./service.ts";

const FEED_CACHE_SECONDS = 900;
/**
 * With no export files yet, a request waits this long for the build under way (37,205 records: ~20 s
 * in its thread), then is answered 503 with this Retry-After.
 */
const FIRST_BUILD_WAIT_MS = 60_000;
const EXPORT_RETRY_AFTER_SECONDS = 30;
const JSONL_TYPE = "application/x-ndjson; charset=utf-8";

/** Whether Accept-Encoding allows gzip: `gzip` (or else `*`) with a quality above zero. */
function acceptsGzip(header: string | string[] | undefined): boolean {
  if (!header) return false;
  const qualities = new Map<string, number>();
  for (const part of String(header).split(",")) {
    const [name = "", ...parameters] = part.trim().toLowerCase().split(";");
    const q = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith("q="));
    qualities.set(name.trim(), q ? Number(q.slice(2)) || 0 : 1);
  }
  return (qualities.get("gzip") ?? qualities.get("x-gzip") ?? qualities.get("*") ?? 0) > 0;
}

/** The feeds' OpenAPI description: they sit outside /api but are part of the public contract. */
function feedSchema(scope: string) {
  return {
    tags: ["public database"],
    summary: `Atom feed of the ${FEED_SIZE} newest vulnerabilities of ${scope}`,
    description:
      "An Atom 1.0 (RFC 4287) document, newest first by publication date (undated records by the day " +
      "they were imported). Each entry links to the vulnerability page and summarises the product, " +
      "affected versions, fix, CVE and severity; its content is the description as HTML, as the page shows it " +
      "(code, paragraphs and links; raw HTML as text, no image). Cached for 15 minutes; ETag and 304 as on the JSON API.",
    produces: ["application/atom+xml"],
    response: { 200: z.string().describe("An Atom feed (application/atom+xml; charset=utf-8).") },
  };
}

/** The feeds live beside the pages they follow, outside /api, so they are registered at the root. */
export const feedRoutes: FastifyPluginAsync<{
  feeds: FeedService;
  responseStore?: ResponseStore;
}> = async (app, { feeds, responseStore }) => {
  registerHttpCache(app, responseStore);
  const config = { publicCacheSeconds: FEED_CACHE_SECONDS };
  const send = (reply: { type: (value: string) => unknown }, body: string) => {
    reply.type("application/atom+xml; charset=utf-8");
    return body;
  };

  app.get("/database/feed", { config, schema: feedSchema("every product") }, async (_request, reply) =>
    send(reply, await feeds.getFeed()),
  );

  app.get<{ Params: { platform: string; kind: string; product: string } }>(
    "/database/:platform/:kind/:product/feed",
    {
      config,
      schema: {
        ...feedSchema("one product (404 when the product is unknown)"),
        params: z.object({
          platform: z.string().describe("wordpress"),
          kind: z.string().describe("plugin, theme or core"),
          product: z.string().describe("the product's slug, e.g. contact-form-7"),
        }),
      },
    },
    async (request, reply) => {
      const { platform, kind, product: slug } = request.params;
      return send(reply, await feeds.getProductFeed(platform, kind, slug));
    },
  );
};

/** A query schema that accepts only `keys` and says which, naming the unknown ones (422). */
function onlyParameters<Shape extends z.ZodRawShape>(shape: Shape) {
  const accepted = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? `Unknown query parameter${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((key) => `"${key}"`).join(", ")}: ` +
          (accepted.length > 0
            ? `this route accepts only ${accepted.join(", ")}.`
            : "this route accepts none.")
        : undefined,
  });
}

const ExportQuery = onlyParameters({
  modified_since: z.iso
    .datetime({ offset: true })
    .optional()
    .meta({
      description:
        "Only the records whose `modified` is later than this time (ISO 8601, e.g. 2026-11-01T00:00:00Z). " +
        "Filtered from the stored file as it streams: no byte ranges on this answer.",
      example: "2026-11-01T00:00:00Z",
    }),
});
const NoQuery = onlyParameters({});

const ERROR_DESCRIPTIONS = {
  304: z.null().meta({ description: "Not modified: If-None-Match or If-Modified-Since matched." }),
  416: z
    .unknown()
    .meta({ description: "Range not satisfiable: it starts past the end (Content-Range: bytes */size)." }),
  503: z.unknown().meta({
    description:
      "The instance's first export files are still being built after a minute of waiting, or the build " +
      "failed: try again after Retry-After seconds.",
  }),
};

const FILE_HEADERS =
  "Built once per data version and served as a file: ETag and Last-Modified (If-None-Match and " +
  "If-Modified-Since answer 304), byte ranges (Accept-Ranges: bytes, 206, 416 past the end), cached for 5 " +
  "minutes. Until a new data version's files are built, the previous version's are served; while an " +
  "instance builds its very first files, a request waits for them up to a minute, then is answered 503 " +
  "with Retry-After. Unknown query parameters answer 422.";

/**
 * The bulk OSV export of the public database API (under /api), as osv.dev and osv-scanner consume a
 * source: files built per data version (osv-export-files.ts), answered from disk (decision 027).
 */
export const osvExportRoutes: FastifyPluginAsyncZod<{ exports: OsvExports }> = async (app, { exports }) => {
  app.addHook("onClose", async () => exports.stop());
  await exports.start();

  /**
   * Sends a file of the served set; if its files were removed under us (another instance sharing the
   * directory moved on), from a fresh look at the disk; with no set at all (this instance's first
   * build), once the build ends, or 503 with Retry-After after a minute or a failed build.
   */
  const sendFrom = async (
    reply: FastifyReply,
    /** True once answered (not the reply: awaiting a reply waits for the response to end). */
    send: (set: OsvExportSet) => Promise<boolean>,
  ) => {
    const set = exports.current();
    if (set && (await send(set))) return reply;
    const found = await exports.rescan();
    if (found && (await send(found))) return reply;
    const built = await exports.awaitSet(FIRST_BUILD_WAIT_MS);
    if (built && (await send(built))) return reply;
    throw new AppError("unavailable", {
      message: "The export files are being built. Please try again shortly.",
      headers: { "retry-after": String(EXPORT_RETRY_AFTER_SECONDS) },
    });
  };
  /**
   * A file's answer. Its ETag is the file's SHA-256 (and the representation), not the data version
   * (issue 38): a version bump that changes no record (a program's activation) builds the same bytes,
   * so a client revalidating with If-None-Match gets a 304 instead of the files again.
   */
  const answerOf = (set: OsvExportSet, name: OsvExportFileName, representation: string = name) => ({
    path: set.pathOf(name),
    size: set.manifest.files[name].size,
    etag: `"osv-${representation}-${set.manifest.files[name].sha256.slice(0, 32)}"`,
    lastModified: new Date(set.manifest.lastModified),
    dataVersion: set.manifest.version,
  });

  app.get(
    "/v1/osv",
    {
      compress: false,
      schema: {
        tags,
        summary: "Every vulnerability as OSV, one JSON record per line (JSON Lines)",
        description:
          "The bulk export: every record of the database as an OSV record (the same document as " +
          "GET /api/v1/osv/{id}), one per line, in id order. Sent gzip-compressed (Content-Encoding: gzip) " +
          "when Accept-Encoding allows gzip, else decompressed as it streams (byte ranges then count " +
          `decompressed bytes). ${FILE_HEADERS} The same records one file each: GET /api/v1/osv/all.zip; ` +
          "what changed when: GET /api/v1/osv/modified_id.csv.",
        querystring: ExportQuery,
        produces: ["application/x-ndjson"],
        response: {
          // A stream, not a string, at run time: documented as text without typing the handler's reply.
          200: z.unknown().meta({
            type: "string",
            description: "JSON Lines: one OsvRecord per line (application/x-ndjson).",
          }),
          206: z.unknown().meta({ type: "string", description: "The requested bytes (Content-Range)." }),
          ...ERROR_DESCRIPTIONS,
        },
      },
      config: publicData,
    },
    async (request, reply) => {
      const gzip = acceptsGzip(request.headers["accept-encoding"]);
      const since = request.query.modified_since;
      return sendFrom(reply, (set) => {
        const file = {
          contentType: JSONL_TYPE,
          filename: "pressguard-osv.jsonl",
        };
        if (since !== undefined)
          return sendModifiedSince(
            request,
            reply,
            { ...answerOf(set, "osv.jsonl.gz", "osv.jsonl"), ...file, since: new Date(since) },
            gzip,
          );
        if (gzip)
          return sendStoredFile(request, reply, {
            ...answerOf(set, "osv.jsonl.gz"),
            ...file,
            contentEncoding: "gzip",
            vary: true,
          });
        return sendStoredFile(request, reply, {
          ...answerOf(set, "osv.jsonl.gz", "osv.jsonl"),
          ...file,
          size: set.manifest.jsonlSize,
          gunzip: true,
          vary: true,
        });
      });
    },
  );

  app.get(
    "/v1/osv/all.zip",
    {
      compress: false,
      schema: {
        tags,
        summary: "Every vulnerability as OSV, one file per record (<osv id>.json) in a zip archive",
        description: `As osv.dev's buckets serve a source's all.zip: each entry is one OsvRecord named by its id. ${FILE_HEADERS}`,
        querystring: NoQuery,
        produces: ["application/zip"],
        response: {
          200: z.unknown().meta({ type: "string", format: "binary", description: "A zip archive." }),
          206: z.unknown().meta({ type: "string", format: "binary", description: "The requested bytes." }),
          ...ERROR_DESCRIPTIONS,
        },
      },
      config: publicData,
    },
    async (request, reply) =>
      sendFrom(reply, (set) =>
        sendStoredFile(request, reply, {
          ...answerOf(set, "all.zip"),
          contentType: "application/zip",
          filename: "pressguard-osv-all.zip",
        }),
      ),
  );

  app.get(
    "/v1/osv/modified_id.csv",
    {
      compress: false,
      schema: {
        tags,
        summary: "When each vulnerability last changed: `<modified>,<osv id>` per line, newest first",
        description:
          "osv.dev's modified_id.csv: one line per record, its `modified` (ISO 8601, UTC) and its OSV id, " +
          `newest first, no header. A client fetches the records changed since its last sync. ${FILE_HEADERS}`,
        querystring: NoQuery,
        produces: ["text/csv"],
        response: {
          200: z.unknown().meta({ type: "string", description: "CSV, no header (text/csv)." }),
          206: z.unknown().meta({ type: "string", description: "The requested bytes." }),
          ...ERROR_DESCRIPTIONS,
        },
      },
      config: publicData,
    },
    async (request, reply) =>
      sendFrom(reply, (set) =>
        sendStoredFile(request, reply, {
          ...answerOf(set, "modified_id.csv"),
          contentType: "text/csv; charset=utf-8",
          filename: "modified_id.csv",
        }),
      ),
  );
};
