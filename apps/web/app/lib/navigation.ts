import { type Capability, type CapabilitySubject, hasCapability } from "@pressguard/domain";
import { DISCORD_INVITE_URL, MARKETING_LINKS } from "./external-links.ts";
import { programsPathFor } from "./session-user.ts";

/** One entry of a menu or a tab bar; `external` links open the marketing site or the community. */
export interface NavItem {
  label: string;
  to: string;
  external?: boolean;
  badge?: string;
  /** Path prefixes for which this entry counts as the current one; defaults to `to` itself. */
  match?: readonly string[];
  /** Current only on exactly `to` (for a section's home). */
  exact?: boolean;
  /** Shown only to users with this capability (the page's guard refuses the others anyway). */
  capability?: Capability;
}

/** The entries `user` may open: those without a capability, and those whose capability they hold. */
export function visibleTo<T extends NavItem>(items: readonly T[], user: CapabilitySubject | null): T[] {
  return items.filter((item) => !item.capability || (user !== null && hasCapability(user, item.capability)));
}

/** Whether a menu entry is the current one for `pathname` (its own path or one of its prefixes). */
export function isCurrent(item: NavItem, pathname: string): boolean {
  const path = pathname.replace(/\/+$/, "") || "/";
  if (item.exact) return path === item.to;
  return (item.match ?? [item.to]).some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** Spec §2, public header: Solutions dropdown, in this order. */
export const SOLUTIONS_MENU: readonly NavItem[] = [
  { label: "WordPress security", to: MARKETING_LINKS.wordpressSecurity, external: true },
  { label: "Plugin auditing", to: MARKETING_LINKS.pluginAuditing, external: true },
  { label: "Managed VDP", to: MARKETING_LINKS.managedVdp, external: true },
  { label: "Bug Bounty", to: MARKETING_LINKS.bugBounty, external: true },
  { label: "For hosts", to: MARKETING_LINKS.forHosts, external: true },
  { label: "Vulnerability database", to: "/database" },
];

export const PRICING_LINK: NavItem = { label: "Pricing", to: MARKETING_LINKS.pricing, external: true };
export const LOGIN_LINK: NavItem = { label: "Login", to: "/vdp/login" };
/** Every signed-in user keeps watchlists (issue 20): each area's menu links them. */
const WATCHLISTS_LINK: NavItem = { label: "Watchlists", to: "/watchlists" };
/**
 * Every signed-in account's own page (issue 38): sessions, API keys, password, two-factor. The vendor
 * and researcher menus keep their Account entry to their settings, which show the same parts.
 */
export const ACCOUNT_PATH = "/account";

/**
 * Spec §2, vendor top menu; Programs points at "all" or "pending" (see `programsPathFor`). Report
 * forwarding is for owners and admins: members (PRODUCT.md §4) do not see it.
 */
export function vendorMenu(programsPath: string, user: CapabilitySubject | null): readonly NavItem[] {
  return visibleTo(
    [
      { label: "Reports", to: "/vdp/reports/awaiting_fix", match: ["/vdp/reports"] },
      { label: "Programs", to: programsPath, match: ["/vdp/programs", "/vdp/start-program"] },
      {
        label: "Account",
        to: "/vdp/account/settings",
        match: ["/vdp/account/settings", "/vdp/account/seats", "/vdp/account/subscription"],
      },
      {
        label: "Report forwarding",
        to: "/vdp/account/forward-reports",
        badge: "New",
        capability: "manage-vendor",
      },
      WATCHLISTS_LINK,
    ],
    user,
  );
}

/**
 * For a vendor who is also a researcher (the root redirect sends them to the vendor area): the way
 * to their researcher area, at the end of the vendor menu (issue 19: there was none).
 */
export function researcherAreaLink(researcherUuid: string | null | undefined): NavItem[] {
  return researcherUuid
    ? [{ label: "Researcher area", to: `/researchers/${encodeURIComponent(researcherUuid)}/in-review` }]
    : [];
}

/** Spec §2, researcher menu: the researcher's own pages, then links out. */
export function researcherMenu(researcherUuid: string | null): readonly NavItem[] {
  const own: NavItem[] = researcherUuid
    ? [
        {
          label: "Reports",
          to: `/researchers/${encodeURIComponent(researcherUuid)}/in-review`,
          match: [`/researchers/${encodeURIComponent(researcherUuid)}`],
        },
      ]
    : [];
  return [...own, { label: "Account", to: "/researchers/settings" }, WATCHLISTS_LINK];
}

export const RESEARCHER_LINKS: readonly NavItem[] = [
  { label: "Leaderboard", to: "/database/leaderboard" },
  { label: "Security programs", to: "/database/vdp" },
  { label: "Guidelines", to: MARKETING_LINKS.researcherGuidelines, external: true },
  { label: "Database", to: "/database" },
  { label: "Discord", to: DISCORD_INVITE_URL, external: true },
];

/** Public database sub-navigation. */
export const DATABASE_MENU: readonly NavItem[] = [
  { label: "Vulnerabilities", to: "/database", exact: true },
  { label: "Check your site", to: "/database/check" },
  { label: "Active VDP directory", to: "/database/vdp" },
  { label: "Leaderboard", to: "/database/leaderboard" },
  { label: "Statistics", to: "/database/statistics/wordpress", match: ["/database/statistics"] },
  { label: "Report a vulnerability", to: "/database/report" },
];

/** A tab of a tabs layout: its label in the tab bar and the page heading it gives. */
export interface TabItem extends NavItem {
  heading: string;
}

/** Spec §4: program lists filtered by tab; `filter` is the fixed string the API expects. */
export const PROGRAM_TABS = [
  { label: "All", to: "/vdp/programs/all", heading: "Programs — All", filter: "all-active" },
  { label: "Open", to: "/vdp/programs/open", heading: "Programs — Open", filter: "open-reports" },
  { label: "Pending", to: "/vdp/programs/pending", heading: "Programs — Pending", filter: "vdp-pending" },
] as const satisfies readonly (TabItem & { filter: string })[];

export const REPORT_TABS = [
  { label: "Awaiting fix", to: "/vdp/reports/awaiting_fix", heading: "Reports — Awaiting fix" },
  { label: "Fix pending", to: "/vdp/reports/fix_pending", heading: "Reports — Fix pending" },
  { label: "Fixed", to: "/vdp/reports/fixed", heading: "Reports — Fixed" },
] as const satisfies readonly TabItem[];

export const SETTINGS_TABS = [
  { label: "Settings", to: "/vdp/account/settings", heading: "Account settings" },
  { label: "Seats", to: "/vdp/account/seats", heading: "Seats", capability: "manage-vendor" },
  {
    label: "Subscription",
    to: "/vdp/account/subscription",
    heading: "Subscription",
    capability: "manage-vendor",
  },
  {
    label: "Report forwarding",
    to: "/vdp/account/forward-reports",
    heading: "Report forwarding",
    badge: "New",
    capability: "manage-vendor",
  },
] as const satisfies readonly TabItem[];

export function profileTabs(uuid: string): readonly TabItem[] {
  const base = `/researchers/${encodeURIComponent(uuid)}`;
  return [
    { label: "In review", to: `${base}/in-review`, heading: "My reports — In review" },
    { label: "Rejected", to: `${base}/rejected`, heading: "My reports — Rejected" },
    { label: "Published", to: `${base}/published`, heading: "My reports — Published" },
    { label: "Validated", to: `${base}/validated`, heading: "My reports — Validated" },
  ];
}

export function pluginTabs(platform: string, kind: string, product: string): readonly TabItem[] {
  const base = `/database/${[platform, kind, product].map(encodeURIComponent).join("/")}`;
  return [
    {
      label: "Product vulnerabilities",
      to: `${base}/vulnerabilities/vdp`,
      heading: "Product vulnerabilities",
    },
    { label: "Security policy", to: `${base}/security-policy/vdp`, heading: "Security policy" },
    { label: "Contributors", to: `${base}/security-contributors/vdp`, heading: "Security contributors" },
  ];
}

/** The tab whose path is the current one (trailing slash ignored). */
export function activeTab<T extends NavItem>(tabs: readonly T[], pathname: string): T | undefined {
  const path = pathname.replace(/\/+$/, "") || "/";
  return tabs.find((tab) => tab.to === path);
}

/**
 * PRODUCT.md §1, staff top menu: the triage queue, the lobby claims waiting for a decision, the vendors,
 * the upstream data sources (issue 34).
 */
export const STAFF_MENU: readonly NavItem[] = [
  { label: "Reports queue", to: "/staff/reports", match: ["/staff/reports"] },
  { label: "Product claims", to: "/staff/claims" },
  { label: "Vendors", to: "/staff/vendors" },
  { label: "Data sources", to: "/staff/data-sources" },
  WATCHLISTS_LINK,
  { label: "Account", to: ACCOUNT_PATH },
];

/**
 * The watchlist pages' menu (issue 20): the watchlists, the anonymous check and the database, then the
 * way back to each area the user has.
 */
export function watchlistMenu(user: {
  roles: readonly string[];
  is_staff?: boolean;
  researcher?: { uuid: string } | null;
  vendor?: { active_count: number } | null;
}): readonly NavItem[] {
  const areas: NavItem[] = [];
  if (user.roles.includes("vendor"))
    areas.push({ label: "Vendor area", to: programsPathFor(user.vendor?.active_count) });
  areas.push(...researcherAreaLink(user.roles.includes("researcher") ? user.researcher?.uuid : null));
  if (user.is_staff) areas.push({ label: "Staff area", to: "/staff/reports" });
  return [
    WATCHLISTS_LINK,
    { label: "Check your site", to: "/database/check" },
    { label: "Database", to: "/database", exact: true },
    ...areas,
    { label: "Account", to: ACCOUNT_PATH },
  ];
}
