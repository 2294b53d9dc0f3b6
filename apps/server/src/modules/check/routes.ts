import { CheckRequest, CheckResponse } from "@pressguard/domain";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { publicData } from "../../http/access.ts";
import { tags } from "../public-records/public-read.ts";
import type { CheckService } from "./service.ts";

/** What a batch check costs of the public API's rate limit; read before validation, so defensively. */
function checkCost(request: FastifyRequest): number {
  const items = (request.body as { items?: unknown } | null)?.items;
  return 1 + Math.floor((Array.isArray(items) ? items.length : 0) / 50);
}

/** The batch version check of the public database API (PRODUCT.md §6). */
export const checkRoutes: FastifyPluginAsyncZod<{ check: CheckService }> = async (app, { check }) => {
  app.post(
    "/v1/check",
    {
      schema: {
        tags,
        summary: "Which known vulnerabilities affect each of up to 500 installed versions",
        body: CheckRequest,
        response: { 200: CheckResponse },
      },
      // A batch weighs its items (decision 028): 1 + 1 per 50, so 500 items cost 11 requests' budget.
      config: { ...publicData, csrfOnlyWithSession: true, rateLimitCost: checkCost },
    },
    // The service assembles the JSON itself from entries encoded once per data version, in the shape
    // of CheckResponse (vulnerabilities/routes.test.ts); Fastify sends a Buffer as it is.
    async (request, reply) => {
      const body = await check.checkVersions(request.body);
      return reply.type("application/json; charset=utf-8").send(body as unknown as CheckResponse);
    },
  );
};
