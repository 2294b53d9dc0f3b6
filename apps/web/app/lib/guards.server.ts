import { hasCapability, hasUserRole } from "@pressguard/domain";
import { type AppLoadContext, redirect } from "react-router";
import { identityPendingAnswer } from "./identity-pending.ts";
import { hasLinkGrant } from "./link-grant.server.ts";
import { getRequestContext } from "./request-context.server.ts";
import type { GuardName, RouteHandle } from "./route-handle.ts";
import { getOptionalUser, isIdentityUnknown } from "./session.server.ts";
import {
  homePathFor,
  isResearcher,
  isStaff,
  isVendor,
  needsVendorSetup,
  programsPathFor,
  type SessionUser,
  STAFF_TWO_FACTOR_PATH,
  VENDOR_SETUP_PATH,
} from "./session-user.ts";

const RESEARCHER_LOGIN_PATH = "/researchers/login";
const VENDOR_LOGIN_PATH = "/vdp/login";

interface GuardArgs {
  request: Request;
  context: Partial<AppLoadContext> | undefined;
}

/** The account page a vendor seat without the owner/admin role is sent to (settings-tabs layout). */
const VENDOR_SETTINGS_PATH = "/vdp/account/settings";

/**
 * The vendor pages open while the vendor account is not set up: the set-up itself (no loop) and the
 * account pages (the same form, the password, sessions, seats). Signing out is an API call.
 */
function openBeforeVendorSetup(request: Request): boolean {
  const { pathname } = new URL(request.url);
  return pathname === VENDOR_SETUP_PATH || pathname.startsWith("/vdp/account/");
}

/** `/vdp/login?redirect=/vdp/reports/fixed`: the login page brings the visitor back afterwards. */
function loginRedirect(loginPath: string, request: Request): Response {
  const url = new URL(request.url);
  const back = `${url.pathname}${url.search}`;
  return redirect(`${loginPath}?${new URLSearchParams({ redirect: back })}`);
}

/**
 * An anonymous visitor of a page that needs a signed-in one goes to the login page, unless the
 * server cannot know who they are (token in localStorage, decision 021): then the page renders a
 * pending shell and the browser settles it, with the login page as the way out.
 */
function signInRequired(loginPath: string, { request, context }: GuardArgs): never {
  const login = loginRedirect(loginPath, request);
  if (isIdentityUnknown(request, context))
    throw identityPendingAnswer(login.headers.get("Location") ?? loginPath);
  throw login;
}

/** A signed-in visitor goes to the configured guest-only target (`/` by default: the root redirect). */
function guestOnly(user: SessionUser | null, { request, context }: GuardArgs) {
  if (!user) return;
  const target = getRequestContext(context, request).publicConfig.auth.redirect.onGuestOnly;
  if (target !== false) throw redirect(target);
}

/**
 * The named guards of spec §6 (and auth-user, issue 20), enforced on the server before a page renders (the API enforces
 * the same rules for its routes with their access levels). Each throws a redirect when it fails.
 * - auth-vendor / auth-researcher: signed in with that role; anonymous → that login page with
 *   `redirect`; signed in without the role → their own start page (root redirect rules). A vendor
 *   owner or admin whose vendor account is not set up yet → `/vdp/create-account`, but for the
 *   set-up and the account pages (issue 19: the set-up could be skipped for good).
 * - auth-user: signed in, whatever the roles (a site owner's watchlists, issue 20); anonymous → the
 *   vendor login, where every account signs in, with `redirect`.
 * - guest-vendor / guest-researcher: only for visitors who are not signed in; others → the
 *   configured `redirect.onGuestOnly` (`/`, the root redirect).
 * - is-vendor-active: the account set-up page, for a signed-in user with a vendor seat whose vendor
 *   account is not complete yet; no seat → their own start page; a complete account → the programs
 *   (decision 006).
 * - check-token-vendor / check-token-researcher: preview pages opened from a shared link carry a
 *   `token` query parameter, or once it is exchanged the link's grant cookie (issue 15; either is
 *   checked by the preview's own API call); without one the visitor must be signed in with that role.
 * - user-role: the user holds one of the route's `userRoles` (vendor seat roles owner/admin/member,
 *   or `staff`); anonymous → the vendor login (where staff sign in too) with `redirect`; a vendor
 *   without the role → the account settings; anyone else → their own start page.
 * - capability: the user holds the route's `capability` (the domain's `hasCapability`, the table the
 *   API's access hook reads too): `triage` is staff with the second factor (PRODUCT.md §7) — staff
 *   without it → `/staff/two-factor`; `manage-vendor` is a vendor owner or admin — others → the
 *   account settings.
 */
