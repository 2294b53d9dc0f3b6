import { FOOTER_METRICS_MAX_AGE_SECONDS, FooterMetrics } from "@pressguard/domain";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { publicData } from "../../http/access.ts";
import { type ResponseStore, registerHttpCache } from "../../http/http-cache.ts";
import type { PageReads } from "../../http/page-reads.ts";
import type { FooterMetricsService } from "./service.ts";

export const productRoutes: FastifyPluginAsyncZod<{
  footerMetrics: FooterMetricsService;
  /** Public reads: registered here, answered in-process to server-rendered pages too. */
  reads: PageReads;
  responseStore?: ResponseStore;
}> = async (app, { footerMetrics, responseStore, reads }) => {
  // Every page asks for the footer: its answer is kept as bytes (per data version) with an ETag.
  registerHttpCache(app, responseStore);
  reads.get(
    app,
    "/public/footer/metrics",
    {
      schema: {
        tags: ["public"],
        summary: "Counters shown in the public footer",
        response: { 200: FooterMetrics },
      },
      config: { ...publicData, publicCacheSeconds: FOOTER_METRICS_MAX_AGE_SECONDS },
    },
    async () => footerMetrics.getFooterMetrics(),
  );
};
