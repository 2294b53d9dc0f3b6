import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Database } from "../../db/client.ts";
import type { BuildInfo } from "../../http/web.ts";
import { pingDatabase } from "./queries.ts";

const LatestBuild = z.object({ id: z.string(), timestamp: z.number() });

/** Operational endpoints outside /api: the build the client polls (spec §7) and a health check. */
export const systemRoutes: FastifyPluginAsyncZod<{ buildInfo: BuildInfo; database: Database }> = async (
  app,
  { buildInfo, database },
) => {
  app.get(
    "/builds/latest.json",
    { schema: { hide: true, response: { 200: LatestBuild } } },
    async (_request, reply) => {
      reply.header("cache-control", "no-store");
      return buildInfo;
    },
  );

  app.get("/healthz", { schema: { hide: true } }, async (_request, reply) => {
    try {
      await pingDatabase(database.sql);
      return { status: "ok" };
    } catch {
      return reply.status(503).send({ status: "error", message: "database unavailable" });
    }
  });
};
