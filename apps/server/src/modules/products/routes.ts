import { FOOTER_METRICS_MAX_AGE_SECONDS, FooterMetrics } from "@pressguard/domain";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { FooterMetricsService } from "./service.ts";

export const productRoutes: FastifyPluginAsyncZod<{ footerMetrics: FooterMetricsService }> = async (
  app,
  { footerMetrics },
) => {
  app.get(
    "/public/footer/metrics",
    {
      schema: {
        tags: ["public"],
        summary: "Counters shown in the public footer",
        response: { 200: FooterMetrics },
      },
      config: { access: "public" },
    },
    async (_request, reply) => {
      reply.header("cache-control", `public, max-age=${FOOTER_METRICS_MAX_AGE_SECONDS}`);
      return footerMetrics.getFooterMetrics();
    },
  );
};
