import { data, isRouteErrorResponse } from "react-router";

/**
 * Token mode with the token in localStorage (decision 021): the server cannot see the token on a
 * full page load, so a page that needs a signed-in visitor cannot tell "anonymous" from "not known
 * yet". Its guard throws this answer instead of the login redirect; the error screen shows a neutral
 * pending shell, and the browser settles the identity on hydration (`useSettleIdentity`).
 */
export interface IdentityPending {
  identityPending: true;
  /** Where an anonymous visitor goes: the login page with its way back, as the guard would send them. */
  loginPath: string;
}

export function identityPendingAnswer(loginPath: string) {
  return data<IdentityPending>({ identityPending: true, loginPath }, { status: 401 });
}

/** The pending answer caught by an error boundary, or null for any other error. */
export function identityPendingOf(error: unknown): IdentityPending | null {
  if (!isRouteErrorResponse(error) || error.status !== 401) return null;
  const body = error.data as Partial<IdentityPending> | null | undefined;
  if (body?.identityPending !== true || typeof body.loginPath !== "string") return null;
  return { identityPending: true, loginPath: body.loginPath };
}
