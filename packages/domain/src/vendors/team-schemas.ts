import { z } from "zod";
import { EMAIL_MESSAGE, requiredText } from "../schemas/fields.ts";
import { NewPassword } from "../schemas/password.ts";
import { SubscriptionPlan } from "./subscription.ts";
import { VENDOR_ROLES } from "./team.ts";

/**
 * A seat's role as the API takes it (`VENDOR_ROLES`, team.ts). Here, not beside the table, so that
 * the pages' menus, which read the table, load no zod (issue 35).
 */
export const VendorRole = z.enum(VENDOR_ROLES.map((role) => role.value) as [VendorRole, ...VendorRole[]], {
  error: "Role must be owner, admin or member.",
});
export type VendorRole = (typeof VENDOR_ROLES)[number]["value"];

/** How long an invitation link works (PRODUCT.md §4). */
export const INVITATION_LIFETIME_DAYS = 7;

/** The roles an invitation can give: ownership is handed on, never invited. */
export const InvitableRole = z.enum(["admin", "member"], { error: "Role must be admin or member." });
export type InvitableRole = z.infer<typeof InvitableRole>;

/** `POST /api/vendor/invitations`: who to invite to a seat, and as what. */
export const SeatInvitationInput = z.strictObject({
  email: z
    .string({ error: "The e-mail field is required." })
    .trim()
    .min(1, { error: "The e-mail field is required.", abort: true })
    .max(254)
    .pipe(z.email({ error: EMAIL_MESSAGE })),
  role: InvitableRole,
});
export type SeatInvitationInput = z.infer<typeof SeatInvitationInput>;

/** `PUT /api/vendor/members/:userId`: the seat's new role; `owner` hands the organisation on. */
export const SeatRoleInput = z.strictObject({ role: VendorRole });
export type SeatRoleInput = z.infer<typeof SeatRoleInput>;

/** Accepting an invitation without an account: the address is the invited one. */
export const InvitationAccountInput = z.strictObject({
  name: requiredText("The name field is required.")
    .max(100)
    // PostgreSQL refuses a NUL byte in text: control characters never belong in a name.
    .regex(/^\P{Cc}*$/u, "The name may not contain control characters."),
  password: NewPassword,
});
export type InvitationAccountInput = z.infer<typeof InvitationAccountInput>;

export const TeamMember = z
  .object({
    user_id: z.number().int(),
    name: z.string(),
    email: z.string(),
    role: VendorRole,
    status: z.literal("active"),
    joined_at: z.string(),
  })
  .meta({ id: "TeamMember" });
export type TeamMember = z.infer<typeof TeamMember>;

export const TeamInvitation = z
  .object({
    id: z.number().int(),
    email: z.string(),
    role: InvitableRole,
    /** `expired` invitations no longer take a seat; revoke or invite again. */
    status: z.enum(["invited", "expired"]),
    invited_at: z.string(),
    expires_at: z.string(),
  })
  .meta({ id: "TeamInvitation" });
export type TeamInvitation = z.infer<typeof TeamInvitation>;

export const SeatUsage = z
  .object({ used: z.number().int(), limit: z.number().int(), plan: SubscriptionPlan })
  .meta({ id: "SeatUsage" });
export type SeatUsage = z.infer<typeof SeatUsage>;

/** `GET /api/vendor/members`: every seat, the open invitations and the plan's seat usage. */
export const Team = z
  .object({ members: z.array(TeamMember), invitations: z.array(TeamInvitation), seats: SeatUsage })
  .meta({ id: "Team" });
export type Team = z.infer<typeof Team>;

/** `GET /api/invitations/:token`: what the link offers, for the page that accepts it. */
export const InvitationPreview = z
  .object({
    vendor_name: z.string(),
    role: InvitableRole,
    /** The invited address, partly masked (the link may have been forwarded). */
    email: z.string(),
    expires_at: z.string(),
    /** An account exists for the address: sign in, then accept; otherwise create one here. */
    has_account: z.boolean(),
  })
  .meta({ id: "InvitationPreview" });
export type InvitationPreview = z.infer<typeof InvitationPreview>;

export const SeatRoleLabels: Record<VendorRole, string> = {
  owner: "Owner",
  admin: "Admin",
  member: "Member",
};

/** `jane.doe@example.com` → `ja***@example.com`: enough to recognise, not to harvest. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at < 1) return email;
  const shown = email.slice(0, Math.min(2, at - 1) || 1);
  return `${shown}***${email.slice(at)}`;
}
