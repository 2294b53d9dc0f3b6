// Over 400 lines on purpose: the file is one table, every page × every actor, and reads best whole.
import { type APIRequestContext, expect, test } from "@playwright/test";
import routeTable from "../apps/web/app/routes.ts";
import { csrfHeaderOf, mailedLink, registerWithRequest, uniqueEmail } from "./auth-helpers.ts";
import { staffRequestContext } from "./staff-session.ts";

/**
 * The page authorization matrix (QUALITY.md, issues 4 and 8): every page of the route table
 * (apps/web/app/routes.ts) × the eight actors → the status the server answers a document request
 * with, or where it redirects (`maxRedirects: 0`). Guards: apps/web/app/lib/guards.server.ts.
 * The route list is computed from the route table itself, so a page added without a row fails.
 */
const ACTORS = [
  "anonymous",
  "researcher",
  "otherResearcher",
  "vendor",
  "vendorAdmin",
  "vendorMember",
  "otherVendor",
  "staff",
] as const;
type Actor = (typeof ACTORS)[number];
/** A status, or `302 → /location` for a redirect. */
type Cell = number | string;
/**
 * `vendor` is its organisation's owner; `vendorAdmin` and `vendorMember` hold seats in the same
 * organisation and answer as the owner unless a row says otherwise.
 */
type Expected = Omit<Record<Actor, Cell>, "vendorAdmin" | "vendorMember"> &
  Partial<Record<"vendorAdmin" | "vendorMember", Cell>>;
const withSeats = (expected: Expected): Record<Actor, Cell> => ({
  ...expected,
  vendorAdmin: expected.vendorAdmin ?? expected.vendor,
  vendorMember: expected.vendorMember ?? expected.vendor,
});

interface Context {
  /** The `researcher` actor's uuid: the researcher pages are visited at this actor's own uuid. */
  researcherUuid: string;
  otherResearcherUuid: string;
  /** A researcher credited in the seed data, with a public profile. */
  publicResearcherUuid: string;
  /** A report the `researcher` actor submitted (signed in) for this run. */
  researcherReportId: string;
}

interface Case {
  path: string | ((context: Context) => string);
  expected: (context: Context, path: string) => Expected;
}

const redirectTo = (location: string): Cell => `302 → ${location}`;
const all = (cell: Cell): Expected => Object.fromEntries(ACTORS.map((actor) => [actor, cell])) as Expected;
const SAMPLE_UUID = "4d4b1c0e-7d1a-4c8b-9a35-2f1e0c3b5a77";
/** A freshly registered vendor has no active program: its start page is the pending list. */
const VENDOR_HOME = "/vdp/programs/pending";
/** Staff accounts hold neither role: their start page is the triage queue. */
const STAFF_HOME = "/staff/reports";
const researcherHome = (uuid: string) => `/researchers/${uuid}/in-review`;
/** A report the `researcher` actor submits signed in (no e-mail, no captcha): a new lobby product. */
const MATRIX_REPORT = {
  kind: "plugin",
  product_slug: `page-matrix-${Date.now().toString(36)}`,
  product_name: "Page matrix plugin",
  affected_version_prefix: "<=",
  affected_version: "1.0.0",
  vulnerability_type: 2,
  owasp_category: 43,
  required_privilege: 2,
  title: "Page matrix reflected XSS",
  description: "A parameter is echoed back without escaping on the settings page.",
  steps_to_reproduce: "Open the settings page with the payload in the tab parameter.",
  proof_of_concept: "/wp-admin/options-general.php?page=matrix&tab=<svg onload=alert(1)>",
};

