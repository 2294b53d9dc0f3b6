import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiCaller, registerUser, uniqueEmail } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";

/**
 * Token mode (AUTH_MODE=token): the web client sends no XSRF pair. Signed-out calls are told from
 * cross-site forgeries by their JSON content type, which no cross-site page can send without a CORS
 * preflight (the server grants none). Decision 021.
 */
let harness: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  harness = await createTestApp({ AUTH_MODE: "token", AUTH_TOKEN_STORAGE: "cookie", DEV_MAILBOX: "on" });
});
afterAll(() => harness.close());

/** A signed-out JSON call as the token-mode web client makes it: no cookies, no XSRF header. */
const postJson = (url: string, body: unknown) =>
  createApiCaller(harness.app).post(url, body, { csrf: false });

async function linkIn(email: string, template: string): Promise<string> {
  const response = await harness.app.inject({ method: "GET", url: "/api/dev/mail?limit=200" });
  const mails = response.json<{ data: { to: string; template: string; text: string }[] }>().data;
  const url = mails
    .find((mail) => mail.to === email && mail.template === template)
    ?.text.match(/https?:\/\/\S+/)?.[0];
  if (!url) throw new Error(`no ${template} mail to ${email}`);
  return url;
}

describe("signed-out calls in token mode", () => {
  it("registers and signs in with a token and no CSRF pair, and the token signs the user in", async () => {
    const email = uniqueEmail("token-register");
    const password = "correct horse battery";
    const registered = await postJson("/api/register", {
      name: "Token",
      email,
      password,
      role: "researcher",
    });
    // Registration signs nobody in (decision 020): the token comes from the sign-in.
    expect(registered.statusCode).toBe(202);
    const login = await postJson("/api/login", { email, password, token: true });
    expect(login.statusCode).toBe(200);
    const caller = createApiCaller(harness.app);
    caller.setBearer(login.json<{ token: string }>().token);
    expect((await caller.get("/api/user")).json()).toMatchObject({ email, roles: ["researcher"] });
  });

  it("asks for a magic link, a password reset link and sets a new password without a CSRF pair", async () => {
    const email = uniqueEmail("token-links");
    const password = "correct horse battery";
    expect(
      (await postJson("/api/register", { name: "Links", email, password, role: "vendor" })).statusCode,
    ).toBe(202);
    expect((await postJson("/api/magic-link", { email })).statusCode).toBe(202);
    expect((await postJson("/api/password/forgot", { email })).statusCode).toBe(202);
    const token = new URL(await linkIn(email, "password_reset")).pathname.split("/").pop();
    const reset = await postJson("/api/password/reset", { token, password: "a brand new password" });
    expect(reset.statusCode).toBe(200);
    const login = await postJson("/api/login", { email, password: "a brand new password", token: true });
    expect(login.statusCode).toBe(200);
  });

  it("uses a magic link without a CSRF pair", async () => {
    const unknown = await postJson("/api/magic-link/00000000-0000-4000-8000-000000000000", { token: true });
    expect(unknown.statusCode).toBe(404);
  });

  it("reaches the PIN check without a CSRF pair", async () => {
    const pin = await postJson("/api/report-previews/00000000-0000-4000-8000-000000000000/pin", {
      pin: "123456",
    });
    expect(pin.statusCode).not.toBe(419);
    expect(pin.statusCode).toBe(404);
  });
});

describe("invitation links in token mode", () => {
  it("creates the invited account and answers with a token, not a session cookie (decision 021)", async () => {
    const owner = await registerUser(harness.app, { role: "vendor" });
    const email = uniqueEmail("token-invitee");
    const invited = await owner.caller.post("/api/vendor/invitations", { email, role: "member" });
    expect(invited.statusCode, invited.body).toBe(201);
    const link = await linkIn(email, "seat_invitation");
    const secret = /\/vdp\/invitations\/([A-Za-z0-9_-]+)/.exec(link)?.[1];

    const created = await postJson(`/api/invitations/${secret}/account`, {
      name: "Token Colleague",
      password: "long enough password",
      token: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.cookies.map((cookie) => cookie.name)).not.toContain("pressguard_session");
    const caller = createApiCaller(harness.app);
    caller.setBearer(created.json<{ token: string }>().token);
    expect((await caller.get("/api/user")).json()).toMatchObject({
      email,
      email_verified: true,
      vendor: { role: "member" },
    });
  });
});

describe("signed-in browsers in token mode", () => {
  it("lists each browser's token on the sessions list and signs another one out (account page)", async () => {
    const { email, password } = await registerUser(harness.app, { role: "researcher" });
    const signIn = async (userAgent: string) => {
      const answer = await createApiCaller(harness.app).post(
        "/api/login",
        { email, password, token: true },
        { csrf: false, headers: { "user-agent": userAgent } },
      );
      const caller = createApiCaller(harness.app);
      caller.setBearer(answer.json<{ token: string }>().token);
      return caller;
    };
    const desktop = await signIn("Desktop browser");
    const laptop = await signIn("Laptop browser");

    const listed = await desktop.get("/api/sessions");
    expect(listed.statusCode, listed.body).toBe(200);
    const entries = listed.json<{
      data: { id: number; kind: string; user_agent: string; current: boolean }[];
    }>().data;
    const tokens = entries.filter((entry) => entry.kind === "token");
    expect(tokens.map((entry) => [entry.user_agent, entry.current]).sort()).toEqual([
      ["Desktop browser", true],
      ["Laptop browser", false],
    ]);
    const other = tokens.find((entry) => !entry.current);
    const revoked = await desktop.delete(`/api/tokens/${other?.id}`);
    expect(revoked.statusCode, revoked.body).toBe(204);
    expect((await laptop.get("/api/user")).statusCode).toBe(401);
    expect((await desktop.get("/api/user")).statusCode).toBe(200);
    // Another user's token answers 404, as a missing one.
    const stranger = await registerUser(harness.app, { role: "researcher" });
    expect((await stranger.caller.delete(`/api/tokens/${tokens[0]?.id}`)).statusCode).toBe(404);
  });
});

describe("cross-site forgeries in token mode", () => {
  it("refuses a form-like text/plain POST that no preflight guards (419)", async () => {
    const forged = await harness.app.inject({
      method: "POST",
      url: "/api/magic-link",
      headers: { "content-type": "text/plain" },
      payload: JSON.stringify({ email: uniqueEmail("forged") }),
    });
    expect(forged.statusCode).toBe(419);
    expect(forged.json()).toEqual({ status: "error", message: "CSRF token mismatch." });
  });

  it("refuses an unsafe call without a body or a Bearer token (419)", async () => {
    const forged = await harness.app.inject({ method: "POST", url: "/api/logout" });
    expect(forged.statusCode).toBe(419);
  });
});
