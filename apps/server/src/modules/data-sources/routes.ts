import { DataSourceList, DataSourceSyncResult } from "@pressguard/domain";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { DataSourceService } from "./service.ts";

const staffOnly = { access: "staff" } as const;
const SourceParams = z.object({ source: z.string().max(40) });

/** The staff's data sources page (issue 34, decision 035): their state and "Sync now". */
export const dataSourceRoutes: FastifyPluginAsyncZod<{ dataSources: DataSourceService }> = async (
  app,
  { dataSources },
) => {
  const tags = ["staff"];

  app.get(
    "/staff/data-sources",
    {
      schema: {
        tags,
        summary:
          "Each upstream data source: configured or not, last success and attempt, the counts of its last run, its last error in words",
        response: { 200: DataSourceList },
      },
      config: staffOnly,
    },
    async () => ({ data: await dataSources.list() }),
  );

  app.post(
    "/staff/data-sources/:source/sync",
    {
      schema: {
        tags,
        summary:
          "Syncs one data source now (its schedule and back-off aside); 409 when it is not configured or a run is under way",
        params: SourceParams,
        response: { 200: DataSourceSyncResult },
      },
      config: staffOnly,
    },
    (request) => dataSources.syncNow(request.params.source),
  );
};
