import { describe, expect, it } from "vitest";
import {
  activeTab,
  isCurrent,
  PROGRAM_TABS,
  pluginTabs,
  profileTabs,
  REPORT_TABS,
  researcherAreaLink,
  researcherMenu,
  SETTINGS_TABS,
  SOLUTIONS_MENU,
  type TabItem,
  vendorMenu,
  visibleTo,
  watchlistMenu,
} from "./navigation.ts";
import { GUARD_NAMES, isStaticPage, mergeHandles, STATIC_PAGE } from "./route-handle.ts";

const seat = (role: string) => ({ vendor: { role } });

describe("menus (spec §2)", () => {
  it("gives a vendor who is also a researcher the way to the researcher area (issue 19)", () => {
    expect(researcherAreaLink("0b6a1c3e-5f0e-4b8e-9a43-1d2c3b4a5f60")).toEqual([
      { label: "Researcher area", to: "/researchers/0b6a1c3e-5f0e-4b8e-9a43-1d2c3b4a5f60/in-review" },
    ]);
    expect(researcherAreaLink(null)).toEqual([]);
  });

  it("lists the vendor menu with the New badge on report forwarding", () => {
    for (const role of ["owner", "admin"])
      expect(
        vendorMenu("/vdp/programs/all", seat(role)).map((item) => [item.label, item.to, item.badge]),
      ).toEqual([
        ["Reports", "/vdp/reports/awaiting_fix", undefined],
        ["Programs", "/vdp/programs/all", undefined],
        ["Account", "/vdp/account/settings", undefined],
        ["Report forwarding", "/vdp/account/forward-reports", "New"],
        ["Watchlists", "/watchlists", undefined],
      ]);
  });

  it("hides report forwarding from members (PRODUCT.md §4)", () => {
    expect(vendorMenu("/vdp/programs/all", seat("member")).map((item) => item.label)).toEqual([
      "Reports",
      "Programs",
      "Account",
      "Watchlists",
    ]);
    expect(vendorMenu("/vdp/programs/all", null).map((item) => item.label)).not.toContain(
      "Report forwarding",
    );
  });

  it("gives the watchlist pages a menu with the way back to each area the user has (issue 20)", () => {
    expect(watchlistMenu({ roles: [] }).map((item) => item.to)).toEqual([
      "/watchlists",
      "/database/check",
      "/database",
      // Issue 38: a site owner's way to their sessions, API keys, password and two-factor.
      "/account",
    ]);
    const both = { roles: ["vendor", "researcher"], vendor: { active_count: 1 }, researcher: { uuid: "r1" } };
    expect(watchlistMenu(both).map((item) => item.label)).toEqual([
      "Watchlists",
      "Check your site",
      "Database",
      "Vendor area",
      "Researcher area",
      "Account",
    ]);
    expect(watchlistMenu({ roles: [], is_staff: true }).at(-2)).toEqual({
      label: "Staff area",
      to: "/staff/reports",
    });
  });

  it("lists the six solutions in order", () => {
    expect(SOLUTIONS_MENU.map((item) => item.label)).toEqual([
      "WordPress security",
      "Plugin auditing",
      "Managed VDP",
      "Bug Bounty",
      "For hosts",
      "Vulnerability database",
    ]);
  });

  it("links a researcher's reports only when the researcher is known", () => {
    expect(researcherMenu("r1").map((item) => item.to)).toEqual([
      "/researchers/r1/in-review",
      "/researchers/settings",
      "/watchlists",
    ]);
    expect(researcherMenu(null).map((item) => item.to)).toEqual(["/researchers/settings", "/watchlists"]);
  });

  it("marks a menu entry current on its section's pages", () => {
    const [reports, programs, account, forwarding] = vendorMenu("/vdp/programs/pending", seat("owner"));
    expect(reports && isCurrent(reports, "/vdp/reports/fixed")).toBe(true);
    expect(programs && isCurrent(programs, "/vdp/programs/12/edit")).toBe(true);
    expect(programs && isCurrent(programs, "/vdp/start-program")).toBe(true);
    expect(account && isCurrent(account, "/vdp/account/seats")).toBe(true);
    expect(account && isCurrent(account, "/vdp/account/forward-reports")).toBe(false);
    expect(forwarding && isCurrent(forwarding, "/vdp/account/forward-reports/")).toBe(true);
    expect(programs && isCurrent(programs, "/vdp/programsx")).toBe(false);
    expect(isCurrent({ label: "Home", to: "/database", exact: true }, "/database/vdp")).toBe(false);
    expect(isCurrent({ label: "Home", to: "/database", exact: true }, "/database/")).toBe(true);
  });
});

describe("tabs", () => {
  it("maps the program tabs to the specification's fixed filters", () => {
    expect(PROGRAM_TABS.map((tab) => [tab.to, tab.filter])).toEqual([
      ["/vdp/programs/all", "all-active"],
      ["/vdp/programs/open", "open-reports"],
      ["/vdp/programs/pending", "vdp-pending"],
    ]);
  });

  it("finds the active tab, ignoring a trailing slash", () => {
    expect(activeTab(REPORT_TABS, "/vdp/reports/fix_pending/")?.heading).toBe("Reports — Fix pending");
    expect(activeTab(SETTINGS_TABS, "/vdp/account/settings")?.heading).toBe("Account settings");
    expect(activeTab(REPORT_TABS, "/vdp/reports")).toBeUndefined();
  });

  it("shows members the settings tab only, with the New badge kept for owners and admins", () => {
    expect(visibleTo(SETTINGS_TABS, seat("member")).map((tab) => tab.label)).toEqual(["Settings"]);
    expect(visibleTo<TabItem>(SETTINGS_TABS, seat("admin")).map((tab) => [tab.label, tab.badge])).toEqual([
      ["Settings", undefined],
      ["Seats", undefined],
      ["Subscription", undefined],
      ["Report forwarding", "New"],
    ]);
  });

  it("builds the researcher and product tabs from their parameters", () => {
    expect(profileTabs("u1").map((tab) => tab.to)).toEqual([
      "/researchers/u1/in-review",
      "/researchers/u1/rejected",
      "/researchers/u1/published",
      "/researchers/u1/validated",
    ]);
    expect(pluginTabs("wordpress", "plugin", "akismet").map((tab) => tab.to)).toEqual([
      "/database/wordpress/plugin/akismet/vulnerabilities/vdp",
      "/database/wordpress/plugin/akismet/security-policy/vdp",
      "/database/wordpress/plugin/akismet/security-contributors/vdp",
    ]);
  });
});

describe("mergeHandles", () => {
  it("adds up guards from outer to inner routes and lets the deepest menu win", () => {
    expect(
      mergeHandles([
        undefined,
        { guards: ["auth-vendor"] },
        { guards: ["auth-vendor", "is-vendor-active"], menu: "researcher" },
      ]),
    ).toEqual({ guards: ["auth-vendor", "is-vendor-active"], menu: "researcher" });
    expect(mergeHandles([null, "x", {}])).toEqual({ guards: [], menu: "public" });
  });

  it("knows the nine guards of the specification, and auth-user (issue 20)", () => {
    expect(GUARD_NAMES).toHaveLength(10);
    expect(GUARD_NAMES).toContain("auth-user");
  });

  it("sends a page without JavaScript only when one of its routes asks (decision 007)", () => {
    expect(isStaticPage([undefined, null, { menu: "public" }, STATIC_PAGE])).toBe(true);
    expect(isStaticPage([undefined, { guards: ["auth-vendor"] }, { hydrate: "false" }])).toBe(false);
    expect(isStaticPage([])).toBe(false);
  });
});
