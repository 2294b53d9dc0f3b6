// One file on purpose (issue 16): the seat limit, invitations and roles share the seat fixtures below.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiCaller, createApiCaller, registerUser, uniqueEmail } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";
import { createSessionSecret } from "../../test/staff.ts";
import { seatLimitMessage, TEAM_MESSAGES } from "./service.ts";

type Harness = Awaited<ReturnType<typeof createTestApp>>;
type Me = { id: number; email: string; email_verified: boolean; vendor: { id: number; role: string } | null };
type TeamBody = {
  members: { user_id: number; email: string; role: string; status: string }[];
  invitations: { id: number; email: string; role: string; status: string }[];
  seats: { used: number; limit: number; plan: string };
};
let harness: Harness;
let ipCounter = 0;

beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(() => harness.close());

const sql = (text: string, values: unknown[] = []) => harness.database.sql.query(text, values);

/** A new organisation: its owner's caller and ids. */
async function organisation(plan: "free" | "premium" = "free") {
  const owner = await registerUser(harness.app, { role: "vendor" });
  const me = (await owner.caller.get("/api/user")).json<Me>();
  const vendorId = me.vendor?.id ?? 0;
  if (plan === "premium") await sql("update vendors set plan = 'premium' where id = $1", [vendorId]);
  return { owner: owner.caller, ownerId: me.id, vendorId };
}

/** A signed-in caller for an existing user. */
async function callerFor(userId: number): Promise<ApiCaller> {
  ipCounter += 1;
  const caller = createApiCaller(harness.app, {
    ip: `10.77.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`,
  });
  caller.cookies.set("pressguard_session", (await createSessionSecret(harness.database, userId)).secret);
  return caller;
}

/** A seat given directly (the invitation flow is tested on its own). */
async function seat(vendorId: number, role: "admin" | "member") {
  const { user } = await registerUser(harness.app, { role: "researcher" });
  await sql("insert into vendor_members (vendor_id, user_id, role) values ($1, $2, $3)", [
    vendorId,
    user.id,
    role,
  ]);
  return { id: user.id, caller: await callerFor(user.id) };
}

async function invite(caller: ApiCaller, email: string, role: "admin" | "member" = "member") {
  return caller.post("/api/vendor/invitations", { email, role });
}

/** The secret of the newest invitation link mailed to `email`. */
async function mailedToken(email: string): Promise<string> {
  const { rows } = await sql(
    "select text_body from mail_outbox where to_address = $1 and template = 'seat_invitation' order by id desc limit 1",
    [email],
  );
  const text = (rows[0] as { text_body: string } | undefined)?.text_body ?? "";
  const token = /\/vdp\/invitations\/([A-Za-z0-9_-]+)/.exec(text)?.[1];
  if (!token) throw new Error(`no invitation mailed to ${email}`);
  return token;
}

function anonymous() {
  ipCounter += 1;
  return createApiCaller(harness.app, { ip: `10.78.${Math.floor(ipCounter / 250)}.${ipCounter % 250}` });
}
const team = async (caller: ApiCaller) => (await caller.get("/api/vendor/members")).json<TeamBody>();

