import { index, layout, prefix, type RouteConfig, route } from "@react-router/dev/routes";

/**
 * The route table of the specification (§2), one line per route, grouped by the layout that frames
 * it. Guards (§6) are declared in each route module's `handle` and named in the comments here.
 * Page titles fall back to the last path segment (lib/seo.ts); unknown paths end in the last route.
 */
export default [
  // Root: redirects by role (anonymous → /vdp/login).
  index("routes/home.tsx"),

  // General routes
  layout("layouts/login.tsx", [
    route("vdp/login", "routes/vdp/login.tsx"), // guest-vendor
    route("researchers/login", "routes/researchers/login.tsx"), // guest-researcher
    route("forgot-password", "routes/forgot-password.tsx"), // password reset request (PRODUCT.md §7)
    route("reset-password/:token", "routes/reset-password.tsx"), // the mailed reset link
    route("vdp/invitations/:token", "routes/vdp/invitation.tsx"), // no guard: the mailed seat invitation
  ]),
  layout("layouts/create-account.tsx", [
    route("register", "routes/register.tsx"),
    route("vdp/create-account", "routes/vdp/create-account.tsx"), // auth-vendor, is-vendor-active
    route("researchers/create", "routes/researchers/create.tsx"), // auth-researcher
  ]),
  layout("layouts/form-embed.tsx", [route("iframe/vendor", "routes/iframe/vendor.tsx")]),
  layout("layouts/empty.tsx", [
    route("login/magic-link/:uuid", "routes/login/magic-link.tsx"), // no guard
    route("database/preview-email", "routes/database/preview-email.tsx"),
    route("dev/mail", "routes/dev/mail.tsx"), // development mailbox; 404 when switched off
    route("forwarding/confirm/:token", "routes/forwarding-confirm.tsx"), // no guard; the page POSTs the token
    route("vdp/account/invoices/:number", "routes/vdp/invoice.tsx"), // printable invoice; owner/admin, own only
  ]),
  layout("layouts/simple-preview.tsx", [
    route("vdp/vulnerabilities/:uuid/preview", "routes/vdp/vulnerability-preview.tsx"), // check-token-vendor
    route("researchers/reports/:uuid/preview", "routes/researchers/report-preview.tsx"), // check-token-researcher
  ]),

  // Public database
  ...prefix("database", [
    layout("layouts/database.tsx", [
      index("routes/database/home.tsx"),
      route("existing", "routes/database/existing.tsx"),
      route("check", "routes/database/check.tsx"),
      route("vdp", "routes/database/vdp-directory.tsx"),
      route("researchers/:uuid", "routes/database/researcher-profile.tsx"),
      route("leaderboard/:type?", "routes/database/leaderboard.tsx"),
      route("statistics/:platform/:timeframe?", "routes/database/statistics.tsx"),
      route("about-data", "routes/database/about-data.tsx"),
      route("api", "routes/database/api-docs.tsx"),
      route(":platform/:kind/:product/vulnerability/:slug", "routes/database/vulnerability.tsx"),
      layout("layouts/plugin-tabs.tsx", [
        route(":platform/:kind/:product/vulnerabilities/vdp", "routes/database/product-vulnerabilities.tsx"),
        route(":platform/:kind/:product/security-policy/vdp", "routes/database/product-security-policy.tsx"),
        route(
          ":platform/:kind/:product/security-contributors/vdp",
          "routes/database/product-contributors.tsx",
        ),
      ]),
    ]),
    layout("layouts/database-report.tsx", [
      route("report", "routes/database/report.tsx"),
      route("report/:platform/:kind/:slug", "routes/database/report-product.tsx"),
      route("report-submitted", "routes/database/report-submitted.tsx"),
      route("patch-submitted", "routes/database/patch-submitted.tsx"),
    ]),
    layout("layouts/report.tsx", [
      route("report-preview/:uuid/pin", "routes/database/report-preview-pin.tsx"),
      route("report-preview/:uuid/preview", "routes/database/report-preview.tsx"),
    ]),
  ]),

  // Vendor area (auth-vendor)
  layout("layouts/vendor.tsx", [
    ...prefix("vdp", [
      layout("layouts/program-tabs.tsx", [
        route("programs/all", "routes/vdp/programs.tsx", { id: "routes/vdp/programs-all" }),
        route("programs/open", "routes/vdp/programs.tsx", { id: "routes/vdp/programs-open" }),
        route("programs/pending", "routes/vdp/programs.tsx", { id: "routes/vdp/programs-pending" }),
      ]),
      route("programs/:id", "routes/vdp/program.tsx"), // digits only, else 404
      route("programs/:id/edit", "routes/vdp/program-edit.tsx"), // digits only, else 404
      route("start-program", "routes/vdp/start-program.tsx"),
      layout("layouts/report-tabs.tsx", [
        route("reports/awaiting_fix", "routes/vdp/reports.tsx", { id: "routes/vdp/reports-awaiting-fix" }),
        route("reports/fix_pending", "routes/vdp/reports.tsx", { id: "routes/vdp/reports-fix-pending" }),
        route("reports/fixed", "routes/vdp/reports.tsx", { id: "routes/vdp/reports-fixed" }),
      ]),
      layout("layouts/settings-tabs.tsx", [
        route("account/settings", "routes/vdp/account-settings.tsx"),
        route("account/seats", "routes/vdp/account-seats.tsx"),
        route("account/subscription", "routes/vdp/account-subscription.tsx"),
        route("account/forward-reports", "routes/vdp/account-forward-reports.tsx"),
      ]),
    ]),
  ]),

  // Staff area (PRODUCT.md §1; user-role, capability: staff with the second factor)
  layout("layouts/staff.tsx", [
    ...prefix("staff", [
      route("reports", "routes/staff/reports.tsx"),
      route("reports/:uuid", "routes/staff/report.tsx"),
      route("claims", "routes/staff/claims.tsx"),
      route("vendors", "routes/staff/vendors.tsx"), // find vendors, change a plan by hand
      route("data-sources", "routes/staff/data-sources.tsx"), // upstream feeds: state, "Sync now"
      route("two-factor", "routes/staff/two-factor.tsx"), // user-role only: where staff set it up
    ]),
  ]),

  // Researcher area (auth-researcher), the watchlists and every other path
  layout("layouts/base.tsx", [
    route("researchers/settings", "routes/researchers/settings.tsx"),
    // Any signed-in user (auth-user): a site owner's home (issue 20).
    route("watchlists", "routes/watchlists/index.tsx"),
    route("watchlists/:id", "routes/watchlists/detail.tsx"),
    // Any signed-in user (auth-user): sessions, API keys, password, two-factor (issue 38).
    route("account", "routes/account.tsx"),
    layout("layouts/profile-tabs.tsx", [
      route("researchers/:uuid/in-review", "routes/researchers/reports.tsx", {
        id: "routes/researchers/in-review",
      }),
      route("researchers/:uuid/rejected", "routes/researchers/reports.tsx", {
        id: "routes/researchers/rejected",
      }),
      route("researchers/:uuid/published", "routes/researchers/reports.tsx", {
        id: "routes/researchers/published",
      }),
      route("researchers/:uuid/validated", "routes/researchers/reports.tsx", {
        id: "routes/researchers/validated",
      }),
    ]),
    route("*", "routes/not-found.tsx"), // 404 "Page not found"
  ]),
] satisfies RouteConfig;
