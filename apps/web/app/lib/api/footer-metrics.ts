import { FOOTER_METRICS_MAX_AGE_SECONDS, type FooterMetrics } from "@pressguard/domain";
import { queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "./request.ts";

/** Spec §4, §9: footer metrics are cached for one day. */
export const FOOTER_METRICS_CACHE_MS = FOOTER_METRICS_MAX_AGE_SECONDS * 1000;
const FOOTER_METRICS_PATH = "/public/footer/metrics";

async function getFooterMetrics(
  client: ApiClient,
  options: { timeout?: number; retry?: number; signal?: AbortSignal } = {},
): Promise<FooterMetrics> {
  // The schema (and zod) is fetched with the answer: the server-rendered metrics usually make this
  // request unnecessary, and a page's first load carries no validator (issue 35).
  const [body, schemas] = await Promise.all([
    client.request(FOOTER_METRICS_PATH, options),
    import("./footer-metrics-schema.ts"),
  ]);
  return schemas.FooterMetrics.parse(body);
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