describe("the seat limit", () => {
  it("lets a free organisation fill its 2 seats, then says what to do", async () => {
    const { owner } = await organisation();
    const first = await invite(owner, uniqueEmail("seat"));
    expect(first.statusCode, first.body).toBe(201);
    expect((await team(owner)).seats).toEqual({ used: 2, limit: 2, plan: "free" });

    const refused = await invite(owner, uniqueEmail("seat"));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      "Your plan has 2 seats and all are taken. Remove a member, revoke an invitation or upgrade to Paid.",
    );

    // Revoking the invitation frees its seat.
    expect(
      (await owner.delete(`/api/vendor/invitations/${first.json<{ id: number }>().id}`)).statusCode,
    ).toBe(204);
    expect((await invite(owner, uniqueEmail("seat"))).statusCode).toBe(201);
  });

  it("gives a premium organisation 20 seats", async () => {
    const { owner, vendorId } = await organisation("premium");
    await seat(vendorId, "member");
    for (let index = 0; index < 18; index += 1) {
      const response = await invite(owner, uniqueEmail("premium"));
      expect(response.statusCode, response.body).toBe(201);
    }
    expect((await team(owner)).seats).toEqual({ used: 20, limit: 20, plan: "premium" });
    const refused = await invite(owner, uniqueEmail("premium"));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(seatLimitMessage("premium"));
    expect(refused.json().message).toContain("Your plan has 20 seats and all are taken.");
  });

  it("fills the last seat once when two invitations race for it", async () => {
    const { owner, vendorId } = await organisation();
    const answers = await Promise.all([
      invite(owner, uniqueEmail("race")),
      invite(owner, uniqueEmail("race")),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    const { rows } = await sql(
      "select count(*)::int as n from vendor_invitations where vendor_id = $1 and revoked_at is null",
      [vendorId],
    );
    expect(rows[0]).toEqual({ n: 1 });
  });

  it("does not count an expired invitation", async () => {
    const { owner, vendorId } = await organisation();
    const email = uniqueEmail("stale");
    await invite(owner, email);
    await sql("update vendor_invitations set expires_at = now() - interval '1 minute' where vendor_id = $1", [
      vendorId,
    ]);
    const listed = await team(owner);
    expect(listed.seats.used).toBe(1);
    expect(listed.invitations.map((invitation) => invitation.status)).toEqual(["expired"]);
    expect((await invite(owner, uniqueEmail("fresh"))).statusCode).toBe(201);
  });
});

describe("invitations", () => {
  it("lists members and open invitations with their status", async () => {
    const { owner, ownerId } = await organisation("premium");
    const email = uniqueEmail("listed");
    await invite(owner, email, "admin");
    const listed = await team(owner);
    expect(listed.members).toEqual([
      expect.objectContaining({ user_id: ownerId, role: "owner", status: "active" }),
    ]);
    expect(listed.invitations).toEqual([
      expect.objectContaining({ email, role: "admin", status: "invited" }),
    ]);
  });

  it("creates a verified account for a new address, seats it and signs it in; the link works once", async () => {
    const { owner, vendorId } = await organisation();
    const email = uniqueEmail("newcomer");
    await invite(owner, email);
    const token = await mailedToken(email);

    const visitor = anonymous();
    const preview = await visitor.get(`/api/invitations/${token}`);
    expect(preview.statusCode).toBe(200);
    expect(preview.json()).toMatchObject({ role: "member", has_account: false });
    expect(preview.json<{ email: string }>().email).not.toBe(email);

    const created = await visitor.post(`/api/invitations/${token}/account`, {
      name: "New Colleague",
      password: "long enough password",
    });
    expect(created.statusCode, created.body).toBe(201);
    const me = (await visitor.get("/api/user")).json<Me>();
    expect(me).toMatchObject({ email, email_verified: true, vendor: { id: vendorId, role: "member" } });

    const again = await anonymous().post(`/api/invitations/${token}/account`, {
      name: "Someone Else",
      password: "long enough password",
    });
    expect(again.statusCode).toBe(410);
    expect(again.json().message).toBe(TEAM_MESSAGES.linkUsed);
    expect((await anonymous().get(`/api/invitations/${token}`)).statusCode).toBe(410);
    expect((await team(owner)).invitations).toEqual([]);
  });

  it("seats an existing signed-in account whose address was invited", async () => {
    const { owner, vendorId } = await organisation();
    const researcher = await registerUser(harness.app, { role: "researcher" });
    await invite(owner, researcher.email.toUpperCase(), "admin");
    const token = await mailedToken(researcher.email);
    expect((await anonymous().get(`/api/invitations/${token}`)).json()).toMatchObject({ has_account: true });

    const accepted = await researcher.caller.post(`/api/invitations/${token}/accept`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json<Me>().vendor).toMatchObject({ id: vendorId, role: "admin" });
    expect((await researcher.caller.post(`/api/invitations/${token}/accept`)).statusCode).toBe(410);
  });

  it("refuses to create a second account for an address that has one", async () => {
    const { owner } = await organisation();
    const researcher = await registerUser(harness.app, { role: "researcher" });
    await invite(owner, researcher.email);
    const refused = await anonymous().post(
      `/api/invitations/${await mailedToken(researcher.email)}/account`,
      {
        name: "Twin",
        password: "long enough password",
      },
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(TEAM_MESSAGES.accountExists);
  });

  it("refuses an invitation sent to another address, naming it masked", async () => {
    const { owner } = await organisation();
    const email = uniqueEmail("intended");
    await invite(owner, email);
    const stranger = await registerUser(harness.app, { role: "researcher" });
    const refused = await stranger.caller.post(`/api/invitations/${await mailedToken(email)}/accept`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/^This invitation was sent to in\*\*\*@example\.test\. Sign in/);
  });

  it("refuses a user who holds a seat in another organisation, at accept time", async () => {
    const { owner } = await organisation();
    const other = await registerUser(harness.app, { role: "vendor", name: "Other Vendor" });
    expect((await invite(owner, other.email)).statusCode).toBe(201);
    const refused = await other.caller.post(`/api/invitations/${await mailedToken(other.email)}/accept`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(TEAM_MESSAGES.otherOrganisation("Other Vendor"));
  });

  it("refuses to invite an address that already holds a seat here", async () => {
    const { owner, vendorId } = await organisation("premium");
    const member = await seat(vendorId, "member");
    const { rows } = await sql("select email from users where id = $1", [member.id]);
    const refused = await invite(owner, (rows[0] as { email: string }).email);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain("already holds a seat in your organisation");
  });

  it("answers 410 for an expired or revoked link and 404 for an unknown one", async () => {
    const { owner, vendorId } = await organisation("premium");
    const expiredEmail = uniqueEmail("expired");
    await invite(owner, expiredEmail);
    await sql("update vendor_invitations set expires_at = now() - interval '1 second' where email = $1", [
      expiredEmail,
    ]);
    const expired = await anonymous().post(`/api/invitations/${await mailedToken(expiredEmail)}/account`, {
      name: "Late",
      password: "long enough password",
    });
    expect(expired.statusCode).toBe(410);
    expect(expired.json().message).toBe(TEAM_MESSAGES.linkExpired);

    const revokedEmail = uniqueEmail("revoked");
    const created = await invite(owner, revokedEmail);
    await owner.delete(`/api/vendor/invitations/${created.json<{ id: number }>().id}`);
    const revoked = await anonymous().get(`/api/invitations/${await mailedToken(revokedEmail)}`);
    expect(revoked.statusCode).toBe(410);
    expect(revoked.json().message).toBe(TEAM_MESSAGES.linkRevoked);

    expect((await anonymous().get("/api/invitations/not-a-real-token")).statusCode).toBe(404);
    const { rows } = await sql("select count(*)::int as n from vendor_members where vendor_id = $1", [
      vendorId,
    ]);
    expect(rows[0]).toEqual({ n: 1 });
  });

  it("replaces the open invitation when the same address is invited again", async () => {
    const { owner } = await organisation();
    const email = uniqueEmail("twice");
    await invite(owner, email);
    const first = await mailedToken(email);
    expect((await invite(owner, email, "admin")).statusCode).toBe(201);
    const second = await mailedToken(email);
    expect(second).not.toBe(first);
    expect((await anonymous().get(`/api/invitations/${first}`)).statusCode).toBe(410);
    expect((await anonymous().get(`/api/invitations/${second}`)).json()).toMatchObject({ role: "admin" });
    expect((await team(owner)).seats.used).toBe(2);
  });

  it("mails the link in text and HTML", async () => {
    const { owner } = await organisation();
    const email = uniqueEmail("mailed");
    await invite(owner, email, "admin");
    const { rows } = await sql(
      "select subject, text_body, html_body from mail_outbox where to_address = $1 and template = 'seat_invitation'",
      [email],
    );
    const mail = rows[0] as { subject: string; text_body: string; html_body: string };
    expect(mail.subject).toMatch(/^Join /);
    expect(mail.text_body).toContain("as an admin");
    expect(mail.html_body).toContain("/vdp/invitations/");
  });
});

describe("roles", () => {
  it("lets owners and admins set admin or member", async () => {
    const { owner, vendorId } = await organisation("premium");
    const admin = await seat(vendorId, "admin");
    const member = await seat(vendorId, "member");
    const promoted = await owner.put(`/api/vendor/members/${member.id}`, { role: "admin" });
    expect(promoted.statusCode, promoted.body).toBe(200);
    expect(promoted.json()).toMatchObject({ user_id: member.id, role: "admin" });
    expect((await admin.caller.put(`/api/vendor/members/${member.id}`, { role: "member" })).statusCode).toBe(
      200,
    );
    // The member's next request sees the new role.
    expect((await member.caller.get("/api/user")).json<Me>().vendor?.role).toBe("member");
  });

  it("hands ownership on: the old owner becomes an admin", async () => {
    const { owner, ownerId, vendorId } = await organisation("premium");
    const admin = await seat(vendorId, "admin");
    const member = await seat(vendorId, "member");
    expect((await admin.caller.put(`/api/vendor/members/${member.id}`, { role: "owner" })).statusCode).toBe(
      403,
    );

    const transferred = await owner.put(`/api/vendor/members/${member.id}`, { role: "owner" });
    expect(transferred.statusCode, transferred.body).toBe(200);
    expect((await owner.get("/api/user")).json<Me>().vendor?.role).toBe("admin");
    expect((await member.caller.get("/api/user")).json<Me>().vendor?.role).toBe("owner");
    const roles = (await team(member.caller)).members.map((entry) => [entry.user_id, entry.role]);
    expect(roles).toEqual(
      expect.arrayContaining([
        [member.id, "owner"],
        [ownerId, "admin"],
        [admin.id, "admin"],
      ]),
    );
  });

  it("keeps exactly one owner when two transfers race", async () => {
    const { owner, vendorId } = await organisation("premium");
    const first = await seat(vendorId, "member");
    const second = await seat(vendorId, "member");
    const answers = await Promise.all([
      owner.put(`/api/vendor/members/${first.id}`, { role: "owner" }),
      owner.put(`/api/vendor/members/${second.id}`, { role: "owner" }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 403]);
    const { rows } = await sql(
      "select count(*)::int as n from vendor_members where vendor_id = $1 and role = 'owner'",
      [vendorId],
    );
    expect(rows[0]).toEqual({ n: 1 });
  });

  it("never leaves the organisation without its owner", async () => {
    const { owner, ownerId, vendorId } = await organisation("premium");
    const admin = await seat(vendorId, "admin");
    const demoted = await owner.put(`/api/vendor/members/${ownerId}`, { role: "admin" });
    expect(demoted.statusCode).toBe(409);
    expect(demoted.json().message).toBe(TEAM_MESSAGES.keepOneOwner);
    expect((await owner.delete(`/api/vendor/members/${ownerId}`)).statusCode).toBe(409);

    const byAdmin = await admin.caller.delete(`/api/vendor/members/${ownerId}`);
    expect(byAdmin.statusCode).toBe(403);
    expect(byAdmin.json().message).toBe(TEAM_MESSAGES.adminCannotTouchOwner);
    expect((await admin.caller.put(`/api/vendor/members/${ownerId}`, { role: "member" })).statusCode).toBe(
      403,
    );
    expect((await owner.get("/api/user")).json<Me>().vendor?.role).toBe("owner");
  });

  it("removes a member, whose next request has no seat", async () => {
    const { owner, vendorId } = await organisation("premium");
    const member = await seat(vendorId, "member");
    expect((await owner.delete(`/api/vendor/members/${member.id}`)).statusCode).toBe(204);
    expect((await member.caller.get("/api/user")).json<Me>().vendor).toBeNull();
    expect((await owner.delete(`/api/vendor/members/${member.id}`)).statusCode).toBe(404);
  });

  it("lets a member or an admin leave, but not the owner, who hands the organisation on first", async () => {
    const { owner, ownerId, vendorId } = await organisation("premium");
    const member = await seat(vendorId, "member");
    const admin = await seat(vendorId, "admin");
    expect((await member.caller.delete("/api/vendor/membership")).statusCode).toBe(204);
    expect((await member.caller.get("/api/user")).json<Me>().vendor).toBeNull();
    expect((await member.caller.delete("/api/vendor/membership")).statusCode).toBe(403);

    const refused = await owner.delete("/api/vendor/membership");
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ message: string }>().message).toBe(TEAM_MESSAGES.ownerCannotLeave);
    expect((await owner.put(`/api/vendor/members/${admin.id}`, { role: "owner" })).statusCode).toBe(200);
    expect((await owner.delete("/api/vendor/membership")).statusCode).toBe(204);
    const left = await team(admin.caller);
    expect(left.members.map((seat) => [seat.user_id, seat.role])).toEqual([[admin.id, "owner"]]);
    expect(left.members.some((seat) => seat.user_id === ownerId)).toBe(false);
  });

  it("answers 404 for another organisation's member or invitation", async () => {
    const mine = await organisation("premium");
    const theirs = await organisation("premium");
    const stranger = await seat(theirs.vendorId, "member");
    const theirInvitation = (await invite(theirs.owner, uniqueEmail("theirs"))).json<{ id: number }>().id;
    expect((await mine.owner.put(`/api/vendor/members/${stranger.id}`, { role: "admin" })).statusCode).toBe(
      404,
    );
    expect((await mine.owner.delete(`/api/vendor/members/${stranger.id}`)).statusCode).toBe(404);
    expect((await mine.owner.delete(`/api/vendor/members/${theirs.ownerId}`)).statusCode).toBe(404);
    expect((await mine.owner.delete(`/api/vendor/invitations/${theirInvitation}`)).statusCode).toBe(404);
    expect((await team(theirs.owner)).members).toHaveLength(2);
  });

  it("refuses members on every seats route", async () => {
    const { ownerId, vendorId } = await organisation("premium");
    const member = await seat(vendorId, "member");
    const calls = [
      member.caller.get("/api/vendor/members"),
      invite(member.caller, uniqueEmail("by-member")),
      member.caller.delete("/api/vendor/invitations/1"),
      member.caller.put(`/api/vendor/members/${ownerId}`, { role: "member" }),
      member.caller.put(`/api/vendor/members/${member.id}`, { role: "owner" }),
      member.caller.delete(`/api/vendor/members/${ownerId}`),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe("Only the owners and admins of your organisation can do this.");
    }
  });
});
