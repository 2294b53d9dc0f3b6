import type { PublicConfig } from "@pressguard/domain";
import type { AppLoadContext } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { developmentPublicConfig } from "../request-context.server.ts";
import { loadFooterMetrics } from "./footer-metrics.server.ts";
import { FOOTER_METRICS_CACHE_MS } from "./footer-metrics.ts";

const publicConfig: PublicConfig = developmentPublicConfig("http://site.test");

/** Each test uses its own API origin: the cache is per origin and per process. */
function context(apiOrigin: string): AppLoadContext {
  return { publicConfig, apiOrigin };
}

/** A page request: each its own, as each page view is (the loaders of one share its reads). */
const page = () => new Request("http://site.test/database", { headers: { cookie: "session=secret" } });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("loadFooterMetrics", () => {
  it("fetches the metrics from the API origin without the visitor's cookies", async () => {
    const fetch = vi.fn(async () => Response.json({ active_vdp_directory_count: 12 }));
    vi.stubGlobal("fetch", fetch);
    const result = await loadFooterMetrics(page(), context("http://api-a.test"), () => 1_000);
    expect(result).toEqual({ metrics: { active_vdp_directory_count: 12 }, fetchedAt: 1_000 });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("http://api-a.test/api/public/footer/metrics");
    expect(new Headers(init.headers).get("cookie")).toBeNull();
  });

  it("reads the metrics in-process in the server that renders the page, never over HTTP (decision 038)", async () => {
    const fetch = vi.fn();
    vi.stubGlobal("fetch", fetch);
    const pageRead = vi.fn(async () => ({ active_vdp_directory_count: 7 }));
    const ctx = { ...context("http://api-in-process.test"), pageRead } as unknown as AppLoadContext;
    expect(await loadFooterMetrics(page(), ctx, () => 5)).toEqual({
      metrics: { active_vdp_directory_count: 7 },
      fetchedAt: 5,
    });
    expect(pageRead).toHaveBeenCalledWith("/public/footer/metrics", {}, undefined, undefined);
    expect(fetch).not.toHaveBeenCalled();
  });

  it("serves the cached metrics for one day, then asks again", async () => {
    let count = 1;
    const fetch = vi.fn(async () => Response.json({ active_vdp_directory_count: count++ }));
    vi.stubGlobal("fetch", fetch);
    const ctx = context("http://api-b.test");
    await loadFooterMetrics(page(), ctx, () => 0);
    const cached = await loadFooterMetrics(page(), ctx, () => FOOTER_METRICS_CACHE_MS - 1);
    expect(cached.metrics?.active_vdp_directory_count).toBe(1);
    expect(fetch).toHaveBeenCalledTimes(1);
    const fresh = await loadFooterMetrics(page(), ctx, () => FOOTER_METRICS_CACHE_MS);
    expect(fresh.metrics?.active_vdp_directory_count).toBe(2);
  });

  it("asks again at once when the public data version changes", async () => {
    let count = 1;
    const fetch = vi.fn(async () => Response.json({ active_vdp_directory_count: count++ }));
    vi.stubGlobal("fetch", fetch);
    const before: AppLoadContext = { ...context("http://api-v.test"), dataVersion: "1" };
    const after: AppLoadContext = { ...context("http://api-v.test"), dataVersion: "2" };
    await loadFooterMetrics(page(), before, () => 0);
    expect((await loadFooterMetrics(page(), before, () => 10)).metrics?.active_vdp_directory_count).toBe(1);
    expect((await loadFooterMetrics(page(), after, () => 20)).metrics?.active_vdp_directory_count).toBe(2);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it("only logs a failure and gives null, so the page still renders", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.spyOn(console, "error").mockImplementation(() => {});
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ status: "error", message: "down" }, { status: 503 })),
    );
    const result = await loadFooterMetrics(page(), context("http://api-c.test"), () => 0);
    expect(result).toEqual({ metrics: null, fetchedAt: null });
    expect(warn).toHaveBeenCalledWith("Footer metrics could not be loaded", "down");
  });

  it("rejects a malformed answer like a failure", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ active_vdp_directory_count: "many" })),
    );
    const result = await loadFooterMetrics(page(), context("http://api-d.test"), () => 0);
    expect(result.metrics).toBeNull();
  });
});
