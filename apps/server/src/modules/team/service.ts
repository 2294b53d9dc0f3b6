import {
  INVITATION_LIFETIME_DAYS,
  type InvitationAccountInput,
  type InvitationPreview,
  maskEmail,
  type SeatInvitationInput,
  type SessionUser,
  type SubscriptionPlan,
  seatLimitOf,
  subscriptionPlanOf,
  type Team,
  type TeamInvitation,
  type TeamMember,
  type VendorRole,
} from "@pressguard/domain";
import type { Database, SqlRunner } from "../../db/client.ts";
import { isoOf } from "../../db/timestamps.ts";
import { AppError } from "../../errors.ts";
import { CAPABILITY_MESSAGES, type ClientInfo } from "../../http/access.ts";
import type { Mailer } from "../../mail/outbox.ts";
import { hashPassword, normaliseEmail, randomToken, sha256 } from "../auth/credentials.ts";
import type { AuthService } from "../auth/service.ts";
import { type InvitationRow, type MemberRow, teamQueries as q, type SeatRow } from "./queries.ts";

export const TEAM_MESSAGES = {
  memberNotFound: "This member is not in your organisation.",
  invitationNotFound: "This invitation is not open in your organisation.",
  alreadyMember: (email: string) => `${email} already holds a seat in your organisation.`,
  adminCannotTouchOwner: "Only the owner can change or remove the owner's seat.",
  keepOneOwner:
    "An organisation always keeps one owner: make another member the owner first (you then become an admin).",
  linkUnknown: "This invitation link is not valid. Ask the person who invited you for a new one.",
  linkUsed: "This invitation has already been used. Ask the person who invited you for a new one.",
  linkExpired: "This invitation has expired. Ask the person who invited you for a new one.",
  linkRevoked: "This invitation was withdrawn. Ask the person who invited you for a new one.",
  otherAddress: (masked: string) =>
    `This invitation was sent to ${masked}. Sign in with that address to accept it.`,
  alreadyHere: (vendor: string) => `You already hold a seat in ${vendor}.`,
  otherOrganisation: (vendor: string) =>
    `Your account already belongs to the vendor organisation ${vendor}, and an account belongs to one organisation only. Leave ${vendor} first, or accept with another address.`,
  accountExists: "An account exists for this address: sign in to accept the invitation.",
  ownerCannotLeave:
    "The owner cannot leave: make another member the owner first (you then become an admin and can leave).",
} as const;

export function seatLimitMessage(plan: SubscriptionPlan): string {
  const limit = seatLimitOf(plan);
  const upgrade = plan === "free" ? ` or upgrade to ${subscriptionPlanOf("premium").label}` : "";
  const steps =
    plan === "free" ? "Remove a member, revoke an invitation" : "Remove a member or revoke an invitation";
  return `Your plan has ${limit} seats and all are taken. ${steps}${upgrade}.`;
}

function memberOf(row: MemberRow): TeamMember {
  return {
    user_id: row.user_id,
    name: row.name,
    email: row.email,
    role: row.role,
    status: "active",
    joined_at: isoOf(row.joined_at),
  };
}

function invitationOf(row: InvitationRow): TeamInvitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status: row.expired ? "expired" : "invited",
    invited_at: isoOf(row.created_at),
    expires_at: isoOf(row.expires_at),
  };
}

function vendorIdOf(user: SessionUser): number {
  if (!user.vendor) throw new AppError("forbidden");
  return user.vendor.id;
}

/** Why a link cannot be used, or null when it is open. */
function closedLinkError(invitation: InvitationRow | null): AppError | null {
  if (!invitation) return new AppError("not_found", { message: TEAM_MESSAGES.linkUnknown });
  if (invitation.accepted_at) return new AppError("gone", { message: TEAM_MESSAGES.linkUsed });
  if (invitation.revoked_at) return new AppError("gone", { message: TEAM_MESSAGES.linkRevoked });
  if (invitation.expired) return new AppError("gone", { message: TEAM_MESSAGES.linkExpired });
  return null;
}

export interface TeamServiceOptions {
  database: Database;
  mailer: Mailer;
  auth: AuthService;
  appUrl: string;
}

/**
 * Seats of a vendor organisation (PRODUCT.md §4, issue 8): invitations by e-mail within the plan's
 * seat limit, roles, ownership transfer. Every change locks the organisation's row and seats in one
 * transaction, so concurrent requests cannot leave it without exactly one owner or over its limit.
 */
