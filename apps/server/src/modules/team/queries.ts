import type { SqlRunner } from "../../db/client.ts";

export interface SeatRow {
  user_id: number;
  role: "owner" | "admin" | "member";
}

export interface MemberRow extends SeatRow {
  name: string;
  email: string;
  joined_at: Date | string;
}

export interface InvitationRow {
  id: number;
  vendor_id: number;
  vendor_name: string;
  email: string;
  role: "admin" | "member";
  created_at: Date | string;
  expires_at: Date | string;
  accepted_at: Date | string | null;
  revoked_at: Date | string | null;
  expired: boolean;
}

const INVITATION_SELECT = `
  select i.id, i.vendor_id, v.vendor_name, i.email, i.role, i.created_at, i.expires_at, i.accepted_at,
         i.revoked_at, i.expires_at <= now() as expired
  from vendor_invitations i join vendors v on v.id = i.vendor_id`;

/** Seats and invitations of vendor organisations (issue 8). Every function takes the runner to use. */
export const teamQueries = {
  /**
   * Locks the organisation for one seat change: every change to its seats and invitations takes
   * this lock first, so concurrent changes run one after the other.
   */
  async lockVendor(tx: SqlRunner, vendorId: number) {
    const { rows } = await tx.query<{ id: number; vendor_name: string; plan: "free" | "premium" }>(
      "select id, vendor_name, plan from vendors where id = $1 for update",
      [vendorId],
    );
    return rows[0] ?? null;
  },

  async plainVendor(tx: SqlRunner, vendorId: number) {
    const { rows } = await tx.query<{ id: number; vendor_name: string; plan: "free" | "premium" }>(
      "select id, vendor_name, plan from vendors where id = $1",
      [vendorId],
    );
    return rows[0] ?? null;
  },

  async lockSeats(tx: SqlRunner, vendorId: number): Promise<SeatRow[]> {
    const { rows } = await tx.query<SeatRow>(
      "select user_id, role from vendor_members where vendor_id = $1 order by user_id for update",
      [vendorId],
    );
    return rows;
  },

  async listMembers(tx: SqlRunner, vendorId: number): Promise<MemberRow[]> {
    const { rows } = await tx.query<MemberRow>(
      `select vm.user_id, vm.role, u.name, u.email, vm.created_at as joined_at
       from vendor_members vm join users u on u.id = vm.user_id
       where vm.vendor_id = $1
       order by case vm.role when 'owner' then 0 when 'admin' then 1 else 2 end, vm.created_at, vm.user_id`,
      [vendorId],
    );
    return rows;
  },

  /** Invitations neither accepted nor revoked, expired ones included (they show, but take no seat). */
  async listOpenInvitations(tx: SqlRunner, vendorId: number): Promise<InvitationRow[]> {
    const { rows } = await tx.query<InvitationRow>(
      `${INVITATION_SELECT}
       where i.vendor_id = $1 and i.accepted_at is null and i.revoked_at is null
       order by i.created_at, i.id`,
      [vendorId],
    );
    return rows;
  },

  async seatOfUser(tx: SqlRunner, userId: number) {
    const { rows } = await tx.query<{ vendor_id: number; vendor_name: string; role: string }>(
      `select vm.vendor_id, v.vendor_name, vm.role from vendor_members vm join vendors v on v.id = vm.vendor_id
       where vm.user_id = $1 order by vm.created_at limit 1`,
      [userId],
    );
    return rows[0] ?? null;
  },

  async hasSeatByEmail(tx: SqlRunner, vendorId: number, email: string): Promise<boolean> {
    const { rows } = await tx.query(
      `select 1 from vendor_members vm join users u on u.id = vm.user_id
       where vm.vendor_id = $1 and u.email = $2`,
      [vendorId, email],
    );
    return rows.length > 0;
  },

  async userIdByEmail(tx: SqlRunner, email: string): Promise<number | null> {
    const { rows } = await tx.query<{ id: number }>("select id from users where email = $1", [email]);
    return rows[0]?.id ?? null;
  },

  async revokeOpenInvitationFor(tx: SqlRunner, vendorId: number, email: string) {
    await tx.query(
      `update vendor_invitations set revoked_at = now()
       where vendor_id = $1 and email = $2 and accepted_at is null and revoked_at is null`,
      [vendorId, email],
    );
  },

  async insertInvitation(
    tx: SqlRunner,
    invitation: {
      vendorId: number;
      email: string;
      role: "admin" | "member";
      tokenHash: string;
      invitedBy: number;
      lifetimeDays: number;
    },
  ): Promise<InvitationRow> {
    const { rows } = await tx.query<{ id: number }>(
      `insert into vendor_invitations (vendor_id, email, role, token_hash, invited_by, expires_at)
       values ($1, $2, $3, $4, $5, now() + make_interval(days => $6::int)) returning id`,
      [
        invitation.vendorId,
        invitation.email,
        invitation.role,
        invitation.tokenHash,
        invitation.invitedBy,
        invitation.lifetimeDays,
      ],
    );
    const { rows: found } = await tx.query<InvitationRow>(`${INVITATION_SELECT} where i.id = $1`, [
      rows[0]?.id,
    ]);
    const row = found[0];
    if (!row) throw new Error("the invitation just inserted is missing");
    return row;
  },

  /** False when the invitation is not an open one of this organisation. */
  async revokeInvitation(tx: SqlRunner, vendorId: number, invitationId: number): Promise<boolean> {
    const { rows } = await tx.query(
      `update vendor_invitations set revoked_at = now()
       where id = $1 and vendor_id = $2 and accepted_at is null and revoked_at is null returning id`,
      [invitationId, vendorId],
    );
    return rows.length > 0;
  },

  async findInvitation(tx: SqlRunner, tokenHash: string, lock = false): Promise<InvitationRow | null> {
    const { rows } = await tx.query<InvitationRow>(
      `${INVITATION_SELECT} where i.token_hash = $1${lock ? " for update of i" : ""}`,
      [tokenHash],
    );
    return rows[0] ?? null;
  },

  async markAccepted(tx: SqlRunner, invitationId: number, userId: number) {
    await tx.query("update vendor_invitations set accepted_at = now(), accepted_by = $2 where id = $1", [
      invitationId,
      userId,
    ]);
  },

  async insertSeat(tx: SqlRunner, vendorId: number, userId: number, role: string) {
    await tx.query("insert into vendor_members (vendor_id, user_id, role) values ($1, $2, $3)", [
      vendorId,
      userId,
      role,
    ]);
  },

  async setSeatRole(tx: SqlRunner, vendorId: number, userId: number, role: string) {
    await tx.query("update vendor_members set role = $3 where vendor_id = $1 and user_id = $2", [
      vendorId,
      userId,
      role,
    ]);
  },

  async deleteSeat(tx: SqlRunner, vendorId: number, userId: number) {
    await tx.query("delete from vendor_members where vendor_id = $1 and user_id = $2", [vendorId, userId]);
  },

  async memberById(tx: SqlRunner, vendorId: number, userId: number): Promise<MemberRow | null> {
    const { rows } = await tx.query<MemberRow>(
      `select vm.user_id, vm.role, u.name, u.email, vm.created_at as joined_at
       from vendor_members vm join users u on u.id = vm.user_id where vm.vendor_id = $1 and vm.user_id = $2`,
      [vendorId, userId],
    );
    return rows[0] ?? null;
  },
};
