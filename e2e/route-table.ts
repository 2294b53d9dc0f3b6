/**
 * One concrete URL for every route of the route table (apps/web/app/routes.ts, spec §2), with the
 * heading its page shows. Parameters use real seed data where a later issue will read them.
 */
export const ROUTES: { path: string; heading: string }[] = [
  { path: "/register", heading: "Create account" },
  { path: "/vdp/login", heading: "Vendor login" },
  { path: "/researchers/login", heading: "Researcher login" },
  { path: "/forgot-password", heading: "Forgot your password?" },
  { path: "/reset-password/not-a-real-token", heading: "Choose a new password" },
  { path: "/dev/mail", heading: "Development mailbox" },
  // /iframe/vendor needs a vendor's public key (404 without one): e2e/vendor-embed.spec.ts.
  { path: "/login/magic-link/4d4b1c0e-7d1a-4c8b-9a35-2f1e0c3b5a77", heading: "Sign in with a link" },
  { path: "/database", heading: "Vulnerability database" },
  { path: "/database/existing", heading: "Check before you report" },
  { path: "/database/check", heading: "Check your site" },
  { path: "/database/vdp", heading: "Active VDP directory" },
  { path: "/database/report", heading: "Report a vulnerability" },
  { path: "/database/report-submitted", heading: "Report submitted" },
  { path: "/database/patch-submitted", heading: "Patch submitted" },
  { path: "/database/preview-email", heading: "Check your inbox" },
  { path: "/database/leaderboard", heading: "Leaderboard" },
  { path: "/database/leaderboard/all-time", heading: "Leaderboard" },
  {
    path: "/database/report-preview/4d4b1c0e-7d1a-4c8b-9a35-2f1e0c3b5a77/pin",
    heading: "Enter the report PIN",
  },
  {
    path: "/database/report-preview/4d4b1c0e-7d1a-4c8b-9a35-2f1e0c3b5a77/preview",
    heading: "Report preview",
  },
  {
    path: "/database/report/wordpress/plugin/contact-form-7",
    heading: "Report a vulnerability in Contact Form 7",
  },
  { path: "/database/statistics/wordpress", heading: "WordPress vulnerability statistics" },
  { path: "/database/statistics/wordpress/2025", heading: "WordPress vulnerability statistics" },
  { path: "/database/about-data", heading: "About the data" },
  { path: "/database/api", heading: "Database API" },
  {
    path: "/database/wordpress/plugin/contact-form-7/security-policy/vdp",
    heading: "Contact Form 7 \u2014 Security policy",
  },
  {
    path: "/database/wordpress/plugin/contact-form-7/vulnerabilities/vdp",
    heading: "Contact Form 7 \u2014 Product vulnerabilities",
  },
  {
    path: "/database/wordpress/plugin/contact-form-7/vulnerability/contact-form-7-5-9-4-unauthenticated-open-redirect-953be831",
    heading: "Contact Form 7 <= 5.9.4 - Unauthenticated Open Redirect",
  },
  {
    path: "/database/wordpress/plugin/contact-form-7/security-contributors/vdp",
    heading: "Contact Form 7 \u2014 Security contributors",
  },
  { path: "/vdp/programs/all", heading: "Programs \u2014 All" },
  { path: "/vdp/programs/open", heading: "Programs \u2014 Open" },
  { path: "/vdp/programs/pending", heading: "Programs \u2014 Pending" },
  { path: "/vdp/programs/42", heading: "Program #42" },
  { path: "/vdp/programs/42/edit", heading: "Edit program #42" },
  { path: "/vdp/start-program", heading: "Start a program" },
  { path: "/vdp/create-account", heading: "Set up your vendor account" },
  { path: "/vdp/reports/awaiting_fix", heading: "Reports \u2014 Awaiting fix" },
  { path: "/vdp/reports/fix_pending", heading: "Reports \u2014 Fix pending" },
  { path: "/vdp/reports/fixed", heading: "Reports \u2014 Fixed" },
  { path: "/vdp/account/settings", heading: "Account settings" },
  { path: "/vdp/account/seats", heading: "Seats" },
  { path: "/vdp/account/subscription", heading: "Subscription" },
  { path: "/vdp/account/forward-reports", heading: "Report forwarding" },
  {
    path: "/vdp/vulnerabilities/4d4b1c0e-7d1a-4c8b-9a35-2f1e0c3b5a77/preview",
    heading: "Vulnerability preview",
  },
  { path: "/researchers/create", heading: "Create your researcher profile" },
  { path: "/researchers/settings", heading: "Account settings" },
  {
    path: "/researchers/4d4b1c0e-7d1a-4c8b-9a35-2f1e0c3b5a77/in-review",
    heading: "My reports \u2014 In review",
  },
  {
    path: "/researchers/4d4b1c0e-7d1a-4c8b-9a35-2f1e0c3b5a77/rejected",
    heading: "My reports \u2014 Rejected",
  },
  {
    path: "/researchers/4d4b1c0e-7d1a-4c8b-9a35-2f1e0c3b5a77/published",
    heading: "My reports \u2014 Published",
  },
  {
    path: "/researchers/4d4b1c0e-7d1a-4c8b-9a35-2f1e0c3b5a77/validated",
    heading: "My reports \u2014 Validated",
  },
  { path: "/researchers/reports/4d4b1c0e-7d1a-4c8b-9a35-2f1e0c3b5a77/preview", heading: "Report preview" },
  { path: "/watchlists", heading: "Watchlists" },
  // Every signed-in account's sessions, API keys, password and two-factor (issue 38).
  { path: "/account", heading: "Your account" },
  // No one's watchlist: the page loads it in the browser and says so (e2e/watchlists.spec.ts opens a real one).
  { path: "/watchlists/4d4b1c0e-7d1a-4c8b-9a35-2f1e0c3b5a77", heading: "Watchlist not found" },
  { path: "/staff/reports", heading: "Reports queue" },
  { path: "/staff/reports/4d4b1c0e-7d1a-4c8b-9a35-2f1e0c3b5a77", heading: "Report" },
  { path: "/staff/claims", heading: "Product claims" },
  { path: "/staff/two-factor", heading: "Set up two-factor authentication" },
];