/** Open to everyone, signed in or not. */
const open = (): Expected => all(200);
const notFound = (): Expected => all(404);
/** guest-vendor / guest-researcher: signed-in visitors go to `redirect.onGuestOnly` (`/`). */
const guestOnly = (): Expected => ({ ...all(redirectTo("/")), anonymous: 200 });
/** auth-vendor: anonymous → the vendor login with a way back; no vendor role → their start page. */
const vendorArea = (context: Context, path: string): Expected => ({
  anonymous: redirectTo(`/vdp/login?redirect=${path}`),
  researcher: redirectTo(researcherHome(context.researcherUuid)),
  otherResearcher: redirectTo(researcherHome(context.otherResearcherUuid)),
  vendor: 200,
  otherVendor: 200,
  staff: redirectTo(STAFF_HOME),
});
/** `/vdp/create-account` once the vendor account is set up: on to the programs. */
const setUpDone = (context: Context, path: string): Expected => ({
  ...vendorArea(context, path),
  vendor: redirectTo(VENDOR_HOME),
  otherVendor: redirectTo(VENDOR_HOME),
});
/** `/researchers/create` once the profile is saved: on to the researcher's reports. */
const researcherSetUpDone = (context: Context, path: string): Expected => ({
  ...researcherArea(context, path),
  researcher: redirectTo(researcherHome(context.researcherUuid)),
  otherResearcher: redirectTo(researcherHome(context.otherResearcherUuid)),
});
/** A program page of a program that is none of the vendors' (spec §2): 404 "Page not found" for them. */
const noOnesProgram = (context: Context, path: string): Expected => ({
  ...vendorArea(context, path),
  vendor: 404,
  otherVendor: 404,
});
/** auth-researcher: anonymous → the researcher login with a way back; no researcher role → their start page. */
const researcherArea = (_context: Context, path: string): Expected => ({
  anonymous: redirectTo(`/researchers/login?redirect=${path}`),
  researcher: 200,
  otherResearcher: 200,
  vendor: redirectTo(VENDOR_HOME),
  otherVendor: redirectTo(VENDOR_HOME),
  staff: redirectTo(STAFF_HOME),
});
/**
 * The researcher's own pages (profile tabs, a report's preview): auth-researcher, then ownership in
 * the loader: another researcher gets "Page not found", as if the page did not exist.
 */
const ownResearcherPage = (context: Context, path: string): Expected => ({
  ...researcherArea(context, path),
  otherResearcher: 404,
});
/** A report that does not exist, or a preview link whose token the API refuses: 404 for everyone let in. */
const missingReport = (context: Context, path: string): Expected => ({
  ...researcherArea(context, path),
  researcher: 404,
  otherResearcher: 404,
});
/**
 * user-role + capability: staff with the second factor (the staff actor has it on); anonymous → the
 * vendor login with a way back; others → their start page. Staff without a second factor are sent to
 * /staff/two-factor (lib/guards.server.test.ts).
 */
const staffArea = (context: Context, path: string): Expected => ({
  anonymous: redirectTo(`/vdp/login?redirect=${path}`),
  researcher: redirectTo(researcherHome(context.researcherUuid)),
  otherResearcher: redirectTo(researcherHome(context.otherResearcherUuid)),
  vendor: redirectTo(VENDOR_HOME),
  otherVendor: redirectTo(VENDOR_HOME),
  staff: 200,
});
/**
 * user-role + capability `manage-vendor` (seats, subscription, forwarding, invoices): the owner and
 * admins; a member is sent to the account settings (issue 8).
 */
const vendorManagers = (context: Context, path: string): Expected => ({
  ...vendorArea(context, path),
  vendorMember: redirectTo("/vdp/account/settings"),
});
/** auth-user (issue 20): any signed-in user, whatever the roles; anonymous → the vendor login with a way back. */
const signedInArea = (_context: Context, path: string): Expected => ({
  ...all(200),
  anonymous: redirectTo(`/vdp/login?redirect=${path}`),
});
const page = (path: Case["path"], expected: Case["expected"]): Case => ({ path, expected });

