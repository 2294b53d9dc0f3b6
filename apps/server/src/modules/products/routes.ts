import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { FooterMetricsService } from "./service.ts";

const FooterMetrics = z
  .object({ active_vdp_directory_count: z.number().int().nonnegative() })
  .meta({ id: "FooterMetrics" });

/** Spec §4/§9: footer metrics are cached for one day. */
const FOOTER_METRICS_MAX_AGE_SECONDS = 86_400;

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