export function createTeamService({ database, mailer, auth, appUrl }: TeamServiceOptions) {
  /**
   * Runs `work` with the organisation and its seats locked; the caller's role is re-read under the
   * lock and must be owner or admin unless `anyRole` (a member leaving).
   */
  function withLockedTeam<T>(
    user: SessionUser,
    work: (
      tx: SqlRunner,
      team: { vendorId: number; plan: SubscriptionPlan; seats: SeatRow[]; caller: SeatRow },
    ) => Promise<T>,
    { anyRole = false } = {},
  ): Promise<T> {
    const vendorId = vendorIdOf(user);
    return database.sql.transaction(async (tx) => {
      const vendor = await q.lockVendor(tx, vendorId);
      const seats = await q.lockSeats(tx, vendorId);
      const caller = seats.find((seat) => seat.user_id === user.id);
      // The seat changed since the request was authenticated (removed or demoted meanwhile).
      if (!vendor || !caller || (caller.role === "member" && !anyRole))
        throw new AppError("forbidden", { message: CAPABILITY_MESSAGES["manage-vendor"] });
      return work(tx, { vendorId, plan: vendor.plan, seats, caller });
    });
  }

  function seatsTaken(seats: readonly unknown[], invitations: readonly InvitationRow[]) {
    return seats.length + invitations.filter((invitation) => !invitation.expired).length;
  }

  /** Checks an invitation link and locks it with its organisation, in that order (as every change does). */
  async function lockOpenInvitation(tx: SqlRunner, token: string) {
    const found = await q.findInvitation(tx, sha256(token));
    const closed = closedLinkError(found);
    if (closed || !found) throw closed;
    await q.lockVendor(tx, found.vendor_id);
    const invitation = await q.findInvitation(tx, sha256(token), true);
    const stillClosed = closedLinkError(invitation);
    if (stillClosed || !invitation) throw stillClosed;
    return invitation;
  }

  /** One organisation per account (PRODUCT.md §1): refuses a user who holds a seat anywhere. */
  async function requireNoSeat(tx: SqlRunner, userId: number, invitation: InvitationRow) {
    const seat = await q.seatOfUser(tx, userId);
    if (!seat) return;
    throw new AppError("conflict", {
      message:
        seat.vendor_id === invitation.vendor_id
          ? TEAM_MESSAGES.alreadyHere(seat.vendor_name)
          : TEAM_MESSAGES.otherOrganisation(seat.vendor_name),
    });
  }

  async function join(tx: SqlRunner, invitation: InvitationRow, userId: number) {
    await q.insertSeat(tx, invitation.vendor_id, userId, invitation.role);
    await q.markAccepted(tx, invitation.id, userId);
  }

  return {
    async listTeam(user: SessionUser): Promise<Team> {
      const vendorId = vendorIdOf(user);
      const vendor = await q.plainVendor(database.sql, vendorId);
      if (!vendor) throw new AppError("not_found");
      const [members, invitations] = await Promise.all([
        q.listMembers(database.sql, vendorId),
        q.listOpenInvitations(database.sql, vendorId),
      ]);
      return {
        members: members.map(memberOf),
        invitations: invitations.map(invitationOf),
        seats: { used: seatsTaken(members, invitations), limit: seatLimitOf(vendor.plan), plan: vendor.plan },
      };
    },

    async invite(user: SessionUser, input: SeatInvitationInput): Promise<TeamInvitation> {
      const email = normaliseEmail(input.email);
      const token = randomToken();
      const { invitation, vendorName } = await withLockedTeam(user, async (tx, { vendorId, plan, seats }) => {
        if (await q.hasSeatByEmail(tx, vendorId, email))
          throw new AppError("conflict", {
            message: TEAM_MESSAGES.alreadyMember(email),
            fieldErrors: { email: [TEAM_MESSAGES.alreadyMember(email)] },
          });
        // A new invitation to the same address replaces the open one (and frees its seat).
        await q.revokeOpenInvitationFor(tx, vendorId, email);
        const open = await q.listOpenInvitations(tx, vendorId);
        if (seatsTaken(seats, open) + 1 > seatLimitOf(plan))
          throw new AppError("conflict", { message: seatLimitMessage(plan) });
        const created = await q.insertInvitation(tx, {
          vendorId,
          email,
          role: input.role,
          tokenHash: sha256(token),
          invitedBy: user.id,
          lifetimeDays: INVITATION_LIFETIME_DAYS,
        });
        return { invitation: created, vendorName: created.vendor_name };
      });
      await mailer.enqueue(email, {
        template: "seat_invitation",
        inviterName: user.name,
        vendorName,
        role: invitation.role,
        expiresAt: isoOf(invitation.expires_at),
        url: `${appUrl}/vdp/invitations/${token}`,
      });
      return invitationOf(invitation);
    },

    async revokeInvitation(user: SessionUser, invitationId: number) {
      await withLockedTeam(user, async (tx, { vendorId }) => {
        if (!(await q.revokeInvitation(tx, vendorId, invitationId)))
          throw new AppError("not_found", { message: TEAM_MESSAGES.invitationNotFound });
      });
    },

    /** Sets a seat's role; `owner` hands the organisation on and makes the old owner an admin. */
    async changeRole(user: SessionUser, targetId: number, role: VendorRole): Promise<TeamMember> {
      return withLockedTeam(user, async (tx, { vendorId, seats, caller }) => {
        const target = seats.find((seat) => seat.user_id === targetId);
        if (!target) throw new AppError("not_found", { message: TEAM_MESSAGES.memberNotFound });
        if (role === "owner") {
          if (caller.role !== "owner")
            throw new AppError("forbidden", { message: CAPABILITY_MESSAGES["transfer-ownership"] });
          if (target.user_id !== caller.user_id) {
            await q.setSeatRole(tx, vendorId, caller.user_id, "admin");
            await q.setSeatRole(tx, vendorId, target.user_id, "owner");
          }
        } else if (target.role === "owner") {
          if (caller.role !== "owner")
            throw new AppError("forbidden", { message: TEAM_MESSAGES.adminCannotTouchOwner });
          throw new AppError("conflict", { message: TEAM_MESSAGES.keepOneOwner });
        } else {
          await q.setSeatRole(tx, vendorId, target.user_id, role);
        }
        const member = await q.memberById(tx, vendorId, targetId);
        if (!member) throw new AppError("not_found", { message: TEAM_MESSAGES.memberNotFound });
        return memberOf(member);
      });
    },

    async removeMember(user: SessionUser, targetId: number) {
      await withLockedTeam(user, async (tx, { vendorId, seats, caller }) => {
        const target = seats.find((seat) => seat.user_id === targetId);
        if (!target) throw new AppError("not_found", { message: TEAM_MESSAGES.memberNotFound });
        if (target.role === "owner") {
          if (caller.role !== "owner")
            throw new AppError("forbidden", { message: TEAM_MESSAGES.adminCannotTouchOwner });
          throw new AppError("conflict", { message: TEAM_MESSAGES.keepOneOwner });
        }
        await q.deleteSeat(tx, vendorId, targetId);
      });
    },

    /** The caller gives up their own seat; the owner must hand the organisation on first. */
    async leave(user: SessionUser) {
      await withLockedTeam(
        user,
        async (tx, { vendorId, caller }) => {
          if (caller.role === "owner")
            throw new AppError("conflict", { message: TEAM_MESSAGES.ownerCannotLeave });
          await q.deleteSeat(tx, vendorId, caller.user_id);
        },
        { anyRole: true },
      );
    },

    async previewInvitation(token: string): Promise<InvitationPreview> {
      const invitation = await q.findInvitation(database.sql, sha256(token));
      const closed = closedLinkError(invitation);
      if (closed || !invitation) throw closed;
      return {
        vendor_name: invitation.vendor_name,
        role: invitation.role,
        email: maskEmail(invitation.email),
        expires_at: isoOf(invitation.expires_at),
        has_account: (await q.userIdByEmail(database.sql, invitation.email)) !== null,
      };
    },

    /** A signed-in user whose address the invitation was sent to takes the seat. */
    async accept(user: SessionUser, token: string): Promise<SessionUser> {
      await database.sql.transaction(async (tx) => {
        const invitation = await lockOpenInvitation(tx, token);
        if (normaliseEmail(user.email) !== invitation.email)
          throw new AppError("forbidden", {
            message: TEAM_MESSAGES.otherAddress(maskEmail(invitation.email)),
          });
        await requireNoSeat(tx, user.id, invitation);
        await join(tx, invitation, user.id);
      });
      return auth.getSessionUser(user.id);
    },

    /**
     * A visitor without an account creates one with the invited address, verified (the link proved
     * it), takes the seat and is signed in.
     */
    /** `mode`: a session (cookie mode) or a personal access token (token mode), as sign-in issues them. */
    async acceptWithNewAccount(
      token: string,
      input: InvitationAccountInput,
      client: ClientInfo,
      mode: "session" | "token" = "session",
    ) {
      const passwordHash = await hashPassword(input.password);
      const userId = await database.sql.transaction(async (tx) => {
        const invitation = await lockOpenInvitation(tx, token);
        const id = await auth.queries.createUser(
          { name: input.name.trim(), email: invitation.email, passwordHash, verified: true },
          tx,
        );
        if (id === null) throw new AppError("conflict", { message: TEAM_MESSAGES.accountExists });
        await join(tx, invitation, id);
        return id;
      });
      return auth.signInUser(userId, client, mode);
    },
  };
}

export type TeamService = ReturnType<typeof createTeamService>;
