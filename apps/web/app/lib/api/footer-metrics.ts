import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import type { ApiClient } from "./request.ts";

/** Spec §4, §9: footer metrics are cached for one day. */
export const FOOTER_METRICS_CACHE_MS = 86_400_000;
const FOOTER_METRICS_PATH = "/public/footer/metrics";

export const FooterMetrics = z.object({ active_vdp_directory_count: z.number().int().nonnegative() });
export type FooterMetrics = z.infer<typeof FooterMetrics>;

export async function getFooterMetrics(
  client: ApiClient,
  options: { timeout?: number; retry?: number; signal?: AbortSignal } = {},
): Promise<FooterMetrics> {
  return FooterMetrics.parse(await client.request(FOOTER_METRICS_PATH, options));
}

export function footerMetricsQueryOptions(client: ApiClient) {
  return queryOptions({
    queryKey: ["public", "footer-metrics"],
    queryFn: ({ signal }) => getFooterMetrics(client, { signal }),
    staleTime: FOOTER_METRICS_CACHE_MS,
    gcTime: FOOTER_METRICS_CACHE_MS,
    // The request wrapper already retries; a failure is only logged (spec §8).
    retry: false,
    refetchOnWindowFocus: false,
  });
}
