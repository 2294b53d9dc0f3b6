import { useMemo } from "react";
import { setActivationModalShown } from "./activation-modal-flag.ts";
import { createAuthClient } from "./api/auth-client.ts";
import { createApiClient } from "./api/request.ts";
import { writeStoredToken } from "./api/token-storage.ts";
import { identityErrorHandler, useIdentity } from "./identity.ts";
import { usePublicConfig } from "./public-config.ts";
import type { SessionUser } from "./session-user.ts";

/**
 * Sign-in and sign-out for the pages. After either, the browser loads the next page in full, so
 * that the server renders it (guards, menus) with the new identity.
 *
 * Each sign-in switches the activation-modal flag on (spec §2 gives that to the root redirect, but
 * after a sign-in the server answers `/`, out of reach of the browser's storage; issue 19: once an
 * activation hid it, nothing showed the modal again, to any vendor of that browser).
 */
export function useAuth() {
  const publicConfig = usePublicConfig();
  const identity = useIdentity();
  return useMemo(() => {
    // Checked by the server (`getRequestContext`), which fails with the first missing option.
    const config = publicConfig.auth;
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
        if (user && !identity.user) setActivationModalShown(true);
        identity.user = user;
      },
      storeToken: (token) => writeStoredToken(config.tokenStorage ?? "cookie", token),
      location: () => ({ pathname: window.location.pathname, search: window.location.search }),
      navigate: (path) => window.location.assign(path),
    });
    const signInWith: typeof client.signInWith = async (path, body) => {
      await client.signInWith(path, body);
      setActivationModalShown(true);
    };
    return { api, client: { ...client, signInWith }, user: () => identity.user };
  }, [publicConfig, identity]);
}
