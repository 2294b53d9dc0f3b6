import type { ProductQueries } from "./queries.ts";

export interface FooterMetrics {
  active_vdp_directory_count: number;
}

/**
 * The footer metrics change slowly and are read on every public page: one shared in-process copy,
 * refreshed at most every `ttlMs`, with a single query in flight however many requests wait.
 */
export function createFooterMetricsService(queries: ProductQueries, ttlMs = 60_000, now = Date.now) {
  let cached: { value: FooterMetrics; at: number } | null = null;
  let inFlight: Promise<FooterMetrics> | null = null;

  return {
    async getFooterMetrics(): Promise<FooterMetrics> {
      if (cached && now() - cached.at < ttlMs) return cached.value;
      inFlight ??= queries
        .countActivePrograms()
        .then((count) => {
          cached = { value: { active_vdp_directory_count: count }, at: now() };
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
