import { DatabaseCounts, Leaderboard, Statistics } from "@pressguard/domain";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../errors.ts";
import { type ResponseStore, registerHttpCache } from "../../http/http-cache.ts";
import type { PageReads } from "../../http/page-reads.ts";
import { publicRead, tags } from "../public-records/public-read.ts";
import type { RankingService } from "./service.ts";

/** Leaderboards and statistics of the public database API (PRODUCT.md §5, §6). */
export const rankingRoutes: FastifyPluginAsyncZod<{
  rankings: RankingService;
  /** Public reads: registered here, answered in-process to server-rendered pages too. */
  reads: PageReads;
  responseStore?: ResponseStore;
}> = async (app, { rankings, responseStore, reads }) => {
  registerHttpCache(app, responseStore);

  reads.get(
    app,
    "/v1/statistics/counts",
    {
      schema: { tags, summary: "Headline counts of the database", response: { 200: DatabaseCounts } },
      config: publicRead,
    },
    () => rankings.getDatabaseCounts(),
  );

  reads.get(
    app,
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

  reads.get(
    app,
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
};
