import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, expect, test } from "@playwright/test";
import { fromMailbox, gotoHydrated, postAsUser, signUpThroughApi, userHeaders } from "./auth-helpers.ts";
import { expectNoSeriousViolations } from "./axe.ts";
import { signInStaffInBrowser, staffCredentials } from "./staff-session.ts";

/**
 * Issue 34: the live data path as staff and a site owner meet it, on a production server of its own
 * (the suite's servers hold the bundled records, which a stand-in feed of two records would withdraw,
 * a document the sync refuses as broken). The server starts empty (`SEED=off`) with the Wordfence
 * source pointed at a stand-in on loopback that first fails, then serves a v3 document, and KEV and
 * EPSS pointed at the same stand-in's catalog and scores; WordPress.org is off (tests never reach the
 * network).
 *
 * Staff read the failure in words on /staff/data-sources, press "Sync now", and see the counts; the
 * site owner whose watchlist holds the plugin gets the alert e-mail for the record the feed brought.
 * KEV's and EPSS's documents, unchanged since their first run, still reach the records the feed
 * brought afterwards: the record shows "Known exploited" and its EPSS score, and the database filters
 * and sorts by them.
 */

const API_KEY = "e2e-wordfence-key";
const SLUG = "e2e-feed-gallery";
const RECORD_ID = "6f1c2a7e-3b4d-4e5f-8a9b-0c1d2e3f4a5b";
const OTHER_ID = "7a2b3c4d-5e6f-4a8b-9c0d-1e2f3a4b5c6d";
/** The first record's CVE, which the KEV stand-in lists, and the second's. */
const LISTED_CVE = "CVE-2026-91001";
const OTHER_CVE = "CVE-2026-91002";

/** A CISA KEV catalog (its JSON feed's shape) listing the first record's CVE. */
const KEV_CATALOG = JSON.stringify({
  title: "CISA Catalog of Known Exploited Vulnerabilities",
  catalogVersion: "2026.12.01",
  dateReleased: "2026-12-01T17:00:00.000Z",
  count: 1,
  vulnerabilities: [
    {
      cveID: LISTED_CVE,
      vendorProject: "E2E",
      product: "E2E Feed Gallery",
      vulnerabilityName: "E2E Feed Gallery Cross-Site Scripting Vulnerability",
      dateAdded: "2026-12-01",
      shortDescription: "An end-to-end entry.",
      requiredAction: "Apply mitigations per vendor instructions or discontinue use of the product.",
      dueDate: "2026-12-22",
      knownRansomwareCampaignUse: "Unknown",
      notes: "",
      cwes: ["CWE-79"],
    },
  ],
});
/** FIRST's daily scores (its CSV's shape): the listed CVE scored higher than the other. */
const EPSS_SCORES = `#model_version:v2025.03.14,score_date:2026-12-01T12:55:00Z
cve,epss,percentile
${LISTED_CVE},0.53210,0.97800
${OTHER_CVE},0.00420,0.61000
`;

