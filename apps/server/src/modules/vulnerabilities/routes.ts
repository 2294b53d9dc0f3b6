import { Readable } from "node:stream";
import {
  CheckRequest,
  CheckResponse,
  Contributors,
  DatabaseCounts,
  Leaderboard,
  OsvRecord,
  PageQuery,
  ProductSearchPage,
  ProductSearchQuery,
  ProductVulnerabilitiesQuery,
  ProgramDirectory,
  ProgramDirectoryQuery,
  PublicProduct,
  PublicResearcherProfile,
  Statistics,
  VulnerabilityDetail,
  VulnerabilityPage,
  VulnerabilitySearchQuery,
} from "@pressguard/domain";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../errors.ts";
import { type ResponseStore, registerHttpCache } from "../../http/http-cache.ts";
import { idOrNotFound } from "../../http/ids.ts";
import { pageRequest } from "../../http/pagination.ts";
import type { RankingService } from "./rankings-service.ts";
import { NOT_FOUND_MESSAGES, type VulnerabilityService } from "./service.ts";

/** Public reads may be five minutes old; revalidation is cheap thanks to the ETag. */
const PUBLIC_CACHE_SECONDS = 300;
const publicRead = { access: "public", publicCacheSeconds: PUBLIC_CACHE_SECONDS } as const;
const tags = ["public database"];

/** A product id of the specification's product API: digits, or the product does not exist. */
function productIdOf(value: string): number {
  return idOrNotFound(value, NOT_FOUND_MESSAGES.product);
}

