// One file on purpose (issue 16): one matrix of every API route × actor, checked to have a row per route.
import { API_KEY_PREFIX, API_KEY_SCOPES, type ApiKeyScope } from "@pressguard/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY_SCOPE_MESSAGE } from "./http/access.ts";
import { type ApiCaller, createApiCaller, registerUser, uniqueEmail } from "./test/api-client.ts";
import { createTestApp } from "./test/app.ts";
import { createSessionSecret, createStaffUser } from "./test/staff.ts";

/**
 * The authorization matrix (QUALITY.md): every API route × every actor → the expected status, in
 * one table. A route added without a row fails the first test.
 */
const ACTORS = ["anonymous", "researcher", "otherResearcher", "vendor", "otherVendor", "staff"] as const;
type Actor = (typeof ACTORS)[number];
type Expected = Record<Actor, number>;
/**
 * More seats of the `vendor` actor's organisation (`vendor` is its owner): an admin and a member.
 * Asked only by rows that name them (`managers`), so the other rows stay as they are.
 */
const SEAT_ACTORS = ["vendorAdmin", "vendorMember"] as const;
type SeatActor = (typeof SEAT_ACTORS)[number];
/**
 * One API key per scope the domain defines (decision 028), asked by every row. Each is made by the
 * account it acts for: the researcher actor (who owns the report and the watchlist), the vendor
 * actor for `vendor`. Where its scope opens the route (the row's `keys`) a key gets its owner's
 * answer, `read` anybody's (it is anonymous there); anywhere else 403, before the handler.
 */
type KeyActor = `${ApiKeyScope}Key`;
const KEY_OWNERS: Record<ApiKeyScope, "researcher" | "vendor"> = {
  read: "researcher",
  watchlists: "researcher",
  researcher: "researcher",
  vendor: "vendor",
};
const keyActorOf = (scope: ApiKeyScope): KeyActor => `${scope}Key`;
type AnyActor = Actor | SeatActor | KeyActor;

const all = (status: number): Expected =>
  Object.fromEntries(ACTORS.map((actor) => [actor, status])) as Expected;
const signedIn = (status: number): Expected => ({ ...all(status), anonymous: 401 });
/** Vendor routes: both vendors get `status` (each for its own organisation), everyone else is refused. */
const vendors = (status: number, otherVendor = status): Expected => ({
  ...all(403),
  anonymous: 401,
  vendor: status,
  otherVendor,
});
/** Owners and admins only (capability `manage-vendor`): the member of the organisation is refused. */
const managers = (status: number, otherVendor = status): Expected & Record<SeatActor, number> => ({
  ...vendors(status, otherVendor),
  vendorAdmin: status,
  vendorMember: 403,
});
const staffOnly = (status: number): Expected => ({ ...all(403), anonymous: 401, staff: status });
/** The owning vendor and staff act on a report; its researcher is refused; anyone else never sees it. */
const exploitationActors = (status: number): Expected => ({
  anonymous: 401,
  researcher: 403,
  otherResearcher: 404,
  vendor: status,
  otherVendor: 404,
  staff: status,
});

const program = (slug = `matrix-${Math.random().toString(36).slice(2, 10)}`) => ({
  kind: "plugin",
  name: "Matrix program",
  product_url: "https://matrix.example/p",
  slug,
  vendor_website_url: "https://matrix.example",
});
const MATRIX_PROGRAM_SLUG = "matrix-vendor-program";
const matrixReport = (slug = `matrix-lobby-${Math.random().toString(36).slice(2, 10)}`) => ({
  kind: "plugin",
  product_slug: slug,
  product_name: "Matrix plugin",
  affected_version_prefix: "<=",
  affected_version: "1.0.0",
  vulnerability_type: 2,
  owasp_category: 43,
  required_privilege: 2,
  title: "Matrix reflected XSS",
  description: "A parameter is echoed back without escaping on the settings page.",
  steps_to_reproduce: "Open the settings page with the payload in the tab parameter.",
  proof_of_concept: "/wp-admin/options-general.php?page=matrix&tab=<svg onload=alert(1)>",
});

interface Context {
  /** A live session of the researcher actor, made for this cell. */
  researcherSessionId: number;
  /** A program of the vendor actor's organisation. */
  vendorProgramId: number;
  /** A validated report by the researcher actor on the vendor actor's program. */
  reportId: string;
  /** A file the researcher attached to that report. */
  attachmentId: string;
  /** A watchlist of the researcher actor. */
  watchlistId: string;
  /** A member seat of the vendor actor's organisation (not an actor). */
  seatMemberId: number;
  /** For rows with `fresh`: a new member seat or open invitation of that organisation, per cell. */
  freshId: number;
}

interface Row {
  /** "public": every person, signed in or not, gets the same answer, and it is not 401, 403 or 5xx. */
  expected: (Expected & Partial<Record<SeatActor, number>>) | "public";
  /** The API key scopes that open the route (any one); none unless named. */
  keys?: readonly ApiKeyScope[];
  url?: (context: Context) => string;
  body?: () => unknown;
  /** Each cell gets its own seat or invitation to remove (`context.freshId`). */
  fresh?: "seat" | "invitation";
  /** The call gives up the caller's seat: the seat actors get theirs back after each cell. */
  leavesSeat?: true;
}

const READ = ["read"] as const;
const WATCHLISTS = ["watchlists"] as const;
const RESEARCHER = ["researcher"] as const;
const VENDOR = ["vendor"] as const;
/** The report routes a link's holder shares with the report's researcher and vendor. */
const READER = ["researcher", "vendor"] as const;

