import type { PublicConfig } from "@pressguard/domain";
import { useMemo } from "react";
import { usePublicConfig } from "../public-config.ts";
import { parseAuthClientConfig } from "./auth-config.ts";
import { type ApiClient, createApiClient } from "./request.ts";

/** The request wrapper in the browser: relative API base, the browser's own cookies. */
export function createBrowserApiClient(publicConfig: PublicConfig): ApiClient {
  return createApiClient({ baseUrl: publicConfig.apiBase, auth: parseAuthClientConfig(publicConfig.auth) });
}

/** One client per public config (that is, one per page load). */
export function useApiClient(): ApiClient {
  const publicConfig = usePublicConfig();
  return useMemo(() => createBrowserApiClient(publicConfig), [publicConfig]);
}
