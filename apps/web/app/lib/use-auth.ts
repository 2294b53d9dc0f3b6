import { useMemo } from "react";
import { createAuthClient } from "./api/auth-client.ts";
import { parseAuthClientConfig } from "./api/auth-config.ts";
import { createApiClient } from "./api/request.ts";
import { writeStoredToken } from "./api/token-storage.ts";
import { identityErrorHandler, useIdentity } from "./identity.ts";
import { usePublicConfig } from "./public-config.ts";
import type { SessionUser } from "./session-user.ts";

/**
 * Sign-in and sign-out for the pages. After either, the browser loads the next page in full, so
 * that the server renders it (guards, menus) with the new identity.
 */
export function useAuth() {
  const publicConfig = usePublicConfig();
  const identity = useIdentity();
  return useMemo(() => {
    const config = parseAuthClientConfig(publicConfig.auth);
    const api = createApiClient({
      baseUrl: publicConfig.apiBase,
      auth: config,
      onError: identityErrorHandler(config, identity),
    });
    const client = createAuthClient<SessionUser>({
      config,
      api,
      getUser: () => identity.user,
      setUser: (user) => {
        identity.user = user;
      },
      storeToken: (token) => writeStoredToken(config.tokenStorage ?? "cookie", token),
      location: () => ({ pathname: window.location.pathname, search: window.location.search }),
      navigate: (path) => window.location.assign(path),
    });
    return { api, client, user: () => identity.user };
  }, [publicConfig, identity]);
}