/** A preview link's `?token=`, or the grant cookie it was exchanged for (`lib/link-grant.server.ts`). */
function fromPreviewLink(request: Request): boolean {
  return Boolean(new URL(request.url).searchParams.get("token")) || hasLinkGrant(request);
}

const GUARDS: Record<GuardName, (user: SessionUser | null, args: GuardArgs, handle: RouteHandle) => void> = {
  "auth-vendor": (user, args) => {
    if (!user) signInRequired(VENDOR_LOGIN_PATH, args);
    if (!isVendor(user)) throw redirect(homePathFor(user));
    if (needsVendorSetup(user) && !openBeforeVendorSetup(args.request)) throw redirect(VENDOR_SETUP_PATH);
  },
  "auth-researcher": (user, args) => {
    if (!user) signInRequired(RESEARCHER_LOGIN_PATH, args);
    if (!isResearcher(user)) throw redirect(homePathFor(user));
  },
  "auth-user": (user, args) => {
    if (!user) signInRequired(VENDOR_LOGIN_PATH, args);
  },
  "guest-vendor": (user, args) => guestOnly(user, args),
  "guest-researcher": (user, args) => guestOnly(user, args),
  "is-vendor-active": (user, args) => {
    if (!user) signInRequired(VENDOR_LOGIN_PATH, args);
    if (!user.vendor) throw redirect(homePathFor(user));
    if (user.vendor.account_completed === true) throw redirect(programsPathFor(user.vendor.active_count));
  },
  "check-token-vendor": (user, args, handle) => {
    if (fromPreviewLink(args.request)) return;
    GUARDS["auth-vendor"](user, args, handle);
  },
  "check-token-researcher": (user, args, handle) => {
    if (fromPreviewLink(args.request)) return;
    GUARDS["auth-researcher"](user, args, handle);
  },
  capability: (user, args, { capability }) => {
    if (!capability) throw new Error("The capability guard needs the route's `capability`.");
    if (!user) signInRequired(VENDOR_LOGIN_PATH, args);
    if (hasCapability(user, capability)) return;
    if (capability === "triage" && isStaff(user)) throw redirect(STAFF_TWO_FACTOR_PATH);
    const vendorPage = capability !== "triage";
    throw redirect(vendorPage && isVendor(user) ? VENDOR_SETTINGS_PATH : homePathFor(user));
  },
  "user-role": (user, args, { userRoles }) => {
    if (!userRoles?.length) throw new Error("The user-role guard needs the route's `userRoles`.");
    if (!user) signInRequired(VENDOR_LOGIN_PATH, args);
    if (hasUserRole(user, userRoles)) return;
    const vendorPage = userRoles.some((role) => role !== "staff");
    throw redirect(vendorPage && isVendor(user) ? VENDOR_SETTINGS_PATH : homePathFor(user));
  },
};

/** Runs the handle's guards in order; returns the signed-in user (or null) when every guard passes. */
export async function enforceGuards(handle: RouteHandle, args: GuardArgs): Promise<SessionUser | null> {
  const user = await getOptionalUser(args.request, args.context);
  for (const guard of handle.guards ?? []) GUARDS[guard](user, args, handle);
  return user;
}

/** The loader of a page whose only server work is its guards (declared in its `handle`). */
export function guardedLoader(handle: RouteHandle) {
  return async (args: GuardArgs) => {
    await enforceGuards(handle, args);
    return null;
  };
}
