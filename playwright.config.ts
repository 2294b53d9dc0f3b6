import { chmodSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";

/**
 * End-to-end tests drive Debian's Chromium against the production build served by the real server
 * (`npm run build` first). The server gets its own throwaway embedded database, seeded on start,
 * unless E2E_BASE_URL points at a server that is already running.
 */
const port = Number(process.env.E2E_PORT ?? 3199);
/**
 * Debian's `chromium-headless-shell` when installed (CI installs it): the same Chromium build in its
 * headless-only binary, as Playwright itself runs headless. The suite took 14.1 min with it against
 * 17.7 min with the full browser, whose GPU and browser processes used a third of the two cores.
 */
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const chromium =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");
/** The cookie-mode server reports to this DSN (e2e/error-reporting.spec.ts). */
export const SENTRY_DSN = `http://e2epublickey@127.0.0.1:${port + 9}/1`;
const baseURL = process.env.E2E_BASE_URL ?? `http://127.0.0.1:${port}`;
/**
 * The servers' throwaway databases live in one temporary folder, made once by the runner (its workers
 * load this file again and inherit the variable) and removed when the runner exits, after Playwright has
 * stopped the servers: each run leaves nothing behind (one seeded database is ~700 MB).
 */
if (!process.env.E2E_DATA_DIR && !process.env.E2E_TEMP_ROOT) {
  const root = mkdtempSync(join(tmpdir(), "pressguard-e2e-"));
  // Reachable by the account the embedded PostgreSQL runs as when the runner is root.
  chmodSync(root, 0o755);
  process.env.E2E_TEMP_ROOT = root;
  process.on("exit", () => rmSync(root, { recursive: true, force: true }));
}
const dataDir = process.env.E2E_DATA_DIR ?? join(process.env.E2E_TEMP_ROOT ?? tmpdir(), "postgres");
/**
 * In the throwaway folder the servers' databases are copies of one seeded template
 * (e2e/seeded-data-dir.mjs): the bundled data is imported once per run, not once per server.
 */
const seedFromTemplate = (target: string) =>
  process.env.E2E_DATA_DIR || !process.env.E2E_TEMP_ROOT
    ? ""
    : `node e2e/seeded-data-dir.mjs ${join(process.env.E2E_TEMP_ROOT, "seeded-template")} ${target} && `;

/**
 * The second auth mode (decision 021): the journey specs run again against a server in token mode,
 * once with the token in a cookie and once in localStorage. Each has its own server, port and
 * database (`<E2E_DATA_DIR>-token-cookie`, `-token-localstorage`: copy a seeded one there to skip
 * the seeding). Only the journeys run there, to keep CI time modest (E2E_TOKEN_SPECS=a.spec.ts,b.spec.ts
 * runs others there, e.g. to walk a page in token mode).
 */
const TOKEN_JOURNEYS = process.env.E2E_TOKEN_SPECS?.split(",") ?? [
  "auth.spec.ts",
  "pin-preview.spec.ts",
  "disclosure-journey.spec.ts",
  // The account page's API keys (decision 028): made and revoked by a browser signed in either way.
  "api-keys.spec.ts",
  // Issue 19's account journeys: the activation modal after a sign-in in the browser.
  "account-journeys.spec.ts",
  // Issue 19's CVE requests: the researcher's button and the staff's form, signed in either way.
  "cve-requests.spec.ts",
  // Issue 19's duplicates: staff mark one on the report page, the researcher reads it.
  "duplicates.spec.ts",
  // Issue 20's CRA clocks: the vendor marks a report exploited and downloads a CSAF draft.
  "cra-clocks.spec.ts",
  // Issue 20's watchlists: a site owner signs up, uploads a plugin list and edits a version.
  "watchlists.spec.ts",
  // Issue 20's CRA policy: a vendor publishes its policy and contact, and notifies its product's watchers.
  "cra-policy.spec.ts",
];
/**
 * With the token in localStorage the server cannot render a signed-in page by itself (decision 021):
 * the account page (sessions, password change, sign-out) and the vendor team journey (seats,
 * invitation, subscription, forwarding) are walked there as well. Kept short for CI.
 */
const LOCALSTORAGE_JOURNEYS = process.env.E2E_TOKEN_SPECS
  ? []
  : ["account-security.spec.ts", "vendor-team-journey.spec.ts"];
const tokenModes = [
  { name: "token-cookie", storage: "cookie", port: port + 1 },
  { name: "token-localstorage", storage: "localStorage", port: port + 2 },
].map((mode) => ({
  ...mode,
  baseURL: `http://127.0.0.1:${mode.port}`,
  dataDir: process.env.E2E_DATA_DIR
    ? `${process.env.E2E_DATA_DIR}-${mode.name}`
    : join(dataDir, "..", mode.name),
}));
/**
 * The staff actor (e2e/page-authorization.spec.ts). Staff accounts come only from
 * `npm run user:create -- --staff`, so the web server command makes one before the server opens the
 * database. Set in the runner's environment, which the workers (loading this file again) inherit.
 * Against E2E_BASE_URL, pass the credentials of an existing staff account in these variables.
 */
process.env.E2E_STAFF_EMAIL ??= `e2e-staff-${Date.now()}@example.test`;
process.env.E2E_STAFF_PASSWORD ??= "e2e staff password";
const createStaff = [
  "node --import tsx apps/server/src/modules/users/create-user-cli.ts --staff --name E2E-staff",
  `--email ${process.env.E2E_STAFF_EMAIL} --password '${process.env.E2E_STAFF_PASSWORD}'`,
].join(" ");

function traceMode(mode: string) {
  const modes = ["off", "on", "retain-on-failure", "on-first-retry"] as const;
  const known = modes.find((known) => known === mode);
  if (!known) throw new Error(`E2E_TRACE must be one of ${modes.join(", ")}, not "${mode}"`);
  return known;
}

export default defineConfig({
  testDir: "e2e",
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  timeout: 30_000,
  reporter: process.env.CI ? [["list"], ["json", { outputFile: "reports/e2e.json" }]] : "list",
  use: {
    baseURL,
    // A trace records every action's DOM snapshot and a screencast, then is thrown away when the test
    // passes: it made the browser do twice the work (36 tests of five journey specs on one server:
    // 171 s with, 122 s without, 2026-12-06). CI records none; a failure leaves its screenshot and the
    // page's ARIA snapshot (error-context.md). E2E_TRACE=retain-on-failure records them again.
    trace: traceMode(process.env.E2E_TRACE ?? (process.env.CI ? "off" : "retain-on-failure")),
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromium,
      args: [
        "--no-sandbox",
        "--headless",
        "--disable-gpu",
        "--disable-quic",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  // The token projects come first: their few tests are the suite's longest journeys, and started
  // last they left one worker idle for minutes at the end of the run.
  projects: [
    // Against E2E_BASE_URL there is one server, in whatever mode it runs: no token projects.
    ...(process.env.E2E_BASE_URL
      ? []
      : tokenModes.map((mode) => ({
          name: mode.name,
          testMatch:
            mode.storage === "localStorage" ? [...TOKEN_JOURNEYS, ...LOCALSTORAGE_JOURNEYS] : TOKEN_JOURNEYS,
          use: { browserName: "chromium" as const, baseURL: mode.baseURL },
          // With localStorage a full page load of a guarded page takes one more round trip (the
          // pending shell, then the page); three servers share the runner.
          expect: { timeout: 10_000 },
          // Read by e2e/auth-helpers.ts (`authModeOf`).
          metadata: { authMode: "token", tokenStorage: mode.storage },
        }))),
    {
      name: "chromium",
      use: { browserName: "chromium" },
      // Only the suite's own cookie-mode server reports to the test DSN (SENTRY_DSN above).
      ...(process.env.E2E_BASE_URL && { testIgnore: ["error-reporting.spec.ts"] }),
    },
  ],
  ...(!process.env.E2E_BASE_URL && {
    webServer: [
      // Errors go to Sentry in this mode: nothing listens at this DSN, e2e/error-reporting.spec.ts
      // catches what the browser sends to it.
      { url: baseURL, port, dataDir, env: { SENTRY_DSN: SENTRY_DSN } },
      ...tokenModes.map((mode) => ({
        ...mode,
        url: mode.baseURL,
        env: { AUTH_MODE: "token", AUTH_TOKEN_STORAGE: mode.storage },
      })),
    ].map((server) => ({
      command: `${seedFromTemplate(server.dataDir)}${createStaff} && node --import tsx apps/server/src/main.ts`,
      url: `${server.url}/healthz`,
      timeout: 180_000,
      reuseExistingServer: false,
      // SIGTERM, as a supervisor stops it: the server stops its embedded PostgreSQL before it exits.
      gracefulShutdown: { signal: "SIGTERM" as const, timeout: 20_000 },
      stdout: "ignore" as const,
      stderr: "pipe" as const,
      env: {
        PORT: String(server.port),
        HOST: "127.0.0.1",
        EMBEDDED_DB_DIR: server.dataDir,
        // Each server its own files: the OSV export sets of one server's data version are not
        // another's to read or remove (and the run leaves nothing in ./data).
        ATTACHMENTS_DIR: `${server.dataDir}-attachments`,
        EXPORTS_DIR: `${server.dataDir}-exports`,
        LOG_LEVEL: "warn",
        APP_URL: server.url,
        // The real self-hosted proof of work, solved by Chromium (e2e/disclosure-journey.spec.ts).
        CAPTCHA: "altcha",
        // The suite reads sign-in links and PINs from the development mailbox, off unless switched on.
        DEV_MAILBOX: "on",
        // Report forwarding: e2e/report-forwarding.spec.ts starts its webhook receiver on 127.0.0.1.
        FORWARDING_ALLOW_LOOPBACK: "true",
        // Every test signs its users up and then in (registration signs nobody in, decision 020), all
        // from 127.0.0.1: the per-address sign-in limit (30 per window) would refuse the suite itself.
        // The per-(address, account) back-off is unchanged.
        AUTH_RATE_LIMIT_FACTOR: "50",
        // The public database's pages and journeys call the public API from 127.0.0.1 too (decision 028).
        API_RATE_LIMIT_ANONYMOUS: "1000000",
        // Watchlist alerts (decision 031) go out within seconds, not the default minute.
        WATCH_ALERT_INTERVAL_SECONDS: "5",
        // The suite never reaches the network: the upstream data sources stay off (decision 035).
        KEV_URL: "off",
        EPSS_URL: "off",
        WPORG_API_URL: "off",
        ...server.env,
      },
    })),
  }),
});
