import { AuthClientConfig, DEFAULT_AUTH_CLIENT_CONFIG } from "@pressguard/domain";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "./api/api-error.ts";
import { identityErrorHandler, identityOf } from "./identity.ts";
import type { SessionUser } from "./session-user.ts";

const config = AuthClientConfig.parse(DEFAULT_AUTH_CLIENT_CONFIG);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("a 401 after the first load", () => {
  it("clears the identity and goes to the login target", () => {
    const assign = vi.fn();
    vi.stubGlobal("window", { location: { assign } });
    const identity = { user: { roles: ["vendor"] } };
    identityErrorHandler(config, identity)(new ApiError(401, "Unauthenticated."));
    expect(identity.user).toBeNull();
    expect(assign).toHaveBeenCalledWith("/vdp/login");
  });

  it("does nothing for an anonymous visitor, for other statuses, or when switched off", () => {
    const assign = vi.fn();
    vi.stubGlobal("window", { location: { assign } });
    identityErrorHandler(config, { user: null })(new ApiError(401, "Unauthenticated."));
    const signedIn = { user: { roles: [] } };
    identityErrorHandler(config, signedIn)(new ApiError(403, "Forbidden."));
    expect(signedIn.user).not.toBeNull();
    const quiet = { user: { roles: [] } };
    identityErrorHandler({ ...config, redirectIfUnauthenticated: false }, quiet)(new ApiError(401, "x"));
    expect(quiet.user).toBeNull();
    expect(assign).not.toHaveBeenCalled();
  });
});

describe("the browser's identity", () => {
  it("follows the root loader when it runs again to settle the identity (decision 021)", () => {
    vi.stubGlobal("window", {});
    const pending = identityOf(null);
    expect(identityOf(null)).toBe(pending);
    const user = { roles: ["vendor"] } as unknown as SessionUser;
    expect(identityOf(user)).toBe(pending);
    expect(pending.user).toBe(user);
    // Signed out in the page (a 401): the same root answer does not bring the user back.
    pending.user = null;
    expect(identityOf(user).user).toBeNull();
  });
});