const SAMPLE_UUID = "00000000-0000-4000-8000-000000000000";
const sameForAll = (keys: readonly ApiKeyScope[], url?: string, body?: unknown): Row => ({
  expected: "public",
  keys,
  ...(url && { url: () => url }),
  ...(body !== undefined && { body: () => body }),
});
/** Public data: a `read` key reads it as anybody does. */
const publicRow = (url?: string, body?: unknown) => sameForAll(READ, url, body);
/** Public, but for people: a link, a PIN, a form's captcha. No key. */
const peopleRow = (url?: string, body?: unknown) => sameForAll([], url, body);
/** A file outside the API (no access level): it never reads the caller, so any key is anybody. */
const fileRow = (url?: string) => sameForAll(API_KEY_SCOPES, url);

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
const send = (caller: ApiCaller, method: Method, url: string, body?: unknown) =>
  method === "GET"
    ? caller.get(url)
    : method === "DELETE"
      ? caller.delete(url)
      : caller[method === "PUT" ? "put" : method === "PATCH" ? "patch" : "post"](url, body);

const MATRIX: Record<string, Row> = {
  // Public database
  "GET /api/public/footer/metrics": { expected: all(200), keys: READ },
  "GET /api/v1/vulnerabilities": publicRow(),
  "GET /api/v1/vulnerabilities/{id}": publicRow("/api/v1/vulnerabilities/1"),
  "GET /api/v1/osv/{id}": publicRow("/api/v1/osv/PG-1"),
  "GET /api/v1/statistics/counts": publicRow(),
  "GET /api/v1/products/{platform}/{kind}/{slug}": publicRow("/api/v1/products/wordpress/plugin/akismet"),
  "GET /api/products/{id}/vulnerabilities": publicRow("/api/products/1/vulnerabilities"),
  "GET /api/products/{id}/contributors": publicRow("/api/products/1/contributors"),
  "GET /api/v1/researchers/{uuid}": publicRow(`/api/v1/researchers/${SAMPLE_UUID}`),
  "GET /api/v1/researchers/{uuid}/vulnerabilities": publicRow(
    `/api/v1/researchers/${SAMPLE_UUID}/vulnerabilities`,
  ),
  "POST /api/v1/check": publicRow(undefined, {}),
  "GET /api/v1/leaderboard/{type}": publicRow("/api/v1/leaderboard/all-time"),
  "GET /api/v1/osv": publicRow(),
  "GET /api/v1/osv/all.zip": publicRow(),
  "GET /api/v1/osv/modified_id.csv": publicRow(),
  "GET /api/v1/csaf/{id}": publicRow("/api/v1/csaf/PG-1"),
  "GET /.well-known/csaf/provider-metadata.json": fileRow(),
  "GET /.well-known/csaf/feed-tlp-white.json": fileRow(),
  "GET /.well-known/csaf/feed-tlp-white-{year}-{part}.json": fileRow(
    "/.well-known/csaf/feed-tlp-white-2024-1.json",
  ),
  "GET /database/feed": fileRow(),
  "GET /database/{platform}/{kind}/{product}/feed": fileRow("/database/wordpress/plugin/akismet/feed"),
  // The site files (decision 026): the same for everyone, signed in or not.
  "GET /.well-known/security.txt": fileRow(),
  "GET /database/{platform}/{kind}/{product}/security.txt": fileRow(
    "/database/wordpress/plugin/matrix-vendor-program/security.txt",
  ),
  "GET /robots.txt": fileRow(),
  "GET /sitemap.xml": fileRow(),
  "GET /sitemap-pages.xml": fileRow(),
  "GET /sitemap-products-{page}.xml": fileRow("/sitemap-products-1.xml"),
  "GET /sitemap-vulnerabilities-{page}.xml": fileRow("/sitemap-vulnerabilities-1.xml"),
  "GET /api/v1/programs": publicRow(),
  "GET /api/v1/products": publicRow("/api/v1/products?q=akismet&kind=plugin"),
  "GET /api/v1/autocomplete": publicRow("/api/v1/autocomplete?q=akis"),
  "GET /api/v1/statistics/{platform}/{timeframe}": publicRow("/api/v1/statistics/wordpress/2025"),
  // Accounts
  "GET /api/csrf-cookie": { expected: all(204) },
  "POST /api/register": {
    expected: all(202),
    body: () => ({
      name: "New",
      email: uniqueEmail("matrix"),
      password: "long enough pw",
      role: "researcher",
    }),
  },
  "POST /api/login": {
    expected: all(422),
    body: () => ({ email: uniqueEmail(), password: "wrong password" }),
  },
  "POST /api/logout": { expected: signedIn(200) },
  "GET /api/user": { expected: signedIn(200) },
  "POST /api/user/roles": { expected: signedIn(200), body: () => ({ role: "researcher" }) },
  // Staff have their second factor on already.
  "POST /api/user/two-factor": { expected: { ...signedIn(200), staff: 409 } },
  // No enrolment was started, so a signed-in caller is told to start again.
  "POST /api/user/two-factor/confirm": { expected: signedIn(422), body: () => ({ code: "123456" }) },
  // Not on for these accounts; staff may never turn it off.
  "POST /api/user/two-factor/disable": {
    expected: { ...signedIn(422), staff: 403 },
    body: () => ({ code: "123456" }),
  },
  // A wrong current password: refused, nothing changes.
  "PUT /api/user/password": {
    expected: signedIn(422),
    body: () => ({ current_password: "not the password", password: "a long new password" }),
  },
  "GET /api/sessions": { expected: signedIn(200) },
  "DELETE /api/sessions/{id}": {
    // Only the owner may end a session; for anyone else it does not exist.
    expected: { ...all(404), anonymous: 401, researcher: 204 },
    url: ({ researcherSessionId }) => `/api/sessions/${researcherSessionId}`,
  },
  // A browser signed in in token mode: only its owner may sign it out; for anyone else it does not exist.
  "DELETE /api/tokens/{id}": {
    expected: { ...all(404), anonymous: 401 },
    url: () => "/api/tokens/2147483000",
  },
  // Named API keys (decision 028): any signed-in account may make a `read` key.
  "GET /api/api-keys": { expected: signedIn(200) },
  "POST /api/api-keys": {
    expected: signedIn(201),
    body: () => ({ name: "matrix", scopes: ["read"], expires_in_days: 30 }),
  },
  "POST /api/magic-link": { expected: all(202), body: () => ({ email: uniqueEmail() }) },
  "POST /api/magic-link/{uuid}": {
    expected: all(404),
    url: () => "/api/magic-link/00000000-0000-4000-8000-000000000000",
  },
  "GET /api/email/verify/{token}": { expected: all(303), url: () => "/api/email/verify/unknown" },
  "POST /api/email/verification-notification": { expected: signedIn(202) },
  "POST /api/password/forgot": { expected: all(202), body: () => ({ email: uniqueEmail() }) },
  "POST /api/password/reset": {
    expected: all(422),
    body: () => ({ token: "unknown", password: "long enough pw" }),
  },
  // The development mailbox is off unless DEV_MAILBOX=on (issue 15): it would sign anyone in.
  "GET /api/dev/mail": { expected: all(404) },
  // Vendor programs (decision 006): another vendor's program does not exist for the caller.
  "GET /api/products": { expected: vendors(200), keys: VENDOR },
  "GET /api/products/details": { expected: vendors(200), keys: VENDOR },
  "GET /api/products/lobby": { expected: vendors(200), keys: VENDOR },
  "GET /api/products/csv-template": { expected: vendors(200), keys: VENDOR },
  "POST /api/products/import-csv": {
    expected: vendors(415),
    keys: VENDOR,
    body: () => ({ file: "not multipart" }),
  },
  "GET /api/products/{id}": {
    expected: vendors(200, 404),
    keys: VENDOR,
    url: ({ vendorProgramId }) => `/api/products/${vendorProgramId}`,
  },
  "GET /api/products/{id}/edit": {
    expected: vendors(200, 404),
    keys: VENDOR,
    url: ({ vendorProgramId }) => `/api/products/${vendorProgramId}/edit`,
  },
  "POST /api/products": { expected: vendors(201), keys: VENDOR, body: () => program() },
  "POST /api/products/{id}": {
    expected: vendors(200, 404),
    keys: VENDOR,
    url: ({ vendorProgramId }) => `/api/products/${vendorProgramId}`,
    body: () => program(MATRIX_PROGRAM_SLUG),
  },
  "GET /api/products/{id}/policy": {
    expected: vendors(200, 404),
    keys: VENDOR,
    url: ({ vendorProgramId }) => `/api/products/${vendorProgramId}/policy`,
  },
  "POST /api/products/{id}/policy": {
    expected: vendors(200, 404),
    keys: VENDOR,
    url: ({ vendorProgramId }) => `/api/products/${vendorProgramId}/policy`,
    body: () => ({ security_contact_email: "psirt@matrix.example", support_ends_on: "2028-12-31" }),
  },
  "GET /api/products/{id}/user-notices": {
    expected: vendors(200, 404),
    keys: VENDOR,
    url: ({ vendorProgramId }) => `/api/products/${vendorProgramId}/user-notices`,
  },
  "POST /api/products/{id}/user-notices": {
    expected: vendors(201, 404),
    keys: VENDOR,
    url: ({ vendorProgramId }) => `/api/products/${vendorProgramId}/user-notices`,
    body: () => ({ message: "Update Matrix program to 2.0 now: 1.x lets anyone change settings." }),
  },
  "POST /api/products/{id}/activate-product": {
    expected: vendors(200, 404),
    keys: VENDOR,
    url: ({ vendorProgramId }) => `/api/products/${vendorProgramId}/activate-product`,
    body: () => ({ is_lobby_product: false }),
  },
  "GET /api/vendor/account": { expected: vendors(200), keys: VENDOR },
  "PUT /api/vendor/account": {
    expected: vendors(200),
    keys: VENDOR,
    body: () => ({
      vendor_name: "Matrix",
      contact_email: "security@matrix.example",
      contact_person: "Ann",
      timezone: "UTC",
    }),
  },
  // Seats (issue 8, modules/team/team.test.ts): another organisation's seat or invitation does not exist for it.
  "GET /api/vendor/members": { expected: managers(200), keys: VENDOR },
  "POST /api/vendor/invitations": {
    expected: managers(201),
    keys: VENDOR,
    body: () => ({ email: uniqueEmail("matrix-seat"), role: "member" }),
  },
  "DELETE /api/vendor/invitations/{id}": {
    expected: managers(204, 404),
    keys: VENDOR,
    url: ({ freshId }) => `/api/vendor/invitations/${freshId}`,
    fresh: "invitation",
  },
  "PUT /api/vendor/members/{userId}": {
    expected: managers(200, 404),
    keys: VENDOR,
    url: ({ seatMemberId }) => `/api/vendor/members/${seatMemberId}`,
    body: () => ({ role: "member" }),
  },
  // Leaving: any seat but the owner's (the owners of both organisations get 409).
  "DELETE /api/vendor/membership": {
    expected: { ...vendors(409), vendorAdmin: 204, vendorMember: 204 },
    keys: VENDOR,
    leavesSeat: true,
  },
  "DELETE /api/vendor/members/{userId}": {
    expected: managers(204, 404),
    keys: VENDOR,
    url: ({ freshId }) => `/api/vendor/members/${freshId}`,
    fresh: "seat",
  },
  // Invitation links: an unknown link is a 404 for everyone; accepting one needs a signed-in account.
  "GET /api/invitations/{token}": peopleRow("/api/invitations/unknown-link"),
  "POST /api/invitations/{token}/accept": {
    expected: signedIn(404),
    url: () => "/api/invitations/unknown-link/accept",
  },
  "POST /api/invitations/{token}/account": peopleRow("/api/invitations/unknown-link/account", {
    name: "Matrix",
    password: "long enough pw",
  }),
  // Subscription (issue 8, decision 011; modules/billing/billing.test.ts). Asking for the free plan changes
  // nothing here: the vendor actor's organisation is premium with more seats than Free allows, the other
  // vendor is already on Free, so every manager is told why (409).
  "GET /api/vendor/subscription": { expected: managers(200), keys: VENDOR },
  "POST /api/vendor/subscription": { expected: managers(409), keys: VENDOR, body: () => ({ plan: "free" }) },
  // No invoice has this number; another vendor's invoice is a 404 too (billing.test.ts).
  "GET /api/vendor/invoices/{number}": {
    expected: managers(404),
    keys: VENDOR,
    url: () => "/api/vendor/invoices/PG-2000-000001",
  },
  // Report forwarding (issue 8, modules/forwarding/targets.test.ts covers another vendor's real ids): no
  // target or delivery has these ids. The vendor actor's organisation is premium, the other one free.
  "GET /api/vendor/forwarding/targets": { expected: managers(200), keys: VENDOR },
  "POST /api/vendor/forwarding/targets/email": {
    expected: managers(201),
    keys: VENDOR,
    body: () => ({ email: uniqueEmail("matrix-forward") }),
  },
  "POST /api/vendor/forwarding/targets/webhook": {
    expected: { ...managers(201), otherVendor: 403 },
    keys: VENDOR,
    body: () => ({ url: "https://93.184.216.34/matrix-hook" }),
  },
  "PUT /api/vendor/forwarding/targets/{id}": {
    expected: managers(404),
    keys: VENDOR,
    url: () => "/api/vendor/forwarding/targets/999999",
    body: () => ({ events: [] }),
  },
  "DELETE /api/vendor/forwarding/targets/{id}": {
    expected: managers(404),
    keys: VENDOR,
    url: () => "/api/vendor/forwarding/targets/999999",
  },
  ...Object.fromEntries(
    ["resend-confirmation", "rotate-secret", "disable", "enable", "test"].map((action) => [
      `POST /api/vendor/forwarding/targets/{id}/${action}`,
      { expected: managers(404), keys: VENDOR, url: () => `/api/vendor/forwarding/targets/999999/${action}` },
    ]),
  ),
  "GET /api/vendor/forwarding/targets/{id}/deliveries": {
    expected: managers(404),
    keys: VENDOR,
    url: () => "/api/vendor/forwarding/targets/999999/deliveries",
  },
  "POST /api/vendor/forwarding/deliveries/{id}/redeliver": {
    expected: managers(404),
    keys: VENDOR,
    url: () => "/api/vendor/forwarding/deliveries/999999/redeliver",
  },
  // An unknown confirmation token is a 404 for everyone (delivery.test.ts confirms a real one).
  "POST /api/forwarding/confirm": peopleRow(undefined, { token: "unknown-token" }),
  // Reports (issue 7, decision 008): another researcher's or vendor's report does not exist for them.
  "GET /api/captcha/challenge": peopleRow(),
  // The vendor report form embed: public, the same for everyone (an unknown key is a 404 for all).
  "GET /api/v1/embed/vendors/{public_key}": publicRow(`/api/v1/embed/vendors/${SAMPLE_UUID}`),
  "POST /api/reports": {
    // Signed out with an e-mail (the captcha is off in tests); any signed-in account with a verified
    // e-mail reports as a researcher; an unverified one is refused (the other two actors).
    expected: { ...all(201), otherResearcher: 403, otherVendor: 403 },
    keys: RESEARCHER,
    body: () => ({ ...matrixReport(), email: uniqueEmail("matrix-report") }),
  },
  "GET /api/reports/{id}": {
    expected: {
      anonymous: 401,
      researcher: 200,
      otherResearcher: 404,
      vendor: 200,
      otherVendor: 404,
      staff: 200,
    },
    keys: READER,
    url: ({ reportId }) => `/api/reports/${reportId}`,
  },
  // An e-mailed link's token exchanged for a grant: answered by the token alone, never by the session.
  "GET /api/reports/{id}/link-grant": peopleRow(`/api/reports/${SAMPLE_UUID}/link-grant?token=not-a-token`),
  // The PIN preview (PRODUCT.md §2): public, answered by the PIN and its cookie, never by the session.
  "POST /api/report-previews/{id}/pin": peopleRow(`/api/report-previews/${SAMPLE_UUID}/pin`, {
    pin: "123456",
  }),
  "GET /api/report-previews/{id}": {
    expected: all(401),
    url: ({ reportId }) => `/api/report-previews/${reportId}`,
  },
  "POST /api/report-previews/{id}/patch": {
    expected: all(401),
    url: ({ reportId }) => `/api/report-previews/${reportId}/patch`,
    body: () => ({ fixed_version: "1.0.1", notes: "Fixed." }),
  },
  "POST /api/report-previews/{id}/comments": {
    expected: all(401),
    url: ({ reportId }) => `/api/report-previews/${reportId}/comments`,
    body: () => ({ body: "A PIN contact's comment." }),
  },
  // Attachments: the matrix sends JSON, so a signed-in caller is told to send multipart (attachments.test.ts).
  "POST /api/reports/{id}/attachments": {
    expected: signedIn(415),
    keys: RESEARCHER,
    url: ({ reportId }) => `/api/reports/${reportId}/attachments`,
    body: () => ({ file: "not multipart" }),
  },
  "GET /api/reports/{id}/attachments/{attachmentId}": {
    expected: {
      anonymous: 401,
      researcher: 200,
      otherResearcher: 404,
      vendor: 200,
      otherVendor: 404,
      staff: 200,
    },
    keys: READER,
    url: ({ reportId, attachmentId }) => `/api/reports/${reportId}/attachments/${attachmentId}`,
  },
  "GET /api/report-previews/{id}/attachments/{attachmentId}": {
    expected: all(401),
    url: ({ reportId, attachmentId }) => `/api/report-previews/${reportId}/attachments/${attachmentId}`,
  },
  // Fix zips: checked before the body is read. The report is validated, not yet awaiting a fix, so
  // its vendor's seats are told so; staff and the researcher read it but attach no fix.
  "POST /api/reports/{id}/fix-attachments": {
    expected: {
      anonymous: 401,
      researcher: 403,
      otherResearcher: 404,
      vendor: 409,
      otherVendor: 404,
      staff: 403,
      vendorAdmin: 409,
      vendorMember: 409,
    },
    keys: VENDOR,
    url: ({ reportId }) => `/api/reports/${reportId}/fix-attachments`,
    body: () => ({ file: "not multipart" }),
  },
  "POST /api/report-previews/{id}/fix-attachments": {
    expected: all(401),
    url: ({ reportId }) => `/api/report-previews/${reportId}/fix-attachments`,
    body: () => ({ file: "not multipart" }),
  },
  "POST /api/reports/{id}/comments": {
    expected: {
      anonymous: 401,
      researcher: 201,
      otherResearcher: 404,
      vendor: 201,
      otherVendor: 404,
      staff: 201,
    },
    keys: READER,
    url: ({ reportId }) => `/api/reports/${reportId}/comments`,
    body: () => ({ body: "A matrix comment." }),
  },
  // Only the report's researcher asks for a CVE id (issue 19); anyone else never sees the report.
  "POST /api/reports/{id}/cve-request": {
    expected: {
      anonymous: 401,
      researcher: 200,
      otherResearcher: 404,
      vendor: 404,
      otherVendor: 404,
      staff: 404,
    },
    keys: RESEARCHER,
    url: ({ reportId }) => `/api/reports/${reportId}/cve-request`,
  },
  // The CRA Article 14 clocks (issue 20): the owning vendor's seats and staff; the researcher reads
  // the report but may not (403); anyone else never sees it. Marked by the PUT row, in table order.
  "GET /api/reports/{id}/exploitation": {
    expected: exploitationActors(200),
    url: ({ reportId }) => `/api/reports/${reportId}/exploitation`,
  },
  "PUT /api/reports/{id}/exploitation": {
    expected: exploitationActors(200),
    url: ({ reportId }) => `/api/reports/${reportId}/exploitation`,
    body: () => ({ aware_at: new Date(Date.now() - 3_600_000).toISOString() }),
  },
  "POST /api/reports/{id}/exploitation/submissions": {
    expected: exploitationActors(200),
    url: ({ reportId }) => `/api/reports/${reportId}/exploitation/submissions`,
    body: () => ({ step: "early_warning" }),
  },
  "GET /api/reports/{id}/exploitation/csaf": {
    expected: exploitationActors(200),
    url: ({ reportId }) => `/api/reports/${reportId}/exploitation/csaf?step=notification`,
  },
  "GET /api/vendor/exploitation": { expected: vendors(200), keys: VENDOR },
  // Every signed-in actor holds the researcher role by now (POST /api/user/roles and POST /api/reports
  // above give it); each sees only their own reports (reports.test.ts).
  "GET /api/researcher/reports": { expected: signedIn(200), keys: RESEARCHER },
  // Watchlists (issue 20): any signed-in user keeps their own; another's answers 404 as an unknown one.
  "GET /api/watchlists": { expected: signedIn(200), keys: WATCHLISTS },
  "POST /api/watchlists": {
    expected: signedIn(201),
    keys: WATCHLISTS,
    body: () => ({ name: "matrix site" }),
  },
  "GET /api/watchlists/exposures": { expected: signedIn(200), keys: WATCHLISTS },
  "GET /api/watchlists/{id}": {
    expected: { ...signedIn(404), researcher: 200 },
    keys: WATCHLISTS,
    url: ({ watchlistId }) => `/api/watchlists/${watchlistId}`,
  },
  "PATCH /api/watchlists/{id}": {
    expected: { ...signedIn(404), researcher: 200 },
    keys: WATCHLISTS,
    url: ({ watchlistId }) => `/api/watchlists/${watchlistId}`,
    body: () => ({ alert_mode: "daily" }),
  },
  "PUT /api/watchlists/{id}/entries": {
    expected: { ...signedIn(404), researcher: 200 },
    keys: WATCHLISTS,
    url: ({ watchlistId }) => `/api/watchlists/${watchlistId}/entries`,
    body: () => ({ entries: [{ kind: "plugin", slug: "matrix-plugin", version: "1.0.1" }] }),
  },
  // The body of `wp plugin list --format=json`, read as text whatever its type (inventory.test.ts).
  "PUT /api/watchlists/{id}/inventory": {
    expected: { ...signedIn(404), researcher: 200 },
    keys: WATCHLISTS,
    url: ({ watchlistId }) => `/api/watchlists/${watchlistId}/inventory?kind=plugin`,
    body: () => [{ name: "matrix-plugin", status: "active", version: "1.0.1" }],
  },
  // Deleting is the owner's only (watchlists.test.ts); here nobody's watchlist is named.
  "DELETE /api/watchlists/{id}": {
    expected: signedIn(404),
    keys: WATCHLISTS,
    url: () => `/api/watchlists/${SAMPLE_UUID}`,
  },
  // Alert webhooks: the watchlist's owner only (a public IP literal: no DNS in the test).
  "GET /api/watchlists/{id}/webhooks": {
    expected: { ...signedIn(404), researcher: 200 },
    keys: WATCHLISTS,
    url: ({ watchlistId }) => `/api/watchlists/${watchlistId}/webhooks`,
  },
  "POST /api/watchlists/{id}/webhooks": {
    expected: { ...signedIn(404), researcher: 201 },
    keys: WATCHLISTS,
    url: ({ watchlistId }) => `/api/watchlists/${watchlistId}/webhooks`,
    body: () => ({ url: "https://93.184.216.34/hook", format: "slack" }),
  },
  // A webhook of the watchlist is its owner's alone (watchlists/webhooks.test.ts); here none is named.
  ...Object.fromEntries(
    ["enable", "disable", "test"].map((action) => [
      `POST /api/watchlists/{id}/webhooks/{webhookId}/${action}`,
      {
        expected: signedIn(404),
        keys: WATCHLISTS,
        url: ({ watchlistId }: Context) => `/api/watchlists/${watchlistId}/webhooks/2147483647/${action}`,
      } satisfies Row,
    ]),
  ),
  "GET /api/watchlists/{id}/webhooks/{webhookId}/deliveries": {
    expected: signedIn(404),
    keys: WATCHLISTS,
    url: ({ watchlistId }) => `/api/watchlists/${watchlistId}/webhooks/2147483647/deliveries`,
  },
  "DELETE /api/watchlists/{id}/webhooks/{webhookId}": {
    expected: signedIn(404),
    keys: WATCHLISTS,
    url: ({ watchlistId }) => `/api/watchlists/${watchlistId}/webhooks/2147483647`,
  },
  // Each caller reads and writes only their own profile (modules/researchers/profile.test.ts).
  "GET /api/researcher/profile": { expected: signedIn(200), keys: RESEARCHER },
  "PUT /api/researcher/profile": {
    expected: signedIn(200),
    keys: RESEARCHER,
    body: () => ({ display_name: "Matrix Researcher" }),
  },
  "GET /api/vendor/reports": { expected: vendors(200), keys: VENDOR },
  // The report is validated, not yet awaiting a fix: the vendor's seats are told so; staff and the
  // researcher read it but do not act for the vendor; anyone else never sees it. Signed out, only
  // with the vendor's e-mailed link (fix-submission.test.ts).
  "POST /api/vendor/reports/{id}/fix": {
    expected: {
      anonymous: 401,
      researcher: 403,
      otherResearcher: 404,
      vendor: 409,
      otherVendor: 404,
      staff: 403,
      vendorAdmin: 409,
      vendorMember: 409,
    },
    keys: VENDOR,
    url: ({ reportId }) => `/api/vendor/reports/${reportId}/fix`,
    body: () => ({ fixed_version: "1.0.1" }),
  },
  "GET /api/staff/reports": { expected: staffOnly(200) },
  "GET /api/staff/reports/{id}": {
    expected: staffOnly(200),
    url: ({ reportId }) => `/api/staff/reports/${reportId}`,
  },
  "POST /api/staff/reports/{id}/transitions": {
    expected: staffOnly(409),
    url: ({ reportId }) => `/api/staff/reports/${reportId}/transitions`,
    body: () => ({ action: "reject", reason: "invalid" }),
  },
  "GET /api/staff/reports/{id}/duplicate-candidates": {
    expected: staffOnly(200),
    url: ({ reportId }) => `/api/staff/reports/${reportId}/duplicate-candidates`,
  },
  "PUT /api/staff/reports/{id}/cve": {
    expected: staffOnly(200),
    url: ({ reportId }) => `/api/staff/reports/${reportId}/cve`,
    body: () => ({ cve: null }),
  },
  "GET /api/staff/product-claims": { expected: staffOnly(200) },
  "POST /api/staff/product-claims/{id}/approve": {
    expected: staffOnly(404),
    url: () => "/api/staff/product-claims/999999/approve",
  },
  "POST /api/staff/product-claims/{id}/reject": {
    expected: staffOnly(404),
    url: () => "/api/staff/product-claims/999999/reject",
    body: () => ({ reason: "Not the vendor." }),
  },
  "GET /api/staff/products/{id}/contact": {
    expected: staffOnly(404),
    url: () => "/api/staff/products/999999999/contact",
  },
  "PUT /api/staff/products/{id}/contact": {
    expected: staffOnly(404),
    url: () => "/api/staff/products/999999999/contact",
    body: () => ({ email: "matrix@example.test" }),
  },
  "GET /api/staff/data-sources": { expected: staffOnly(200) },
  // The matrix's app configures no data source: staff are told so (409).
  "POST /api/staff/data-sources/{source}/sync": {
    expected: staffOnly(409),
    url: () => "/api/staff/data-sources/wordfence/sync",
  },
  "GET /api/staff/vendors": { expected: staffOnly(200) },
  "POST /api/staff/vendors/{id}/plan": {
    expected: staffOnly(404),
    url: () => "/api/staff/vendors/999999/plan",
    body: () => ({ plan: "premium", note: "Matrix." }),
  },
};