/** A v3 production-feed document (the shape of wordfence-feed.test.ts's real record). */
function feedDocument() {
  const copyrights = {
    message: "This record contains material that is subject to copyright",
    defiant: {
      notice: "Copyright 2012-2026 Defiant Inc.",
      license:
        "Defiant hereby grants you a perpetual, worldwide, non-exclusive, no-charge, royalty-free, irrevocable copyright license to reproduce, prepare derivative works of, publicly display, publicly perform, sublicense, and distribute this software vulnerability information.",
      license_url: "https://www.wordfence.com/wordfence-intelligence-terms-and-conditions/",
    },
  };
  const record = (id: string, title: string, to: string, patched: string | null, cve: string) => ({
    id,
    title,
    software: [
      {
        type: "plugin",
        name: "E2E Feed Gallery",
        slug: SLUG,
        affected_versions: {
          [`* - ${to}`]: { from_version: "*", from_inclusive: true, to_version: to, to_inclusive: true },
        },
        patched: patched !== null,
        patched_versions: patched ? [patched] : [],
        remediation: patched ? `Update to version ${patched}, or a newer patched version` : "No known patch",
      },
    ],
    informational: false,
    description: `${title}: an end-to-end record served by a stand-in of the feed.`,
    references: [`https://www.wordfence.com/threat-intel/vulnerabilities/id/${id}?source=api-prod`],
    cwe: { id: 79, name: "Cross-site Scripting", description: "Improper neutralization of input." },
    cvss: { vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N", score: 6.1, rating: "Medium" },
    cve,
    cve_link: `https://www.cve.org/CVERecord?id=${cve}`,
    researchers: ["E2E Researcher"],
    published: "2026-12-01 10:00:00",
    updated: "2026-12-02 08:00:00",
    copyrights,
  });
  return {
    [RECORD_ID]: record(
      RECORD_ID,
      "E2E Feed Gallery <= 2.4.0 - Reflected Cross-Site Scripting",
      "2.4.0",
      "2.4.1",
      LISTED_CVE,
    ),
    [OTHER_ID]: record(
      OTHER_ID,
      "E2E Feed Gallery <= 1.0.0 - Missing Authorization",
      "1.0.0",
      "1.0.1",
      OTHER_CVE,
    ),
  };
}

/**
 * The upstreams' stand-in. The feed: 503 until `serving`, then the document with its ETag (304 to a
 * request that sends it back), the key checked as the feed does. KEV and EPSS: their one document,
 * never changed, 304 to a conditional request; `signals` logs whether each request was conditional.
 */
async function startFeed() {
  const state = { serving: false, requests: 0, signals: [] as { path: string; conditional: boolean }[] };
  const server: Server = createServer((request, response) => {
    const path = request.url ?? "";
    const signal = path === "/kev.json" ? KEV_CATALOG : path === "/epss.csv" ? EPSS_SCORES : null;
    if (signal !== null) {
      const etag = `"${path.slice(1)}-1"`;
      const conditional = request.headers["if-none-match"] === etag;
      state.signals.push({ path, conditional });
      if (conditional) response.writeHead(304, { etag }).end();
      else
        response
          .writeHead(200, {
            "content-type": path === "/kev.json" ? "application/json" : "text/csv",
            etag,
          })
          .end(signal);
      return;
    }
    state.requests++;
    if (request.headers.authorization !== `Bearer ${API_KEY}`) {
      response.writeHead(401, { "content-type": "application/json" }).end('{"message":"Unauthorized"}');
    } else if (!state.serving) {
      response.writeHead(503, { "content-type": "text/plain" }).end("Service Unavailable");
    } else if (request.headers["if-none-match"] === '"e2e-feed-1"') {
      response.writeHead(304, { etag: '"e2e-feed-1"' }).end();
    } else {
      response
        .writeHead(200, { "content-type": "application/json", etag: '"e2e-feed-1"' })
        .end(JSON.stringify(feedDocument()));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/api/intelligence/v3/vulnerabilities/production`,
    kevUrl: `${origin}/kev.json`,
    epssUrl: `${origin}/epss.csv`,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let feed: Awaited<ReturnType<typeof startFeed>>;
let server: ChildProcess | undefined;
let serverLog = "";
let directory = "";
let baseURL = "";

test.beforeAll(async () => {
  test.setTimeout(180_000);
  feed = await startFeed();
  directory = mkdtempSync(join(tmpdir(), "pressguard-e2e-data-sources-"));
  // Reachable by the account the embedded PostgreSQL runs as when this is root.
  chmodSync(directory, 0o755);
  const port = await freePort();
  baseURL = `http://127.0.0.1:${port}`;
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: baseURL,
    EMBEDDED_DB_DIR: join(directory, "postgres"),
    ATTACHMENTS_DIR: join(directory, "attachments"),
    EXPORTS_DIR: join(directory, "exports"),
    SEED: "off",
    LOG_LEVEL: "warn",
    CAPTCHA: "altcha",
    DEV_MAILBOX: "on",
    AUTH_RATE_LIMIT_FACTOR: "50",
    WATCH_ALERT_INTERVAL_SECONDS: "5",
    WORDFENCE_API_KEY: API_KEY,
    WORDFENCE_FEED_URL: feed.url,
    KEV_URL: feed.kevUrl,
    EPSS_URL: feed.epssUrl,
    WPORG_API_URL: "off",
  };
  const { email, password } = staffCredentials();
  execFileSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "apps/server/src/modules/users/create-user-cli.ts",
      "--staff",
      "--name",
      "E2E-staff",
      "--email",
      email,
      "--password",
      password,
    ],
    { env, stdio: "pipe" },
  );
  server = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], { env, stdio: "pipe" });
  server.stderr?.on("data", (chunk: Buffer) => {
    serverLog = (serverLog + chunk.toString("utf8")).slice(-4000);
  });
  const started = Date.now();
  while ((await fetch(`${baseURL}/healthz`).catch(() => null))?.status !== 200) {
    if (server.exitCode !== null || Date.now() - started > 150_000)
      throw new Error(`the server did not start (exit ${server.exitCode}): ${serverLog}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once("exit", resolve));
    server.kill("SIGTERM");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (server.exitCode === null) server.kill("SIGKILL");
  }
  await feed?.close();
  if (directory) rmSync(directory, { recursive: true, force: true });
});

/** A site owner with a watchlist of the plugin at a version the feed's first record affects. */
async function siteOwnerWatching(context: BrowserContext) {
  const owner = await signUpThroughApi(context, []);
  const created = await postAsUser(context, "/api/watchlists", {
    name: "Client shop",
    entries: [{ kind: "plugin", slug: SLUG, version: "2.3.0" }],
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const alerts = await context.request.patch(`/api/watchlists/${id}`, {
    headers: await userHeaders(context),
    data: { alert_mode: "immediate" },
  });
  expect(alerts.status(), await alerts.text()).toBe(200);
  return owner;
}

// Only the cookie-mode project runs this file (playwright.config.ts lists the token projects' specs).
test("staff read a feed's failure, sync it now, and the watchlist alert for its record arrives", async ({
  browser,
}) => {
  test.slow();
  const ownerContext = await browser.newContext({ baseURL });
  const staffContext = await browser.newContext({ baseURL });
  try {
    const owner = await siteOwnerWatching(ownerContext);

    // The first scheduled run (about 10 s after the start) met the stand-in's 503: staff read it in words.
    await signInStaffInBrowser(staffContext, baseURL);
    const page = await staffContext.newPage();
    const source = page.getByRole("region", { name: /Wordfence Intelligence/ });
    await expect
      .poll(
        async () => {
          await gotoHydrated(page, "/staff/data-sources");
          return (await source.textContent()) ?? "";
        },
        { timeout: 60_000, intervals: [2_000] },
      )
      .toMatch(/503/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Data sources");
    await expect(page.getByRole("region", { name: /WordPress\.org/ })).toContainText(/not configured|off/i);
    // KEV and EPSS ran in the same first pass: their documents are applied (to no record yet).
    const kev = page.getByRole("region", { name: /CISA/ });
    const epss = page.getByRole("region", { name: /EPSS/ });
    await expect(kev).toContainText("0 new, 0 changed");
    await expect(epss).toContainText("0 new, 0 changed");
    await expectNoSeriousViolations(page);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `reports/screenshots/data-sources-failed-${width}.png`, fullPage: true });
    }

    // The feed is back: "Sync now" brings its two records in.
    feed.state.serving = true;
    await source.getByRole("button", { name: "Sync now" }).click();
    await expect(source).toContainText(/2 new/, { timeout: 60_000 });
    await expect(source).not.toContainText(/503/);
    await page.screenshot({ path: "reports/screenshots/data-sources-synced-1280.png", fullPage: true });

    // The record is public, with its upstream link and Defiant's notice, as the licence asks.
    const record = await ownerContext.newPage();
    // As a script checks a site: no session, no key.
    const check = await fetch(`${baseURL}/api/v1/check`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ items: [{ kind: "plugin", slug: SLUG, version: "2.3.0" }] }),
    });
    expect(check.status).toBe(200);
    const checked = (await check.json()) as { results: { vulnerabilities: { id: string; url: string }[] }[] };
    expect(checked.results[0]?.vulnerabilities.map((item) => item.id)).toEqual([RECORD_ID]);
    await record.goto(checked.results[0]?.vulnerabilities[0]?.url ?? "");
    await expect(record.getByRole("heading", { level: 1 })).toContainText("E2E Feed Gallery");
    await expect(record.getByText("Copyright 2012-2026 Defiant Inc.")).toBeVisible();

    // The watcher's alert, sent by the alert job as for an imported record.
    const alert = await fromMailbox(ownerContext, owner.email, (mail) =>
      mail.subject.includes(`${SLUG} 2.3.0`) ? mail : undefined,
    );
    expect(alert.text).toContain("Update e2e-feed-gallery to 2.4.1 or later.");
    expect(alert.text).toContain("Reflected Cross-Site Scripting");

    // KEV's and EPSS's files did not change, yet the records the feed brought get their values.
    for (const [region, counted] of [
      [kev, "1 new"],
      [epss, "2 new"],
    ] as const) {
      const signals = feed.state.signals.length;
      await region.getByRole("button", { name: "Sync now" }).click();
      await expect(region).toContainText(counted, { timeout: 30_000 });
      expect(feed.state.signals.slice(signals).map((request) => request.conditional)).toEqual([false]);
    }
    await record.reload();
    const exploitation = record.getByTestId("exploitation");
    await expect(exploitation).toContainText("Known exploited");
    await expect(exploitation).toContainText("Due date");
    await expect(record.getByTestId("epss")).toContainText("53.21%");
    await expectNoSeriousViolations(record);
    // The database lists known-exploited records alone, and the likeliest to be exploited first.
    await record.goto(`/database?q=${SLUG}&known_exploited=true`);
    const rows = record.getByRole("main").getByRole("link", { name: /E2E Feed Gallery <=/ });
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("Reflected Cross-Site Scripting");
    await expect(record.getByTestId("known-exploited").first()).toBeVisible();
    await record.goto(`/database?q=${SLUG}`);
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toContainText("Missing Authorization");
    await record.goto(`/database?q=${SLUG}&sort=epss`);
    await expect(rows.first()).toContainText("Reflected Cross-Site Scripting");
    await expect(record.getByText("EPSS 53.21%")).toBeVisible();
    for (const width of [390, 1280]) {
      await record.setViewportSize({ width, height: 900 });
      await record.screenshot({
        path: `reports/screenshots/database-known-exploited-${width}.png`,
        fullPage: true,
      });
    }

    // A second "Sync now" is one conditional request that changes nothing.
    const requests = feed.state.requests;
    await source.getByRole("button", { name: "Sync now" }).click();
    await expect(page.getByText("nothing new since the last sync")).toBeVisible({ timeout: 30_000 });
    expect(feed.state.requests).toBe(requests + 1);
    await expect(source).toContainText(/2 new/);
  } finally {
    await ownerContext.close();
    await staffContext.close();
  }
});