/** The public database API (PRODUCT.md §6, spec §7 product reads). */
export const vulnerabilityRoutes: FastifyPluginAsyncZod<{
  vulnerabilities: VulnerabilityService;
  rankings: RankingService;
  responseStore?: ResponseStore;
}> = async (app, { vulnerabilities, rankings, responseStore }) => {
  registerHttpCache(app, responseStore);

  app.get(
    "/v1/vulnerabilities",
    {
      schema: {
        tags,
        summary: "Search vulnerabilities",
        description:
          "Full text over title, description, product name and slug; a CVE id matches exactly. Sorted by relevance when q is given, otherwise by date.",
        querystring: VulnerabilitySearchQuery,
        response: { 200: VulnerabilityPage },
      },
      config: publicRead,
    },
    (request) =>
      vulnerabilities.searchVulnerabilities(
        request.query,
        pageRequest(request, request.query.page, request.query.per_page),
      ),
  );

  app.get(
    "/v1/vulnerabilities/:id",
    {
      schema: {
        tags,
        summary: "One vulnerability by our id, its CVE id, its source id or its slug",
        params: z.object({ id: z.string() }),
        response: { 200: VulnerabilityDetail },
      },
      config: publicRead,
    },
    (request) => vulnerabilities.getVulnerability(request.params.id),
  );

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
      return reply.send(Readable.from(vulnerabilities.exportOsv()));
    },
  );

  app.get(
    "/v1/osv/:id",
    {
      schema: {
        tags,
        summary: "One vulnerability as an OSV record (schema 1.7.5)",
        params: z.object({ id: z.string() }),
        response: { 200: OsvRecord },
      },
      config: publicRead,
    },
    (request) => vulnerabilities.getOsv(request.params.id),
  );

  app.get(
    "/v1/statistics/counts",
    {
      schema: { tags, summary: "Headline counts of the database", response: { 200: DatabaseCounts } },
      config: publicRead,
    },
    () => vulnerabilities.getDatabaseCounts(),
  );

  app.get(
    "/v1/programs",
    {
      schema: {
        tags,
        summary: "The active VDP directory: products whose vendor runs a disclosure program",
        querystring: ProgramDirectoryQuery,
        response: { 200: ProgramDirectory },
      },
      config: publicRead,
    },
    (request) =>
      vulnerabilities.findActivePrograms(
        request.query.q,
        pageRequest(request, request.query.page, request.query.per_page),
      ),
  );

  app.get(
    "/v1/products",
    {
      schema: {
        tags,
        summary: "Search products by name or slug (the report form's product picker)",
        description:
          "Every product of the database, each word of q a prefix; an exact slug first, then active programs, then by installs.",
        querystring: ProductSearchQuery,
        response: { 200: ProductSearchPage },
      },
      config: publicRead,
    },
    (request) =>
      vulnerabilities.findProducts(
        request.query,
        pageRequest(request, request.query.page, request.query.per_page),
      ),
  );

  app.get(
    "/v1/products/:platform/:kind/:slug",
    {
      schema: {
        tags,
        summary: "A product of the public database by platform, kind and slug",
        params: z.object({ platform: z.string(), kind: z.string(), slug: z.string() }),
        response: { 200: PublicProduct },
      },
      config: publicRead,
    },
    (request) =>
      vulnerabilities.getProduct(request.params.platform, request.params.kind, request.params.slug),
  );

  app.get(
    "/products/:id/vulnerabilities",
    {
      schema: {
        tags,
        summary: "A product's vulnerabilities, present (unpatched) or fixed",
        params: z.object({ id: z.string() }),
        querystring: ProductVulnerabilitiesQuery,
        response: { 200: VulnerabilityPage },
      },
      config: publicRead,
    },
    (request) =>
      vulnerabilities.findProductVulnerabilities(
        productIdOf(request.params.id),
        request.query["filter[tab]"],
        pageRequest(request, request.query.page, request.query.per_page),
      ),
  );

  app.get(
    "/products/:id/contributors",
    {
      schema: {
        tags,
        summary: "Researchers credited on a product's vulnerabilities",
        params: z.object({ id: z.string() }),
        response: { 200: Contributors },
      },
      config: publicRead,
    },
    (request) => vulnerabilities.findProductContributors(productIdOf(request.params.id)),
  );

  app.get(
    "/v1/researchers/:uuid",
    {
      schema: {
        tags,
        summary: "A researcher's public profile, points and rank",
        params: z.object({ uuid: z.string() }),
        response: { 200: PublicResearcherProfile },
      },
      config: publicRead,
    },
    (request) => vulnerabilities.getResearcher(request.params.uuid),
  );

  app.get(
    "/v1/researchers/:uuid/vulnerabilities",
    {
      schema: {
        tags,
        summary: "The vulnerabilities credited to a researcher",
        params: z.object({ uuid: z.string() }),
        querystring: PageQuery,
        response: { 200: VulnerabilityPage },
      },
      config: publicRead,
    },
    (request) =>
      vulnerabilities.findResearcherVulnerabilities(
        request.params.uuid,
        pageRequest(request, request.query.page, request.query.per_page),
      ),
  );

  app.get(
    "/v1/leaderboard/:type",
    {
      schema: {
        tags,
        summary: "Researchers ranked by points: this month, this year or all time (PRODUCT.md §5)",
        params: z.object({ type: z.string() }),
        response: { 200: Leaderboard },
      },
      config: publicRead,
    },
    (request) => {
      const type = request.params.type;
      if (type !== "monthly" && type !== "yearly" && type !== "all-time") {
        throw new AppError("not_found", { message: "Leaderboard not found." });
      }
      return rankings.getLeaderboard(type);
    },
  );

  app.get(
    "/v1/statistics/:platform/:timeframe",
    {
      schema: {
        tags,
        summary: "Counts by kind, type, severity and patch status, the monthly trend and the top researchers",
        description: "timeframe: all-time, last-30-days or a year such as 2024.",
        params: z.object({ platform: z.string(), timeframe: z.string() }),
        response: { 200: Statistics },
      },
      config: publicRead,
    },
    (request) => rankings.getStatistics(request.params.platform, request.params.timeframe),
  );

  app.post(
    "/v1/check",
    {
      schema: {
        tags,
        summary: "Which known vulnerabilities affect each of up to 500 installed versions",
        body: CheckRequest,
        response: { 200: CheckResponse },
      },
      config: { access: "public", csrfOnlyWithSession: true },
    },
    // The service assembles the JSON itself from entries encoded once per data version, in the shape
    // of CheckResponse (routes.test.ts); Fastify sends a Buffer as it is.
    async (request, reply) => {
      const body = await vulnerabilities.checkVersions(request.body);
      return reply.type("application/json; charset=utf-8").send(body as unknown as CheckResponse);
    },
  );
};
