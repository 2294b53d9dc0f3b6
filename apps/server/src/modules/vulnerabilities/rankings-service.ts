import { type Leaderboard, SEVERITIES, type Statistics, vulnerabilityTypeByCode } from "@pressguard/domain";
import { AppError } from "../../errors.ts";
import {
  type LeaderboardType,
  leaderboardPeriod,
  type RankingQueries,
  statisticsPeriod,
} from "./rankings.ts";
import { pagePaths } from "./service.ts";

const LEADERBOARD_SIZE = 100;
const TOP_RESEARCHERS = 10;
const KIND_LABELS: Record<string, string> = { plugin: "Plugin", theme: "Theme", core: "Core" };
const SEVERITY_LABELS = new Map<string, string>(
  SEVERITIES.map((severity) => [severity.value, severity.label]),
);

export function createRankingService(
  queries: RankingQueries,
  appUrl: string,
  now: () => Date = () => new Date(),
) {
  const withUrls = (rows: Awaited<ReturnType<RankingQueries["leaderboard"]>>) =>
    rows.map((row) => ({ ...row, url: appUrl + pagePaths.researcher(row.uuid) }));

  return {
    async getLeaderboard(type: LeaderboardType): Promise<Leaderboard> {
      const period = leaderboardPeriod(type, now());
      return {
        type,
        period: { from: period.from?.toISOString() ?? null, to: period.to?.toISOString() ?? null },
        data: withUrls(await queries.leaderboard(period, LEADERBOARD_SIZE)),
      };
    },

    async getStatistics(platform: string, timeframe: string): Promise<Statistics> {
      const period = platform === "wordpress" ? statisticsPeriod(timeframe, now()) : null;
      if (!period) throw new AppError("not_found", { message: "Statistics not found." });
      const stats = await queries.statistics(period);
      const top = await queries.leaderboard(period, TOP_RESEARCHERS);
      const total = stats.byKind.reduce((sum, row) => sum + row.count, 0);
      const patched = stats.byPatched.find((row) => row.key === "true")?.count ?? 0;
      return {
        platform,
        timeframe,
        total,
        by_kind: stats.byKind.map((row) => ({
          key: String(row.key),
          label: KIND_LABELS[String(row.key)] ?? String(row.key),
          count: row.count,
        })),
        by_type: stats.byType.map((row) => ({
          key: row.key === null ? "unknown" : String(row.key),
          label:
            (row.key === null ? undefined : vulnerabilityTypeByCode.get(Number(row.key))?.label) ?? "Unknown",
          count: row.count,
        })),
        by_severity: stats.bySeverity.map((row) => ({
          key: row.key === null ? "unknown" : String(row.key),
          label: SEVERITY_LABELS.get(String(row.key)) ?? "Unknown",
          count: row.count,
        })),
        patched: { patched, unpatched: total - patched },
        monthly: stats.trend.map(({ month, count, ...bySeverity }) => ({
          month,
          count,
          by_severity: bySeverity,
        })),
        top_researchers: withUrls(top),
      };
    },
  };
}

export type RankingService = ReturnType<typeof createRankingService>;
