/**
 * A seat's role in a vendor organisation (PRODUCT.md §4): owners and admins manage seats,
 * subscription and forwarding; members handle reports. An organisation always keeps one owner.
 */
export const VENDOR_ROLES = [
  { value: "owner", label: "Owner", description: "Everything, and hands ownership on." },
  { value: "admin", label: "Admin", description: "Manages seats, subscription and report forwarding." },
  { value: "member", label: "Member", description: "Reads and handles reports." },
] as const;

/** A seat's role (its schema, `VendorRole`, is in team-schemas.ts). */
type SeatRole = (typeof VENDOR_ROLES)[number]["value"];

/**
 * What a signed-in user may do beyond their roles (spec §6 "capability" guard). One table, read by
 * the API's access hook and by the pages' route middleware, so they always agree.
 * - `manage-vendor`: seats, subscription and report forwarding — vendor owners and admins;
 * - `transfer-ownership`: hand the organisation to another member — the owner;
 * - `triage`: the staff area — staff with a confirmed second factor (PRODUCT.md §7).
 */
export const CAPABILITIES = ["manage-vendor", "transfer-ownership", "triage"] as const;
export type Capability = (typeof CAPABILITIES)[number];

/**
 * A user's roles for the spec §6 "user-role" guard: the vendor seat role (owner, admin, member)
 * and `staff` for the platform's triage team.
 */
export type UserRole = SeatRole | "staff";

/** The part of a signed-in user the two guards read (the `GET /api/user` body has it). */
export interface CapabilitySubject {
  is_staff?: boolean | undefined;
  two_factor_enabled?: boolean | undefined;
  vendor?: { role?: string | undefined } | null | undefined;
}

export function userRolesOf(user: CapabilitySubject): UserRole[] {
  const roles: UserRole[] = [];
  // The table, not the schema: the pages' menus read this, and need no validator for it (issue 35).
  const seat = VENDOR_ROLES.find((role) => role.value === user.vendor?.role);
  if (user.vendor && seat) roles.push(seat.value);
  if (user.is_staff === true) roles.push("staff");
  return roles;
}

export function hasUserRole(user: CapabilitySubject, allowed: readonly UserRole[]): boolean {
  return userRolesOf(user).some((role) => allowed.includes(role));
}

export function hasCapability(user: CapabilitySubject, capability: Capability): boolean {
  switch (capability) {
    case "manage-vendor":
      return hasUserRole(user, ["owner", "admin"]);
    case "transfer-ownership":
      return hasUserRole(user, ["owner"]);
    case "triage":
      return user.is_staff === true && user.two_factor_enabled === true;
  }
}
