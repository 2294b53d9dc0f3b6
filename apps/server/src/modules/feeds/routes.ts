import { Readable } from "node:stream";
import type { FastifyPluginAsync } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { type ResponseStore, registerHttpCache } from "../../http/http-cache.ts";
import { PUBLIC_CACHE_SECONDS, tags } from "../vulnerabilities/public-read.ts";
import { FEED_SIZE, type FeedService } from "./service.ts";

const FEED_CACHE_SECONDS = 900;

/** The feeds' OpenAPI description: they sit outside /api but are part of the public contract. */
function feedSchema(scope: string) {
  return {
    tags: ["public database"],
    summary: `Atom feed of the ${FEED_SIZE} newest vulnerabilities of ${scope}`,
    description:
      "An Atom 1.0 (RFC 4287) document, newest first by publication date (undated records by the day " +
      "they were imported). Each entry links to the vulnerability page and summarises the product, " +
      "affected versions, fix, CVE and severity. Cached for 15 minutes; ETag and 304 as on the JSON API.",
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

/** The bulk OSV export of the public database API (under /api). */
export const osvExportRoutes: FastifyPluginAsyncZod<{ feeds: FeedService }> = async (app, { feeds }) => {
  app.get(
    "/v1/osv",
    {
      schema: {
        tags,
        summary: "Every vulnerability as OSV, one JSON record per line (JSON Lines)",
        description:
          "The bulk export: every record of the database as an OSV record (the same document as " +
          "GET /api/v1/osv/{id}), one per line, in id order, streamed. Cached for 5 minutes.",
        produces: ["application/x-ndjson"],
        response: {
          // A stream, not a string, at run time: documented as text without typing the handler's reply.
          200: z.unknown().meta({
            type: "string",
            description: "JSON Lines: one OsvRecord per line (application/x-ndjson).",
          }),
        },
      },
      config: { access: "public" },
    },
    async (_request, reply) => {
      reply.type("application/x-ndjson; charset=utf-8");
      reply.header("content-disposition", 'inline; filename="pressguard-osv.jsonl"');
      reply.header("cache-control", `public, max-age=${PUBLIC_CACHE_SECONDS}`);
      return reply.send(Readable.from(feeds.exportOsv()));
    },
  );
};
