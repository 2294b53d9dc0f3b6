import type { AuthClientConfig } from "@pressguard/domain";
import { useEffect } from "react";
import { useRevalidator } from "react-router";
import { type ApiError, isApiError } from "./api/api-error.ts";
import { installPageDataToken } from "./api/page-data-token.ts";
import { readStoredToken } from "./api/token-storage.ts";
import { reportError } from "./error-reporting.ts";
import { useRootLoaderData } from "./public-config.ts";
import type { SessionUser } from "./session-user.ts";

export interface Identity {
  user: SessionUser | null;
}

/**
 * The browser's identity: set from the root loader at first page load (spec §4), cleared by
 * sign-out or by a 401 on a later answer.
 */
let browserIdentity: Identity | null = null;
/** The root loader's last answer: the identity follows it when the root loader runs again. */
let lastRootUser: SessionUser | null | undefined;

export function identityOf(initial: SessionUser | null): Identity {
  // During server rendering module state would be shared between visitors: never keep it there.
  if (typeof window === "undefined") return { user: initial };
  browserIdentity ??= { user: initial };
  // The root loader runs again only to settle an identity the server could not see (decision 021).
  if (lastRootUser !== undefined && initial !== lastRootUser) browserIdentity.user = initial;
  lastRootUser = initial;
  return browserIdentity;
}

/** True while the browser asks the server again, with the token, who the visitor is. */
let resolvingIdentity = false;
/** The identity is settled once per page load: later page-data requests carry the token anyway. */
let settleStarted = false;

/** The root's `shouldRevalidate`: the root loader runs again only to settle the identity. */
export function isResolvingIdentity(): boolean {
  return resolvingIdentity;
}

/**
 * Decision 021 (token in localStorage): the server rendered this page without knowing the visitor
 * (`pending`). With a stored token, every loader runs again once hydrated — now with the token
 * (`page-data-token.ts`) — so that identity, guards and page data are the visitor's. Used by the
 * root and by the pending shell (an error boundary, where the root's component is not rendered).
 */
export function useSettleIdentity(pending: boolean): void {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!pending || settleStarted || !readStoredToken("localStorage")) return;
    settleStarted = true;
    // The root installs it too, but a page whose error boundary is the root's never renders the root.
    installPageDataToken();
    resolvingIdentity = true;
    void revalidator.revalidate().finally(() => {
      resolvingIdentity = false;
    });
  }, [pending, revalidator]);
}

export function useIdentity(): Identity {
  return identityOf(useRootLoaderData()?.user ?? null);
}

/**
 * Spec §4: a 401 on any answer after the first load clears the identity and, when configured,
 * goes to the login target. Every error is reported as usual (4xx are skipped by the reporter).
 */
export function identityErrorHandler(
  config: Pick<AuthClientConfig, "redirect" | "redirectIfUnauthenticated">,
  identity: Identity,
) {
  return (error: ApiError) => {
    reportError(error);
    if (!isApiError(error) || error.status !== 401 || identity.user === null) return;
    identity.user = null;
    const target = config.redirect.onAuthOnly;
    if (config.redirectIfUnauthenticated && target !== false) window.location.assign(target);
  };
}
