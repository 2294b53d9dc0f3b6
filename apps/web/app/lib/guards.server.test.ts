import type { AppLoadContext } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { enforceGuards } from "./guards.server.ts";
import { developmentPublicConfig } from "./request-context.server.ts";
import type { GuardName, RouteHandle } from "./route-handle.ts";

const context: AppLoadContext = {
  publicConfig: developmentPublicConfig("http://site.test"),
  apiOrigin: "http://api.test",
};

const RESEARCHER = { roles: ["researcher"], researcher: { uuid: "r-1" }, vendor: null };
const VENDOR = { roles: ["vendor"], vendor: { active_count: 0 }, researcher: null };
/** What the staff pages declare with their user-role and capability guards. */
const STAFF_PAGE: Omit<RouteHandle, "guards"> = { userRoles: ["staff"], capability: "triage" };
/** What the seats, subscription and forwarding pages declare. */
const VENDOR_ADMIN_PAGE: Omit<RouteHandle, "guards"> = {
  userRoles: ["owner", "admin"],
  capability: "manage-vendor",
};

function signedInAs(user: unknown) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async () =>
      user ? Response.json(user) : Response.json({ message: "Unauthenticated." }, { status: 401 }),
    ),
  );
}

/** The redirect a guard throws, or "pass". */
async function outcome(
  guards: GuardName[],
  path: string,
  cookie = "pressguard_session=s",
  handle: Omit<RouteHandle, "guards"> = STAFF_PAGE,
) {
  const request = new Request(`http://site.test${path}`, { headers: { cookie } });
  try {
    await enforceGuards({ ...handle, guards }, { request, context });
    return "pass";
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.headers.get("location");
    throw thrown;
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the route guards", () => {
  it("sends an anonymous visitor to the matching login page with a way back", async () => {
    signedInAs(null);
    expect(await outcome(["auth-vendor"], "/vdp/reports/fixed?page=2", "")).toBe(
      "/vdp/login?redirect=%2Fvdp%2Freports%2Ffixed%3Fpage%3D2",
    );
    expect(await outcome(["auth-researcher"], "/researchers/settings")).toBe(
      "/researchers/login?redirect=%2Fresearchers%2Fsettings",
    );
  });

  it("sends a signed-in user without the role to their own start page", async () => {
    signedInAs(RESEARCHER);
    expect(await outcome(["auth-vendor"], "/vdp/programs/all")).toBe("/researchers/r-1/in-review");
    signedInAs(VENDOR);
    expect(await outcome(["auth-researcher"], "/researchers/settings")).toBe("/vdp/programs/pending");
  });

  it("lets any signed-in user through auth-user and sends an anonymous one to the vendor login", async () => {
    for (const user of [RESEARCHER, VENDOR, { roles: [], vendor: null, researcher: null }]) {
      signedInAs(user);
      expect(await outcome(["auth-user"], "/watchlists")).toBe("pass");
    }
    signedInAs(null);
    expect(await outcome(["auth-user"], "/watchlists/abc", "")).toBe(
      "/vdp/login?redirect=%2Fwatchlists%2Fabc",
    );
  });

  it("lets the role through", async () => {
    signedInAs(VENDOR);
    expect(await outcome(["auth-vendor", "is-vendor-active"], "/vdp/create-account")).toBe("pass");
  });

  it("sends a vendor whose account is complete from the set-up page on to the programs", async () => {
    signedInAs({ ...VENDOR, vendor: { active_count: 0, account_completed: true } });
    expect(await outcome(["auth-vendor", "is-vendor-active"], "/vdp/create-account")).toBe(
      "/vdp/programs/pending",
    );
    signedInAs({ ...VENDOR, vendor: { active_count: 2, account_completed: true } });
    expect(await outcome(["is-vendor-active"], "/vdp/create-account")).toBe("/vdp/programs/all");
    signedInAs({ ...VENDOR, vendor: { active_count: 0, account_completed: false } });
    expect(await outcome(["is-vendor-active"], "/vdp/create-account")).toBe("pass");
  });

  it("holds a vendor owner or admin at the set-up until the vendor account is complete (issue 19)", async () => {
    const incomplete = { active_count: 0, account_completed: false };
    signedInAs({ ...VENDOR, vendor: { ...incomplete, role: "owner" } });
    for (const path of ["/vdp/programs/pending", "/vdp/reports/awaiting_fix", "/vdp/start-program"]) {
      expect(await outcome(["auth-vendor"], path)).toBe("/vdp/create-account");
    }
    expect(await outcome(["auth-vendor", "is-vendor-active"], "/vdp/create-account")).toBe("pass");
    expect(await outcome(["auth-vendor"], "/vdp/account/settings")).toBe("pass");
    // A member cannot save the vendor account: not held at a page they cannot finish.
    signedInAs({ ...VENDOR, vendor: { ...incomplete, role: "member" } });
    expect(await outcome(["auth-vendor"], "/vdp/programs/pending")).toBe("pass");
    signedInAs({ ...VENDOR, vendor: { active_count: 0, account_completed: true, role: "owner" } });
    expect(await outcome(["auth-vendor"], "/vdp/programs/pending")).toBe("pass");
  });

  it("sends a signed-in user without a vendor seat from the set-up page to their start page", async () => {
    signedInAs(RESEARCHER);
    expect(await outcome(["is-vendor-active"], "/vdp/create-account")).toBe("/researchers/r-1/in-review");
  });

  it("keeps signed-in users away from the guest pages", async () => {
    signedInAs(RESEARCHER);
    expect(await outcome(["guest-vendor"], "/vdp/login")).toBe("/");
    signedInAs(null);
    expect(await outcome(["guest-researcher"], "/researchers/login", "")).toBe("pass");
  });

  it("opens a preview to a shared link's token, otherwise only to the role", async () => {
    signedInAs(null);
    expect(await outcome(["check-token-vendor"], "/vdp/vulnerabilities/u/preview?token=abc", "")).toBe(
      "pass",
    );
    expect(await outcome(["check-token-researcher"], "/researchers/reports/u/preview", "")).toBe(
      "/researchers/login?redirect=%2Fresearchers%2Freports%2Fu%2Fpreview",
    );
  });

  it("opens a preview to the grant a link's token was exchanged for (issue 15)", async () => {
    signedInAs(null);
    const grant = "pressguard_link_grant=signed.grant";
    expect(await outcome(["check-token-researcher"], "/researchers/reports/u/preview", grant)).toBe("pass");
    expect(await outcome(["check-token-vendor"], "/vdp/vulnerabilities/u/preview", grant)).toBe("pass");
  });

  it("keeps staff-only guards for staff", async () => {
    signedInAs({ ...VENDOR, is_staff: false });
    expect(await outcome(["capability"], "/staff")).toBe("/vdp/programs/pending");
    signedInAs({ ...VENDOR, is_staff: true });
    expect(await outcome(["user-role"], "/staff")).toBe("pass");
  });

  it("sends an anonymous visitor of a staff page to the login with a way back", async () => {
    signedInAs(null);
    expect(await outcome(["user-role", "capability"], "/staff/reports", "")).toBe(
      "/vdp/login?redirect=%2Fstaff%2Freports",
    );
  });

  it("asks staff without a second factor to set one up before the triage pages", async () => {
    const STAFF = { roles: [], vendor: null, researcher: null, is_staff: true };
    signedInAs({ ...STAFF, two_factor_enabled: false });
    expect(await outcome(["user-role", "capability"], "/staff/reports")).toBe("/staff/two-factor");
    expect(await outcome(["user-role"], "/staff/two-factor")).toBe("pass");
    signedInAs({ ...STAFF, two_factor_enabled: true });
    expect(await outcome(["user-role", "capability"], "/staff/reports")).toBe("pass");
  });

  it("sends a signed-in non-staff user away from the staff pages", async () => {
    signedInAs({ ...RESEARCHER, two_factor_enabled: true });
    expect(await outcome(["user-role", "capability"], "/staff/reports")).toBe("/researchers/r-1/in-review");
  });

  it("lets vendor owners and admins into the account management pages, and sends members to settings", async () => {
    const guards: GuardName[] = ["auth-vendor", "user-role", "capability"];
    for (const role of ["owner", "admin"]) {
      signedInAs({ ...VENDOR, vendor: { active_count: 1, role } });
      expect(await outcome(guards, "/vdp/account/seats", undefined, VENDOR_ADMIN_PAGE)).toBe("pass");
    }
    signedInAs({ ...VENDOR, vendor: { active_count: 1, role: "member" } });
    expect(await outcome(guards, "/vdp/account/seats", undefined, VENDOR_ADMIN_PAGE)).toBe(
      "/vdp/account/settings",
    );
    expect(await outcome(["capability"], "/vdp/account/seats", undefined, VENDOR_ADMIN_PAGE)).toBe(
      "/vdp/account/settings",
    );
    signedInAs({ ...RESEARCHER });
    expect(await outcome(["user-role"], "/vdp/account/seats", undefined, VENDOR_ADMIN_PAGE)).toBe(
      "/researchers/r-1/in-review",
    );
  });

  it("refuses a route that names the guard without saying what it checks", async () => {
    signedInAs({ ...VENDOR, vendor: { active_count: 1, role: "owner" } });
    await expect(outcome(["user-role"], "/vdp/account/seats", undefined, {})).rejects.toThrow(/userRoles/);
    await expect(outcome(["capability"], "/vdp/account/seats", undefined, {})).rejects.toThrow(/capability/);
  });
});

