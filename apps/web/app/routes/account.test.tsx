import type { ReactElement } from "react";
import type { AppLoadContext } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AccountSecurity } from "../features/auth/account-security.tsx";
import { watchlistMenu } from "../lib/navigation.ts";
import { developmentPublicConfig } from "../lib/request-context.server.ts";
import routes from "../routes.ts";
import AccountPage, { handle, loader } from "./account.tsx";
import { loader as researcherSettingsLoader } from "./researchers/settings.tsx";
import { loader as vendorSettingsLoader } from "./vdp/account-settings.tsx";

/**
 * Issue 38: a site owner (an account with neither vendor nor researcher role) had no page for their
 * sessions, API keys, password or second factor: both settings pages send them away. `/account` is
 * every signed-in account's, with the same parts.
 */
const context: AppLoadContext = {
  publicConfig: developmentPublicConfig("http://site.test"),
  apiOrigin: "http://api.test",
};
const SITE_OWNER = { roles: [], vendor: null, researcher: null, is_staff: false };

function signedInAs(user: unknown) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async () =>
      user ? Response.json(user) : Response.json({ message: "Unauthenticated." }, { status: 401 }),
    ),
  );
}

/** The redirect a page's loader throws, or "pass". */
async function visit(pageLoader: (args: never) => Promise<unknown>, path: string, cookie: string) {
  const request = new Request(`http://site.test${path}`, { headers: { cookie } });
  try {
    await pageLoader({ request, context, params: {} } as never);
    return "pass";
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.headers.get("location");
    throw thrown;
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the account page (/account)", () => {
  it("is in the route table, under the base layout", () => {
    const base = routes.find((entry) => entry.file === "layouts/base.tsx");
    expect(base?.children?.find((entry) => entry.path === "account")?.file).toBe("routes/account.tsx");
  });

  it("opens for a site owner, whom the vendor and researcher settings send away", async () => {
    signedInAs(SITE_OWNER);
    expect(await visit(loader, "/account", "pressguard_session=s")).toBe("pass");
    expect(await visit(vendorSettingsLoader, "/vdp/account/settings", "pressguard_session=s")).toBe(
      "/watchlists",
    );
    expect(await visit(researcherSettingsLoader, "/researchers/settings", "pressguard_session=s")).toBe(
      "/watchlists",
    );
  });

  it("opens for every other account too, and sends an anonymous visitor to sign in", async () => {
    for (const user of [
      { roles: ["vendor"], vendor: { active_count: 0, account_completed: true }, researcher: null },
      { roles: ["researcher"], vendor: null, researcher: { uuid: "r-1", profile_completed: true } },
      { ...SITE_OWNER, is_staff: true },
    ]) {
      signedInAs(user);
      expect(await visit(loader, "/account", "pressguard_session=s")).toBe("pass");
    }
    signedInAs(null);
    expect(await visit(loader, "/account", "")).toBe("/vdp/login?redirect=%2Faccount");
  });

  it("shows the account security parts of the settings pages, not a copy, under the watchlists' menu", () => {
    expect(handle).toEqual({ guards: ["auth-user"], menu: "watchlists" });
    const page = AccountPage() as ReactElement<{ children: ReactElement[] }>;
    expect(page.props.children.some((child) => child.type === AccountSecurity)).toBe(true);
  });

  it("is in the menu every account's watchlists show", () => {
    expect(watchlistMenu(SITE_OWNER)).toContainEqual({ label: "Account", to: "/account" });
  });
});