/** One row per route pattern of the route table; several cases where the answer depends on the URL. */
const PAGES: Record<string, Case[]> = {
  // Spec §2 root redirect by role.
  "/": [
    page("/", (context) => ({
      anonymous: redirectTo("/vdp/login"),
      researcher: redirectTo(researcherHome(context.researcherUuid)),
      otherResearcher: redirectTo(researcherHome(context.otherResearcherUuid)),
      vendor: redirectTo(VENDOR_HOME),
      otherVendor: redirectTo(VENDOR_HOME),
      staff: redirectTo(STAFF_HOME),
    })),
  ],
  "/vdp/login": [page("/vdp/login", guestOnly)],
  "/researchers/login": [page("/researchers/login", guestOnly)],
  "/forgot-password": [page("/forgot-password", open)],
  "/reset-password/:token": [page("/reset-password/not-a-real-token", open)],
  // The mailed seat invitation: open to all; an unknown link answers 404 (a used or expired one 410).
  "/vdp/invitations/:token": [page("/vdp/invitations/not-a-real-token", notFound)],
  // Issue 19: it was open to signed-in users; it is for visitors, like the login pages.
  "/register": [page("/register", guestOnly)],
  // auth-vendor then is-vendor-active: the actors' accounts are set up (registerWithRequest), so the
  // set-up pages move them on to their start pages (a fresh account's stay: e2e/account-journeys.spec.ts).
  "/vdp/create-account": [page("/vdp/create-account", setUpDone)],
  "/researchers/create": [page("/researchers/create", researcherSetUpDone)],
  // The vendor embed: without a key, or with one no vendor has, "not available" (e2e/vendor-embed.spec.ts
  // opens a real vendor's).
  "/iframe/vendor": [
    page("/iframe/vendor", notFound),
    page(`/iframe/vendor?vendor=${SAMPLE_UUID}`, notFound),
  ],
  "/login/magic-link/:uuid": [page(`/login/magic-link/${SAMPLE_UUID}`, open)],
  // The mailed forwarding confirmation: opening it confirms nothing (the page POSTs), so it is open to all.
  "/forwarding/confirm/:token": [page("/forwarding/confirm/not-a-real-token", open)],
  "/database/preview-email": [page("/database/preview-email", open)],
  "/dev/mail": [page("/dev/mail", open)],
  // check-token-vendor / check-token-researcher: a shared link's token opens the page to anyone.
  "/vdp/vulnerabilities/:uuid/preview": [
    page(`/vdp/vulnerabilities/${SAMPLE_UUID}/preview`, vendorArea),
    page(`/vdp/vulnerabilities/${SAMPLE_UUID}/preview?token=shared-link-token`, open),
  ],
  // The preview loads the report in its loader: the API answers only its researcher (or a valid
  // link token), anything else is "Page not found".
  "/researchers/reports/:uuid/preview": [
    page((c) => `/researchers/reports/${c.researcherReportId}/preview`, ownResearcherPage),
    page(`/researchers/reports/${SAMPLE_UUID}/preview`, missingReport),
    page(`/researchers/reports/${SAMPLE_UUID}/preview?token=shared-link-token`, notFound),
  ],

  // Public database: the same answer for everyone.
  "/database": [page("/database", open)],
  "/database/existing": [page("/database/existing", open)],
  "/database/check": [page("/database/check", open)],
  "/database/vdp": [page("/database/vdp", open)],
  "/database/researchers/:uuid": [
    page(({ publicResearcherUuid }) => `/database/researchers/${publicResearcherUuid}`, open),
    page(`/database/researchers/${SAMPLE_UUID}`, notFound),
  ],
  "/database/leaderboard/:type?": [
    page("/database/leaderboard", open),
    page("/database/leaderboard/all-time", open),
    page("/database/leaderboard/no-such-board", notFound),
  ],
  "/database/statistics/:platform/:timeframe?": [
    page("/database/statistics/wordpress", open),
    page("/database/statistics/wordpress/2025", open),
  ],
  "/database/about-data": [page("/database/about-data", open)],
  "/database/api": [page("/database/api", open)],
  "/database/:platform/:kind/:product/vulnerability/:slug": [
    page(
      "/database/wordpress/plugin/contact-form-7/vulnerability/contact-form-7-5-9-4-unauthenticated-open-redirect-953be831",
      open,
    ),
    page("/database/wordpress/plugin/contact-form-7/vulnerability/some-vulnerability", notFound),
  ],
  "/database/:platform/:kind/:product/vulnerabilities/vdp": [
    page("/database/wordpress/plugin/contact-form-7/vulnerabilities/vdp", open),
    page("/database/wordpress/plugin/no-such-plugin-anywhere/vulnerabilities/vdp", notFound),
  ],
  "/database/:platform/:kind/:product/security-policy/vdp": [
    page("/database/wordpress/plugin/contact-form-7/security-policy/vdp", open),
  ],
  "/database/:platform/:kind/:product/security-contributors/vdp": [
    page("/database/wordpress/plugin/contact-form-7/security-contributors/vdp", open),
  ],
  "/database/report": [page("/database/report", open)],
  "/database/report/:platform/:kind/:slug": [page("/database/report/wordpress/plugin/contact-form-7", open)],
  "/database/report-submitted": [page("/database/report-submitted", open)],
  "/database/patch-submitted": [page("/database/patch-submitted", open)],
  "/database/report-preview/:uuid/pin": [page(`/database/report-preview/${SAMPLE_UUID}/pin`, open)],
  "/database/report-preview/:uuid/preview": [page(`/database/report-preview/${SAMPLE_UUID}/preview`, open)],

  // Vendor area (auth-vendor).
  "/vdp/programs/all": [page("/vdp/programs/all", vendorArea)],
  "/vdp/programs/open": [page("/vdp/programs/open", vendorArea)],
  "/vdp/programs/pending": [page("/vdp/programs/pending", vendorArea)],
  // Spec §2: a non-numeric id is "Page not found" for everyone, before any guard. A numeric id
  // renders the page, which loads the program in the browser (unknown or another vendor's: an
  // in-page state, not a 404 status).
  "/vdp/programs/:id": [page("/vdp/programs/42", noOnesProgram), page("/vdp/programs/abc", notFound)],
  "/vdp/programs/:id/edit": [
    page("/vdp/programs/42/edit", noOnesProgram),
    page("/vdp/programs/12x/edit", notFound),
  ],
  "/vdp/start-program": [page("/vdp/start-program", vendorArea)],
  "/vdp/reports/awaiting_fix": [page("/vdp/reports/awaiting_fix", vendorArea)],
  "/vdp/reports/fix_pending": [page("/vdp/reports/fix_pending", vendorArea)],
  "/vdp/reports/fixed": [page("/vdp/reports/fixed", vendorArea)],
  "/vdp/account/settings": [page("/vdp/account/settings", vendorArea)],
  "/vdp/account/seats": [page("/vdp/account/seats", vendorManagers)],
  "/vdp/account/subscription": [page("/vdp/account/subscription", vendorManagers)],
  "/vdp/account/forward-reports": [page("/vdp/account/forward-reports", vendorManagers)],
  // The invoice loads in the loader: a number that is not the vendor's own is "Page not found"
  // (e2e/vendor-subscription.spec.ts opens a real one).
  "/vdp/account/invoices/:number": [
    page("/vdp/account/invoices/PG-2000-000001", (context, path) => ({
      ...vendorManagers(context, path),
      vendor: 404,
      vendorAdmin: 404,
      otherVendor: 404,
    })),
  ],

  // Researcher area (auth-researcher), at the `researcher` actor's own uuid.
  "/researchers/settings": [page("/researchers/settings", researcherArea)],
  "/researchers/:uuid/in-review": [
    page((c) => `/researchers/${c.researcherUuid}/in-review`, ownResearcherPage),
  ],
  "/researchers/:uuid/rejected": [
    page((c) => `/researchers/${c.researcherUuid}/rejected`, ownResearcherPage),
  ],
  "/researchers/:uuid/published": [
    page((c) => `/researchers/${c.researcherUuid}/published`, ownResearcherPage),
  ],
  "/researchers/:uuid/validated": [
    page((c) => `/researchers/${c.researcherUuid}/validated`, ownResearcherPage),
  ],

  // Watchlists (auth-user). A watchlist id loads in the browser: another user's or an unknown one is an
  // in-page "not found" (e2e/watchlists.spec.ts).
  "/watchlists": [page("/watchlists", signedInArea)],
  "/watchlists/:id": [page(`/watchlists/${SAMPLE_UUID}`, signedInArea)],
  // The account page (auth-user, issue 38): sessions, API keys, password, two-factor for every account.
  "/account": [page("/account", signedInArea)],

  // Staff area (user-role, capability). A report id loads in the browser: unknown is an in-page state.
  "/staff/reports": [page("/staff/reports", staffArea), page("/staff/reports?status=in_review", staffArea)],
  "/staff/reports/:uuid": [page(`/staff/reports/${SAMPLE_UUID}`, staffArea)],
  "/staff/claims": [page("/staff/claims", staffArea)],
  "/staff/vendors": [page("/staff/vendors", staffArea), page("/staff/vendors?q=acme", staffArea)],
  "/staff/data-sources": [page("/staff/data-sources", staffArea)],
  "/staff/two-factor": [page("/staff/two-factor", staffArea)],

  // Every other path.
  "/*": [page("/no-such-page", notFound), page("/vdp/no-such-page", notFound)],
};

