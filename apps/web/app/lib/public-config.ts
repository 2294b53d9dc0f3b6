import type { FooterMetrics, PublicConfig } from "@pressguard/domain";
import { useRouteLoaderData } from "react-router";
import type { SessionUser } from "./session-user.ts";

/** What the root loader returns (see `root.tsx`). */
export interface RootLoaderData {
  publicConfig: PublicConfig;
  footerMetrics: FooterMetrics | null;
  /** When the server read the metrics (ms since epoch), so the browser cache ages them right. */
  footerMetricsFetchedAt: number | null;
  /** The identity, loaded once at first page load (spec §4); null when anonymous. */
  user: SessionUser | null;
  /**
   * The server could not see who this is (token in localStorage, decision 021): the browser asks
   * again with the token once it has hydrated.
   */
  identityPending: boolean;
}

export function useRootLoaderData(): RootLoaderData | undefined {
  return useRouteLoaderData("root") as RootLoaderData | undefined;
}

/** The browser-safe configuration; the root loader always provides it. */
export function usePublicConfig(): PublicConfig {
  const data = useRootLoaderData();
  if (!data) throw new Error("The root loader data is missing: usePublicConfig needs the root route");
  return data.publicConfig;
}
