import type { AuthClientConfig } from "@pressguard/domain";
import { type ApiError, isApiError } from "./api/api-error.ts";
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

export function identityOf(initial: SessionUser | null): Identity {
  // During server rendering module state would be shared between visitors: never keep it there.
  if (typeof window === "undefined") return { user: initial };
  browserIdentity ??= { user: initial };
  return browserIdentity;
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