interface RouteEntry {
  path?: string;
  index?: boolean;
  children?: RouteEntry[];
}

/** The full path of every page of the route table (layouts without a path contribute none). */
function pagePatterns(entries: readonly RouteEntry[], parent = ""): string[] {
  return entries.flatMap((entry) => {
    const path = entry.path === undefined ? parent : `${parent.replace(/\/$/, "")}/${entry.path}`;
    const own = entry.index || entry.path !== undefined ? [path || "/"] : [];
    return [...own, ...pagePatterns(entry.children ?? [], path)];
  });
}

/** What a document request gets: its status, or `status → location` (same-origin path) for a redirect. */
async function answerOf(request: APIRequestContext, baseURL: string, path: string): Promise<Cell> {
  const response = await request.get(path, { maxRedirects: 0, headers: { accept: "text/html" } });
  const status = response.status();
  if (status < 300 || status >= 400) return status;
  const location = new URL(response.headers().location ?? "", baseURL);
  const target =
    location.origin === new URL(baseURL).origin ? `${location.pathname}${location.search}` : location.href;
  return `${status} → ${decodeURIComponent(target)}`;
}

/** `owner` invites a new address with `role`; the invitee accepts by creating an account in `joiner`. */
async function joinAs(owner: APIRequestContext, joiner: APIRequestContext, role: "admin" | "member") {
  const email = uniqueEmail(`matrix-${role}`);
  const invited = await owner.post("/api/vendor/invitations", {
    headers: await csrfHeaderOf(owner),
    data: { email, role },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const link = await mailedLink(owner, email, /https?:\/\/\S+\/vdp\/invitations\/[A-Za-z0-9_-]+/);
  const token = new URL(link).pathname.split("/").pop() ?? "";
  const joined = await joiner.post(`/api/invitations/${token}/account`, {
    headers: await csrfHeaderOf(joiner),
    data: { name: `Matrix ${role}`, password: "correct horse battery" },
  });
  expect(joined.status(), await joined.text()).toBeLessThan(300);
  expect((await (await joiner.get("/api/user")).json()).vendor?.role).toBe(role);
}

test("every page of the route table answers each actor as expected", async ({
  playwright,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const base = baseURL ?? "";

  const patterns = pagePatterns(routeTable as readonly RouteEntry[]);
  expect(patterns.length).toBeGreaterThan(40);
  const missing = patterns.filter((pattern) => !(pattern in PAGES));
  const stale = Object.keys(PAGES).filter((pattern) => !patterns.includes(pattern));
  expect.soft(missing, "add a row to PAGES in e2e/page-authorization.spec.ts").toEqual([]);
  expect.soft(stale, "rows for routes that no longer exist").toEqual([]);

  // The actors: accounts made through the API, each in its own cookie jar.
  const contexts: APIRequestContext[] = [];
  const signedIn = async () => {
    const context = await playwright.request.newContext({ baseURL: base });
    contexts.push(context);
    return context;
  };
  try {
    const callers = { anonymous: request } as Record<Actor, APIRequestContext>;
    callers.researcher = await signedIn();
    callers.otherResearcher = await signedIn();
    callers.vendor = await signedIn();
    callers.otherVendor = await signedIn();
    callers.staff = (await staffRequestContext(base)).request;
    contexts.push(callers.staff);
    const researcher = await registerWithRequest(callers.researcher, "researcher");
    const otherResearcher = await registerWithRequest(callers.otherResearcher, "researcher");
    await registerWithRequest(callers.vendor, "vendor");
    await registerWithRequest(callers.otherVendor, "vendor");
    // Two seats in the owner's organisation (premium: more than the free plan's two).
    const upgraded = await callers.vendor.post("/api/vendor/subscription", {
      headers: await csrfHeaderOf(callers.vendor),
      data: { plan: "premium" },
    });
    expect(upgraded.status(), await upgraded.text()).toBe(200);
    callers.vendorAdmin = await signedIn();
    callers.vendorMember = await signedIn();
    await joinAs(callers.vendor, callers.vendorAdmin, "admin");
    await joinAs(callers.vendor, callers.vendorMember, "member");
    // Made by `user:create --staff` before the server started (playwright.config.ts); signed in
    // with the second factor the staff pages need (the run's shared staff session).
    const staffUser = await (await callers.staff.get("/api/user")).json();
    expect(staffUser).toMatchObject({ is_staff: true, two_factor_enabled: true, roles: [] });

    const leaderboard = await (await request.get("/api/v1/leaderboard/all-time")).json();
    // A report needs a confirmed address: the researcher actor opens its mailed verification link.
    const researcherEmail = (await (await callers.researcher.get("/api/user")).json()).email as string;
    await callers.researcher.get(
      await mailedLink(request, researcherEmail, /https?:\/\/\S+\/api\/email\/verify\/\S+/),
    );
    expect((await (await callers.researcher.get("/api/user")).json()).email_verified).toBe(true);
    const submitted = await callers.researcher.post("/api/reports", {
      headers: await csrfHeaderOf(callers.researcher),
      data: MATRIX_REPORT,
    });
    expect(submitted.status(), await submitted.text()).toBe(201);
    const context: Context = {
      researcherUuid: researcher.researcher?.uuid ?? "",
      otherResearcherUuid: otherResearcher.researcher?.uuid ?? "",
      publicResearcherUuid: leaderboard.data[0].uuid,
      researcherReportId: (await submitted.json()).id,
    };

    const expected: Record<string, Record<Actor, Cell>> = {};
    const actual: Record<string, Record<Actor, Cell>> = {};
    for (const [pattern, cases] of Object.entries(PAGES)) {
      for (const { path, expected: expectedFor } of cases) {
        const url = typeof path === "function" ? path(context) : path;
        const key = url === pattern ? url : `${pattern}  ${url}`;
        expected[key] = withSeats(expectedFor(context, url));
        const answers = await Promise.all(ACTORS.map((actor) => answerOf(callers[actor], base, url)));
        actual[key] = Object.fromEntries(ACTORS.map((actor, index) => [actor, answers[index]])) as Record<
          Actor,
          Cell
        >;
      }
    }
    expect(actual).toEqual(expected);
  } finally {
    for (const context of contexts) await context.dispose();
  }
});