describe("the route guards with the token in localStorage (decision 021)", () => {
  const base = developmentPublicConfig("http://site.test");
  const localStorageContext: AppLoadContext = {
    publicConfig: { ...base, auth: { ...base.auth, mode: "token", tokenStorage: "localStorage" } },
    apiOrigin: "http://api.test",
  };

  async function thrownBy(request: Request) {
    try {
      await enforceGuards({ guards: ["auth-vendor"] }, { request, context: localStorageContext });
      return "pass";
    } catch (thrown) {
      return thrown;
    }
  }

  it("renders a pending shell instead of sending a full page load to the login page", async () => {
    const fetch = vi.fn();
    vi.stubGlobal("fetch", fetch);
    const thrown = await thrownBy(new Request("http://site.test/vdp/reports/fixed?page=2"));
    expect(thrown).not.toBeInstanceOf(Response);
    expect(thrown).toMatchObject({
      init: { status: 401 },
      data: { identityPending: true, loginPath: "/vdp/login?redirect=%2Fvdp%2Freports%2Ffixed%3Fpage%3D2" },
    });
    expect(fetch).not.toHaveBeenCalled();
  });

  it("acts as the visitor whose page-data request shows the token (React Router drops .data)", async () => {
    const fetch = vi.fn(async (_url: string, _init: RequestInit) => Response.json(VENDOR));
    vi.stubGlobal("fetch", fetch);
    const request = new Request("http://site.test/vdp/programs/all", {
      headers: { authorization: "Bearer t0k" },
    });
    expect(await thrownBy(request)).toBe("pass");
    expect(new Headers(fetch.mock.calls[0]?.[1].headers).get("authorization")).toBe("Bearer t0k");
  });

  it("sends an anonymous page-data request (token shown, none valid) to the login page", async () => {
    signedInAs(null);
    const request = new Request("http://site.test/vdp/programs/all", {
      headers: { authorization: "Bearer expired" },
    });
    const thrown = await thrownBy(request);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).headers.get("location")).toBe("/vdp/login?redirect=%2Fvdp%2Fprograms%2Fall");
  });
});
