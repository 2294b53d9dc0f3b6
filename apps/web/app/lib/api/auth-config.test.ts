import { AUTH_CONFIG_MESSAGES, DEFAULT_AUTH_CLIENT_CONFIG } from "@pressguard/domain";
import { describe, expect, it } from "vitest";
import { AuthConfigError, parseAuthClientConfig } from "./auth-config.ts";

const complete = {
  endpoints: { login: "/login", logout: "/logout" },
  redirect: { onLogin: "/", onLogout: "/vdp/login" },
};

function messageOf(input: unknown): string {
  try {
    parseAuthClientConfig(input);
  } catch (error) {
    expect(error).toBeInstanceOf(AuthConfigError);
    return (error as Error).message;
  }
  throw new Error("expected the config to be rejected");
}

describe("parseAuthClientConfig", () => {
  it("accepts the product's defaults and fills the optional parts", () => {
    const config = parseAuthClientConfig(DEFAULT_AUTH_CLIENT_CONFIG);
    expect(config.mode).toBe("cookie");
    expect(config.csrf).toEqual({ cookie: "XSRF-TOKEN", header: "X-XSRF-TOKEN" });
    expect(config.retry).toBe(1);
  });

  it("accepts false as a redirect target (stay on the page)", () => {
    const config = parseAuthClientConfig({ ...complete, redirect: { onLogin: false, onLogout: false } });
    expect(config.redirect.onLogin).toBe(false);
  });

  it.each([
    ["the login endpoint", { ...complete, endpoints: { logout: "/logout" } }, AUTH_CONFIG_MESSAGES.login],
    [
      "an empty login endpoint",
      { ...complete, endpoints: { login: "", logout: "/logout" } },
      AUTH_CONFIG_MESSAGES.login,
    ],
    ["the logout endpoint", { ...complete, endpoints: { login: "/login" } }, AUTH_CONFIG_MESSAGES.logout],
    ["the on-login redirect", { ...complete, redirect: { onLogout: "/" } }, AUTH_CONFIG_MESSAGES.onLogin],
    ["the on-logout redirect", { ...complete, redirect: { onLogin: "/" } }, AUTH_CONFIG_MESSAGES.onLogout],
    ["the token storage in token mode", { ...complete, mode: "token" }, AUTH_CONFIG_MESSAGES.tokenStorage],
  ])("rejects a config without %s with the specification's message", (_name, input, message) => {
    expect(messageOf(input)).toBe(message);
  });

  it("reports the first missing option in the specification's order and keeps the others", () => {
    try {
      parseAuthClientConfig({});
      expect.unreachable();
    } catch (error) {
      expect((error as AuthConfigError).message).toBe("sanctum.endpoints.login is not defined");
      expect((error as AuthConfigError).messages).toEqual([
        "sanctum.endpoints.login is not defined",
        "sanctum.endpoints.logout is not defined",
        "sanctum.redirect.onLogin is not defined",
        "sanctum.redirect.onLogout is not defined",
      ]);
    }
  });

  it("treats a missing config like an empty one", () => {
    expect(messageOf(undefined)).toBe(AUTH_CONFIG_MESSAGES.login);
  });

  it("names the option for problems the specification has no message for", () => {
    expect(messageOf({ ...complete, mode: "magic" })).toMatch(/^mode: /);
  });
});
