import type { PublicConfig } from "@pressguard/domain";
import { useMemo } from "react";
import { type Identity, identityErrorHandler, useIdentity } from "../identity.ts";
import { usePublicConfig } from "../public-config.ts";
import { type ApiClient, createApiClient } from "./request.ts";

/**
 * The request wrapper in the browser: relative API base, the browser's own cookies. With the
 * identity, a 401 on a later answer clears it and goes to the login target (spec §4). The auth
 * client configuration comes checked by the server (`getRequestContext`).
 */
function createBrowserApiClient(publicConfig: PublicConfig, identity?: Identity): ApiClient {
  const auth = publicConfig.auth;
  return createApiClient({
    baseUrl: publicConfig.apiBase,
    auth,
    ...(identity && { onError: identityErrorHandler(auth, identity) }),
  });
}

/** One client per public config (that is, one per page load). */
export function useApiClient(): ApiClient {
  const publicConfig = usePublicConfig();
  const identity = useIdentity();
  return useMemo(() => createBrowserApiClient(publicConfig, identity), [publicConfig, identity]);
}
