import type { Capability, UserRole } from "@pressguard/domain";

/**
 * Route `handle` metadata. Guards (spec §6) are declared by name on each route module, so that
 * the accounts work can enforce them in one place; until then they describe, they do not block.
 */
export const GUARD_NAMES = [
  "auth-researcher",
  "auth-vendor",
  "auth-user",
  "guest-researcher",
  "guest-vendor",
  "is-vendor-active",
  "check-token-vendor",
  "check-token-researcher",
  "capability",
  "user-role",
] as const;
export type GuardName = (typeof GUARD_NAMES)[number];

/** Which top menu a page under the shared `base` layout shows. */
type MenuName = "public" | "researcher" | "watchlists";

export interface RouteHandle {
  guards?: readonly GuardName[];
  menu?: MenuName;
  /** Who passes the `user-role` guard: vendor seat roles and/or `staff` (required with that guard). */
  userRoles?: readonly UserRole[];
  /** What the `capability` guard asks for (required with that guard); see `hasCapability`. */
  capability?: Capability;
}

/** The handles of the current matches, outermost first, merged: guards add up, the deepest menu wins. */
export function mergeHandles(handles: readonly unknown[]): Required<Pick<RouteHandle, "guards" | "menu">> {
  const guards: GuardName[] = [];
  let menu: MenuName = "public";
  for (const handle of handles) {
    if (!handle || typeof handle !== "object") continue;
    const { guards: routeGuards, menu: routeMenu } = handle as RouteHandle;
    for (const guard of routeGuards ?? []) if (!guards.includes(guard)) guards.push(guard);
    if (routeMenu) menu = routeMenu;
  }
  return { guards, menu };
}

/**
 * A reading page of the public database is sent without the client bundle (decision 007): its
 * route module exports `handle = STATIC_PAGE`. React and the router alone weigh more than the
 * 100 KB of JavaScript issue 5 allows such a page, and these pages work without JavaScript.
 */
export const STATIC_PAGE = { hydrate: false } as const;

/** Whether any of the current matches asks to be sent without JavaScript. */
export function isStaticPage(handles: readonly unknown[]): boolean {
  return handles.some(
    (handle) =>
      typeof handle === "object" && handle !== null && (handle as { hydrate?: unknown }).hydrate === false,
  );
}
