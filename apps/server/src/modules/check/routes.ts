import { CheckRequest, CheckResponse } from "@pressguard/domain";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { tags } from "../vulnerabilities/public-read.ts";
import type { CheckService } from "./service.ts";

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
      config: { access: "public", csrfOnlyWithSession: true },
    },
    // The service assembles the JSON itself from entries encoded once per data version, in the shape
    // of CheckResponse (vulnerabilities/routes.test.ts); Fastify sends a Buffer as it is.
    async (request, reply) => {
      const body = await check.checkVersions(request.body);
      return reply.type("application/json; charset=utf-8").send(body as unknown as CheckResponse);
    },
  );
};
