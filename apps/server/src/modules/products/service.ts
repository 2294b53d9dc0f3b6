import type { FooterMetrics } from "@pressguard/domain";
import type { Database } from "../../db/client.ts";
import { type ProductQueries, prepareProductQueries } from "./queries.ts";

/**
 * The footer metrics change slowly and are read on every public page: one shared in-process copy,
 * refreshed at most every `ttlMs`, with a single query in flight however many requests wait.
 */
export function createFooterMetricsService(
  options: {
    ttlMs?: number;
    now?: () => number;
    /** The public data version (decision 005): a new version makes the copy stale at once. */
    dataVersion?: () => string;
  } & ({ database: Database } | { queries: ProductQueries }),
) {
  const { ttlMs = 60_000, now = Date.now, dataVersion = () => "" } = options;
  const queries = "queries" in options ? options.queries : prepareProductQueries(options.database.read);
  let cached: { value: FooterMetrics; at: number; version: string } | null = null;
  let inFlight: Promise<FooterMetrics> | null = null;

  return {
    async getFooterMetrics(): Promise<FooterMetrics> {
      const version = dataVersion();
      if (cached && cached.version === version && now() - cached.at < ttlMs) return cached.value;
      inFlight ??= queries
        .countActivePrograms()
        .then((count) => {
          cached = { value: { active_vdp_directory_count: count }, at: now(), version };
          return cached.value;
        })
        .finally(() => {
          inFlight = null;
        });
      return inFlight;
    },
    invalidate() {
      cached = null;
    },
  };
}

export type FooterMetricsService = ReturnType<typeof createFooterMetricsService>;