describe("the authorization matrix", () => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  const userIds = {} as Record<Exclude<Actor | SeatActor, "anonymous">, number>;
  const keySecrets = {} as Record<ApiKeyScope, string>;
  let vendorId = 0;
  let seatMemberId = 0;
  let ipCounter = 0;
  let vendorProgramId = 0;
  let reportId = "";
  let attachmentId = "";
  let watchlistId = "";

  beforeAll(async () => {
    harness = await createTestApp();
    const app = harness.app;
    userIds.researcher = (await registerUser(app, { role: "researcher" })).user.id;
    userIds.otherResearcher = (await registerUser(app, { role: "researcher" })).user.id;
    userIds.vendor = (await registerUser(app, { role: "vendor" })).user.id;
    userIds.otherVendor = (await registerUser(app, { role: "vendor" })).user.id;
    userIds.staff = await createStaffUser(harness.database);
    vendorId =
      (
        await harness.database.sql.query<{ vendor_id: number }>(
          "select vendor_id from vendor_members where user_id = $1",
          [userIds.vendor],
        )
      ).rows[0]?.vendor_id ?? 0;
    // Room for the seat actors and the seats and invitations the cells add.
    await harness.database.sql.query("update vendors set plan = 'premium' where id = $1", [vendorId]);
    userIds.vendorAdmin = await addSeat("admin");
    userIds.vendorMember = await addSeat("member");
    seatMemberId = await addSeat("member");
    // Reports need a verified e-mail (PRODUCT.md); the other researcher and vendor stay unverified.
    await harness.database.sql.query("update users set email_verified_at = now() where id = any($1::int[])", [
      [userIds.researcher, userIds.staff],
    ]);
    const vendorCaller = createApiCaller(app, { ip: "10.98.0.1" });
    vendorCaller.cookies.set("pressguard_session", (await sessionFor(userIds.vendor)).secret);
    await harness.database.sql.query("update users set email_verified_at = now() where id = $1", [
      userIds.vendor,
    ]);
    vendorProgramId = (await vendorCaller.post("/api/products", program(MATRIX_PROGRAM_SLUG))).json<{
      id: number;
    }>().id;
    const researcherCaller = createApiCaller(app, { ip: "10.98.0.2" });
    researcherCaller.cookies.set("pressguard_session", (await sessionFor(userIds.researcher)).secret);
    reportId = (await researcherCaller.post("/api/reports", matrixReport(MATRIX_PROGRAM_SLUG))).json<{
      id: string;
    }>().id;
    const boundary = "----matrix-boundary";
    const attached = await researcherCaller.post(
      `/api/reports/${reportId}/attachments`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="poc.txt"\r\nContent-Type: text/plain\r\n\r\nproof\r\n--${boundary}--\r\n`,
      { headers: { "content-type": `multipart/form-data; boundary=${boundary}` } },
    );
    if (attached.statusCode !== 201)
      throw new Error(`matrix attachment: ${attached.statusCode} ${attached.body}`);
    attachmentId = attached.json<{ id: string }>().id;
    const watchlist = await researcherCaller.post("/api/watchlists", {
      name: "matrix.example",
      entries: [{ kind: "plugin", slug: "matrix-plugin", version: "1.0.0" }],
    });
    if (watchlist.statusCode !== 201)
      throw new Error(`matrix watchlist: ${watchlist.statusCode} ${watchlist.body}`);
    watchlistId = watchlist.json<{ id: string }>().id;
    const staffCaller = createApiCaller(app, { ip: "10.98.0.3" });
    staffCaller.cookies.set("pressguard_session", (await sessionFor(userIds.staff)).secret);
    for (const step of [
      { action: "take_into_review" },
      {
        action: "validate",
        vulnerability_type: 2,
        owasp_category: 43,
        required_privilege: 2,
        affected_version_prefix: "<=",
        affected_version: "1.0.0",
        cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N",
      },
    ]) {
      const moved = await staffCaller.post(`/api/staff/reports/${reportId}/transitions`, step);
      if (moved.statusCode !== 200) throw new Error(`matrix report: ${moved.statusCode} ${moved.body}`);
    }
    for (const scope of API_KEY_SCOPES) {
      const owner = createApiCaller(app, { ip: "10.98.0.4" });
      owner.cookies.set("pressguard_session", (await sessionFor(userIds[KEY_OWNERS[scope]])).secret);
      const created = await owner.post("/api/api-keys", {
        name: `matrix ${scope}`,
        scopes: [scope],
        expires_in_days: 30,
      });
      if (created.statusCode !== 201) throw new Error(`matrix key: ${created.statusCode} ${created.body}`);
      keySecrets[scope] = created.json<{ key: string }>().key;
    }
  });
  afterAll(() => harness.close());

  /** A new account with a seat of the vendor actor's organisation. */
  async function addSeat(role: "admin" | "member") {
    const { user } = await registerUser(harness.app, { role: "researcher" });
    await harness.database.sql.query(
      "insert into vendor_members (vendor_id, user_id, role) values ($1, $2, $3)",
      [vendorId, user.id, role],
    );
    return user.id;
  }

  async function addInvitation() {
    const { rows } = await harness.database.sql.query<{ id: number }>(
      `insert into vendor_invitations (vendor_id, email, token_hash, expires_at)
       values ($1, $2, md5(random()::text), now() + interval '7 days') returning id`,
      [vendorId, uniqueEmail("matrix-invited")],
    );
    return rows[0]?.id ?? 0;
  }

  /** A fresh session per cell, so a cell that signs out does not disturb the next one. */
  const sessionFor = (userId: number) => createSessionSecret(harness.database, userId);

  async function callerFor(actor: AnyActor): Promise<ApiCaller> {
    ipCounter += 1;
    const caller = createApiCaller(harness.app, {
      ip: `10.99.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`,
    });
    const scope = API_KEY_SCOPES.find((one) => keyActorOf(one) === actor);
    if (scope) caller.setBearer(keySecrets[scope]);
    else if (actor !== "anonymous")
      caller.cookies.set(
        "pressguard_session",
        (await sessionFor(userIds[actor as keyof typeof userIds])).secret,
      );
    return caller;
  }

  it("has a row for every API route", async () => {
    const document = (await harness.app.inject({ method: "GET", url: "/api/openapi.json" })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const routes = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const missing = routes.filter((route) => !(route in MATRIX));
    const stale = Object.keys(MATRIX).filter((route) => !routes.includes(route));
    expect(missing, "add a row to MATRIX in apps/server/src/authorization.test.ts").toEqual([]);
    expect(stale).toEqual([]);
  });

  it("refuses a key outside its scopes before the handler: an unknown id or an empty body gets the same 403", async () => {
    const letThrough: string[] = [];
    for (const [route, row] of Object.entries(MATRIX)) {
      const [method, path] = route.split(" ") as [Method, string];
      const url = path.replaceAll(/\{[^}]+\}/g, SAMPLE_UUID);
      for (const scope of API_KEY_SCOPES.filter((one) => !row.keys?.includes(one))) {
        const response = await send(await callerFor(keyActorOf(scope)), method, url, {});
        if (
          response.statusCode !== 403 ||
          response.json<{ message: string }>().message !== API_KEY_SCOPE_MESSAGE
        )
          letThrough.push(`${scope} ${route}: ${response.statusCode}`);
      }
    }
    expect(letThrough).toEqual([]);
  });

  it("answers 401 to an unknown or a revoked key on every API route, the public ones too", async () => {
    const owner = await callerFor("researcher");
    const created = await owner.post("/api/api-keys", {
      name: "revoked",
      scopes: ["read"],
      expires_in_days: 30,
    });
    const revoked = created.json<{ id: number; key: string }>();
    expect((await owner.delete(`/api/tokens/${revoked.id}`)).statusCode).toBe(204);
    const served: string[] = [];
    for (const secret of [revoked.key, `${API_KEY_PREFIX}${"x".repeat(43)}`]) {
      for (const route of Object.keys(MATRIX)) {
        const [method, path] = route.split(" ") as [Method, string];
        if (!path.startsWith("/api/")) continue;
        const caller = createApiCaller(harness.app, { ip: "10.97.0.3" });
        caller.setBearer(secret);
        const response = await send(caller, method, path.replaceAll(/\{[^}]+\}/g, SAMPLE_UUID), {});
        if (response.statusCode !== 401) served.push(`${route}: ${response.statusCode}`);
      }
    }
    expect(served).toEqual([]);
  });

  for (const [route, row] of Object.entries(MATRIX)) {
    it(`${route} answers each actor as expected`, async () => {
      const [method, path] = route.split(" ") as [Method, string];
      const actual: Partial<Record<AnyActor, number>> = {};
      const expected: Partial<Record<AnyActor, number>> = {};
      const expectations = row.expected;
      const seatActors = SEAT_ACTORS.filter((actor) => expectations !== "public" && actor in expectations);
      const keyActors = API_KEY_SCOPES.map(keyActorOf);
      for (const actor of [...ACTORS, ...seatActors, ...keyActors]) {
        const caller = await callerFor(actor);
        const context: Context = {
          researcherSessionId: (await sessionFor(userIds.researcher)).id,
          vendorProgramId,
          reportId,
          attachmentId,
          watchlistId,
          seatMemberId,
          freshId:
            row.fresh === "seat"
              ? await addSeat("member")
              : row.fresh === "invitation"
                ? await addInvitation()
                : 0,
        };
        const response = await send(caller, method, row.url?.(context) ?? path, row.body?.());
        actual[actor] = response.statusCode;
        if (row.leavesSeat && (actor === "vendorAdmin" || actor === "vendorMember"))
          await harness.database.sql.query(
            `insert into vendor_members (vendor_id, user_id, role) values ($1, $2, $3)
             on conflict (vendor_id, user_id) do nothing`,
            [vendorId, userIds[actor], actor === "vendorAdmin" ? "admin" : "member"],
          );
      }
      const answerOf = (actor: Actor | SeatActor) =>
        expectations === "public" ? actual.anonymous : expectations[actor];
      for (const actor of [...ACTORS, ...seatActors]) expected[actor] = answerOf(actor);
      for (const scope of API_KEY_SCOPES)
        expected[keyActorOf(scope)] = row.keys?.includes(scope)
          ? answerOf(scope === "read" ? "anonymous" : KEY_OWNERS[scope])
          : 403;
      if (expectations === "public") {
        expect([401, 403]).not.toContain(actual.anonymous);
        expect(actual.anonymous).toBeLessThan(500);
      }
      expect(actual).toEqual(expected);
    });
  }
});
