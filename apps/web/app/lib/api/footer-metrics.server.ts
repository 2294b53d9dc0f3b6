import { FooterMetrics } from "@pressguard/domain";
import type { AppLoadContext } from "react-router";
import { FOOTER_METRICS_CACHE_MS } from "./footer-metrics.ts";
import { readForPage } from "./page-read.server.ts";

/** A slow API must not hold every page back: SSR gives up early and the browser tries again. */
const SSR_TIMEOUT_MS = 2_000;
/** After a failure, SSR does not ask again for this long (the browser still does). */
const FAILURE_BACKOFF_MS = 60_000;

interface CacheEntry {
  /** The public data version the metrics were read under ("" when the server gives none). */
  version: string;
  metrics: FooterMetrics | null;
  fetchedAt: number;
  expiresAt: number;
}

/** Per process, per API origin: the metrics are public and the same for every visitor. */
const cache = new Map<string, CacheEntry>();
const pending = new Map<string, Promise<CacheEntry>>();

/**
 * The footer metrics for the root loader, cached one day (spec §4, §9). A failure is only logged
 * (spec §8) and gives null, so the footer renders without the count.
 */
export async function loadFooterMetrics(
  request: Request,
  context: Partial<AppLoadContext> | undefined,
  now: () => number = Date.now,
): Promise<{ metrics: FooterMetrics | null; fetchedAt: number | null }> {
  // One copy per API: the in-process one, or the API a bare context names.
  const key = context?.pageRead ? "" : (context?.apiOrigin ?? new URL(request.url).origin);
  const version = context?.dataVersion ?? "";
  const cached = cache.get(key);
  // A new public data version (an activation, an import) makes the copy stale at once.
  if (cached && cached.version === version && cached.expiresAt > now()) return toResult(cached);

  let inFlight = pending.get(key);
  if (!inFlight) {
    inFlight = fetchEntry(request, context, now, version).finally(() => pending.delete(key));
    pending.set(key, inFlight);
  }
  const entry = await inFlight;
  cache.set(key, entry);
  return toResult(entry);
}

async function fetchEntry(
  request: Request,
  context: Partial<AppLoadContext> | undefined,
  now: () => number,
  version: string,
): Promise<CacheEntry> {
  try {
    const metrics = FooterMetrics.parse(
      await readForPage({ request, context }, "/public/footer/metrics", {}, undefined, {
        timeout: SSR_TIMEOUT_MS,
      }),
    );
    const fetchedAt = now();
    return { version, metrics, fetchedAt, expiresAt: fetchedAt + FOOTER_METRICS_CACHE_MS };
  } catch (error) {
    console.warn("Footer metrics could not be loaded", error instanceof Error ? error.message : error);
    return { version, metrics: null, fetchedAt: now(), expiresAt: now() + FAILURE_BACKOFF_MS };
  }
}

function toResult(entry: CacheEntry) {
  return { metrics: entry.metrics, fetchedAt: entry.metrics ? entry.fetchedAt : null };
}
