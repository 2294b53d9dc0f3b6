import {
  type DatabaseCounts,
  type Leaderboard,
  SEVERITIES,
  type Statistics,
  vulnerabilityTypeByCode,
} from "@pressguard/domain";
import type { Database } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { iso, pagePaths } from "../public-records/presenters.ts";
import { type LeaderboardType, leaderboardPeriod, statisticsPeriod } from "./periods.ts";
import { createRankingQueries, type RankingQueries } from "./queries.ts";

const LEADERBOARD_SIZE = 100;
const TOP_RESEARCHERS = 10;
const KIND_LABELS: Record<string, string> = { plugin: "Plugin", theme: "Theme", core: "Core" };
const SEVERITY_LABELS = new Map<string, string>(
  SEVERITIES.map((severity) => [severity.value, severity.label]),
);

const COUNTS_TTL_MS = 60_000;

type RankingServiceOptions = {
  appUrl: string;
  now?: () => number;
  /** The public data version: the headline counts are read again as soon as it moves. */
  dataVersion?: () => string;
} & ({ database: Database } | { queries: RankingQueries });

/** Leaderboards, statistics over a period and the headline counts of the public database. */
export function createRankingService(options: RankingServiceOptions) {
  const { appUrl, now = Date.now, dataVersion = () => "" } = options;
  const queries = "queries" in options ? options.queries : createRankingQueries(options.database.sql);
  const today = () => new Date(now());
  const withUrls = (rows: Awaited<ReturnType<RankingQueries["leaderboard"]>>) =>
    rows.map((row) => ({ ...row, url: appUrl + pagePaths.researcher(row.uuid) }));

  let countsCache: { value: DatabaseCounts; at: number; version: string } | null = null;
  let countsInFlight: { version: string; value: Promise<DatabaseCounts> } | null = null;
  async function readDatabaseCounts(): Promise<DatabaseCounts> {
    const row = await queries.databaseCounts();
    return {
      vulnerabilities: row.vulnerabilities,
      products: row.products,
      researchers: row.researchers,
      patched: row.patched,
      by_kind: { plugin: row.plugin, theme: row.theme, core: row.core },
      by_severity: {
        critical: row.critical,
        high: row.high,
        medium: row.medium,
        low: row.low,
        none: row.none,
      },
      updated_at: iso(row.updated_at),
    };
  }

  /**
   * Headline counts scan the whole table: one shared copy, refreshed at most once a minute, and at
   * once when the data version moves (a sync, an import or a publication). The public answer is kept
   * per data version by the response store: a copy older than the version would be kept as its answer.
   */
  async function getDatabaseCounts(): Promise<DatabaseCounts> {
    const version = dataVersion();
    if (countsCache && countsCache.version === version && now() - countsCache.at < COUNTS_TTL_MS)
      return countsCache.value;
    if (countsInFlight?.version !== version) {
      const inFlight = {
        version,
        value: readDatabaseCounts()
          .then((value) => {
            if (dataVersion() === version) countsCache = { value, at: now(), version };
            return value;
          })
          .finally(() => {
            if (countsInFlight === inFlight) countsInFlight = null;
          }),
      };
      countsInFlight = inFlight;
    }
    return countsInFlight.value;
  }

  return {
    async getLeaderboard(type: LeaderboardType): Promise<Leaderboard> {
      const period = leaderboardPeriod(type, today());
      return {
        type,
        period: { from: period.from?.toISOString() ?? null, to: period.to?.toISOString() ?? null },
        data: withUrls(await queries.leaderboard(period, LEADERBOARD_SIZE)),
      };
    },

    async getStatistics(platform: string, timeframe: string): Promise<Statistics> {
      const period = platform === "wordpress" ? statisticsPeriod(timeframe, today()) : null;
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
        years: stats.years,
      };
    },

    getDatabaseCounts,
  };
}

export type RankingService = ReturnType<typeof createRankingService>;
