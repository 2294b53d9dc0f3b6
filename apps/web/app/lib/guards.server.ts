import { type AppLoadContext, redirect } from "react-router";
import { getRequestContext } from "./request-context.server.ts";
import type { GuardName, RouteHandle } from "./route-handle.ts";
import { getOptionalUser } from "./session.server.ts";
import {
  homePathFor,
  isResearcher,
  isStaff,
  isVendor,
  programsPathFor,
  type SessionUser,
  STAFF_TWO_FACTOR_PATH,
} from "./session-user.ts";

export const RESEARCHER_LOGIN_PATH = "/researchers/login";
export const VENDOR_LOGIN_PATH = "/vdp/login";

interface GuardArgs {
  request: Request;
  context: Partial<AppLoadContext> | undefined;
}

/** `/vdp/login?redirect=/vdp/reports/fixed`: the login page brings the visitor back afterwards. */
export function loginRedirect(loginPath: string, request: Request): Response {
  const url = new URL(request.url);
  const back = `${url.pathname}${url.search}`;
  return redirect(`${loginPath}?${new URLSearchParams({ redirect: back })}`);
}

/** A signed-in visitor goes to the configured guest-only target (`/` by default: the root redirect). */
function guestOnly(user: SessionUser | null, { request, context }: GuardArgs) {
  if (!user) return;
  const target = getRequestContext(context, request).publicConfig.auth.redirect.onGuestOnly;
  if (target !== false) throw redirect(target);
}

/**
 * The nine named guards of spec §6, enforced on the server before a page renders (the API enforces
 * the same rules for its routes with their access levels). Each throws a redirect when it fails.
 * - auth-vendor / auth-researcher: signed in with that role; anonymous → that login page with
 *   `redirect`; signed in without the role → their own start page (root redirect rules).
 * - guest-vendor / guest-researcher: only for visitors who are not signed in; others → the
 *   configured `redirect.onGuestOnly` (`/`, the root redirect).
 * - is-vendor-active: the account set-up page, for a signed-in user with a vendor seat whose vendor
 *   account is not complete yet; no seat → their own start page; a complete account → the programs
 *   (decision 006).
 * - check-token-vendor / check-token-researcher: preview pages opened from a shared link carry a
 *   `token` query parameter (checked by the preview's own API call); without it the visitor must be
 *   signed in with that role.
 * - user-role: platform staff (`is_staff`); anonymous → the vendor login (where staff sign in) with
 *   `redirect`; anyone else → their own start page.
 * - capability: staff holding the triage capability, which needs the second factor (PRODUCT.md §7,
 *   enforced by the API's `staff` access level too); staff without it → `/staff/two-factor`.
 */
const GUARDS: Record<GuardName, (user: SessionUser | null, args: GuardArgs) => void> = {
  "auth-vendor": (user, { request }) => {
    if (!user) throw loginRedirect(VENDOR_LOGIN_PATH, request);
    if (!isVendor(user)) throw redirect(homePathFor(user));
  },
  "auth-researcher": (user, { request }) => {
    if (!user) throw loginRedirect(RESEARCHER_LOGIN_PATH, request);
    if (!isResearcher(user)) throw redirect(homePathFor(user));
  },
  "guest-vendor": (user, args) => guestOnly(user, args),
  "guest-researcher": (user, args) => guestOnly(user, args),
  "is-vendor-active": (user, { request }) => {
    if (!user) throw loginRedirect(VENDOR_LOGIN_PATH, request);
    if (!user.vendor) throw redirect(homePathFor(user));
    if (user.vendor.account_completed === true) throw redirect(programsPathFor(user.vendor.active_count));
  },
  "check-token-vendor": (user, args) => {
    if (new URL(args.request.url).searchParams.get("token")) return;
    GUARDS["auth-vendor"](user, args);
  },
  "check-token-researcher": (user, args) => {
    if (new URL(args.request.url).searchParams.get("token")) return;
    GUARDS["auth-researcher"](user, args);
  },
  capability: (user, args) => {
    GUARDS["user-role"](user, args);
    if (user?.two_factor_enabled !== true) throw redirect(STAFF_TWO_FACTOR_PATH);
  },
  "user-role": (user, { request }) => {
    if (!user) throw loginRedirect(VENDOR_LOGIN_PATH, request);
    if (!isStaff(user)) throw redirect(homePathFor(user));
  },
};

/** Runs the guards in order; returns the signed-in user (or null) when every guard passes. */
export async function enforceGuards(
  guards: readonly GuardName[],
  args: GuardArgs,
): Promise<SessionUser | null> {
  const user = await getOptionalUser(args.request, args.context);
  for (const guard of guards) GUARDS[guard](user, args);
  return user;
}

/** The loader of a page whose only server work is its guards (declared in its `handle`). */
export function guardedLoader(handle: RouteHandle) {
  return async (args: GuardArgs) => {
    await enforceGuards(handle.guards ?? [], args);
    return null;
  };
}
