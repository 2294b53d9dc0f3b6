import { DuplicateCandidates } from "@pressguard/domain";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { reportIdOf } from "./report-context.ts";
import { ReportIdParams } from "./schemas.ts";
import type { ReportService } from "./service.ts";

/** Duplicate detection (issue 19): a report's possible originals, for staff. */
export const duplicateRoutes: FastifyPluginAsyncZod<{ reports: ReportService }> = async (
  app,
  { reports },
) => {
  app.get(
    "/staff/reports/:id/duplicate-candidates",
    {
      schema: {
        tags: ["staff"],
        summary:
          "A report's possible duplicates: the product's published records and other reports, same type and overlapping versions first",
        params: ReportIdParams,
        response: { 200: DuplicateCandidates },
      },
      config: { access: "staff" },
    },
    (request) => reports.listDuplicateCandidates(reportIdOf(request.params.id)),
  );
};
