import { AuthClientConfig, DEFAULT_AUTH_CLIENT_CONFIG } from "@pressguard/domain";
import { describe, expect, it, vi } from "vitest";
import { ApiError } from "./api-error.ts";
import { AUTH_MESSAGES, createAuthClient, loginTarget, safeRedirectPath } from "./auth-client.ts";
import type { ApiClient } from "./request.ts";

const config = AuthClientConfig.parse(DEFAULT_AUTH_CLIENT_CONFIG);

function setup(
  options: { mode?: "cookie" | "token"; user?: unknown; answers?: Record<string, unknown[]> } = {},
) {
  let user: unknown = options.user ?? null;
  const answers = options.answers ?? {};
  const calls: { path: string; method: string; body: unknown }[] = [];
  const api: ApiClient = {
    async request<T>(path: string, init: { method?: string; body?: unknown } = {}) {
      calls.push({ path, method: init.method ?? "GET", body: init.body });
      const queue = answers[path] ?? [];
      const next = queue.length > 1 ? queue.shift() : queue[0];
      if (next instanceof Error) throw next;
      return next as T;
    },
  };
  const navigate = vi.fn();
  const storeToken = vi.fn();
  let search = "";
  const client = createAuthClient({
    config: { ...config, mode: options.mode ?? "cookie" },
    api,
    getUser: () => user,
    setUser: (next) => {
      user = next;
    },
    storeToken,
    location: () => ({ pathname: "/vdp/login", search }),
    navigate,
  });
  return {
    client,
    calls,
    navigate,
    storeToken,
    currentUser: () => user,
    setSearch(value: string) {
      search = value;
    },
  };
}

describe("the auth client", () => {
  it("logs in, then fetches the user, then goes to the on-login route", async () => {
    const { client, calls, navigate, currentUser } = setup({
      answers: { "/login": [{}], "/user": [{ roles: ["vendor"] }] },
    });
    await client.login({ email: "a@b.test", password: "pw" });
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(["POST /login", "GET /user"]);
    expect(currentUser()).toEqual({ roles: ["vendor"] });
    expect(navigate).toHaveBeenCalledWith("/");
  });

  it("honours the redirect query parameter, but only for a same-site path", async () => {
    const first = setup({ answers: { "/login": [{}], "/user": [{}] } });
    first.setSearch("?redirect=%2Fvdp%2Freports%2Ffixed");
    await first.client.login({});
    expect(first.navigate).toHaveBeenCalledWith("/vdp/reports/fixed");
    const second = setup({ answers: { "/login": [{}], "/user": [{}] } });
    second.setSearch("?redirect=//evil.test/x");
    await second.client.login({});
    expect(second.navigate).toHaveBeenCalledWith("/");
  });

  it('raises "User is already authenticated" when signed in', async () => {
    const { client, calls } = setup({ user: { roles: [] } });
    await expect(client.login({})).rejects.toThrow(AUTH_MESSAGES.alreadyAuthenticated);
    expect(calls).toEqual([]);
  });

  it('raises "User is not authenticated" on logout when anonymous', async () => {
    const { client } = setup();
    await expect(client.logout()).rejects.toThrow(AUTH_MESSAGES.notAuthenticated);
  });

  it("logs out, clears the user and goes to the on-logout route", async () => {
    const { client, navigate, currentUser } = setup({ user: { roles: [] }, answers: { "/logout": [{}] } });
    await client.logout();
    expect(currentUser()).toBeNull();
    // The current path is the on-logout route itself: nothing to do.
    expect(navigate).not.toHaveBeenCalled();
  });

  it("asks for a token in token mode and stores it", async () => {
    const { client, calls, storeToken } = setup({
      mode: "token",
      answers: { "/login": [{ token: "t0k" }], "/user": [{}] },
    });
    await client.login({ email: "a@b.test" });
    expect(calls[0]?.body).toEqual({ email: "a@b.test", token: true });
    expect(storeToken).toHaveBeenCalledWith("t0k");
  });

  it("registers and uses a magic link with a token in token mode, and keeps it (issue 14 item 3)", async () => {
    const { client, calls, storeToken } = setup({
      mode: "token",
      answers: { "/register": [{ token: "new" }], "/magic-link/abc": [{ token: "link" }] },
    });
    await client.signInWith("/register", { email: "a@b.test", role: "vendor" });
    await client.signInWith("/magic-link/abc");
    expect(calls.map((call) => [call.method, call.path, call.body])).toEqual([
      ["POST", "/register", { email: "a@b.test", role: "vendor", token: true }],
      ["POST", "/magic-link/abc", { token: true }],
    ]);
    expect(storeToken.mock.calls).toEqual([["new"], ["link"]]);
  });

  it("registers in cookie mode with the fields alone and keeps no token, trying once", async () => {
    const { client, calls, storeToken } = setup({
      answers: { "/register": [new ApiError(503, "down"), {}] },
    });
    await expect(client.signInWith("/register", { email: "a@b.test" })).rejects.toThrow("down");
    expect(calls).toEqual([{ path: "/register", method: "POST", body: { email: "a@b.test" } }]);
    expect(storeToken).not.toHaveBeenCalled();
  });

  it('raises "Token was not returned from the API" when token mode gets none', async () => {
    const { client } = setup({ mode: "token", answers: { "/login": [{}] } });
    await expect(client.login({})).rejects.toThrow(AUTH_MESSAGES.tokenNotReturned);
  });

  it("retries once when the server fails, never after a refusal", async () => {
    const failing = setup({ answers: { "/login": [new ApiError(503, "down"), {}], "/user": [{}] } });
    await failing.client.login({});
    expect(failing.calls.filter((call) => call.path === "/login")).toHaveLength(2);
    const refused = setup({
      answers: { "/login": [new ApiError(422, "These credentials do not match our records.")] },
    });
    await expect(refused.client.login({})).rejects.toThrow("These credentials do not match our records.");
    expect(refused.calls).toHaveLength(1);
  });

  it("keeps redirect targets on this site", () => {
    expect(safeRedirectPath("/a?b=1")).toBe("/a?b=1");
    for (const bad of ["//evil.test", "https://evil.test", "evil", "/\\evil.test", "", null])
      expect(safeRedirectPath(bad)).toBeNull();
    expect(loginTarget({ ...config.redirect, onLogin: false }, { pathname: "/x", search: "" })).toBeNull();
  });
});
