import { readFileSync } from "node:fs";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { currentUser, gotoHydrated, mailedLink, uniqueEmail } from "./auth-helpers.ts";
import { expectNoSeriousViolations } from "./axe.ts";
import { startWebhookReceiver } from "./webhook-receiver.ts";

/**
 * Issue 20: a site owner signs up (an account with no role), uploads the `wp plugin list
 * --format=json` of a site running 22 plugins of the bundled data (data/seed/wordpress-vulns), reads
 * what affects each installed version, and updates one entry to the version it is told to.
 */

const PASSWORD = "correct horse battery";
const FIXTURE = new URL("./fixtures/wp-plugin-list.json", import.meta.url);
const PLUGINS = JSON.parse(readFileSync(FIXTURE, "utf8")) as { name: string; version: string }[];

/** Nothing wider than the window: no sideways scrolling. */
async function expectNoHorizontalOverflow(page: Page) {
  const { overflow, widest } = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    // The outermost elements reaching past the window's right edge: what to fix when it overflows.
    const past = [...document.querySelectorAll("body *")].filter(
      (element) => element.getBoundingClientRect().right > width + 1,
    );
    const outermost = past.filter((element) => !past.includes(element.parentElement as Element));
    return {
      overflow: document.documentElement.scrollWidth - width,
      widest: outermost
        .slice(0, 5)
        .map((element) => `${element.tagName.toLowerCase()}.${element.className}`.slice(0, 120)),
    };
  });
  expect(overflow, `wider than the window: ${widest.join(" | ")}`).toBeLessThanOrEqual(0);
}

/** The whole page, and its first screen, at a phone's width and a desktop's. */
async function screenshots(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoHorizontalOverflow(page);
    const path = `reports/screenshots/watchlists-${name}-${width}`;
    await page.screenshot({ path: `${path}.png`, fullPage: true });
    await page.screenshot({ path: `${path}-top.png` });
  }
}

/** "5 known vulnerabilities in 5.3.1." → 5 (0 for an entry with none). */
async function exposuresOf(entry: Locator): Promise<number> {
  const text = (await entry.getByTestId("entry-exposure").textContent()) ?? "";
  return Number(/^(\d+) known vulnerabilit/.exec(text)?.[1] ?? 0);
}

test("a site owner signs up, uploads a plugin list, sees the exposures and updates one entry", async ({
  page,
}) => {
  test.slow();
  expect(PLUGINS.length).toBeGreaterThanOrEqual(20);

  // Sign-up as a site owner: no role, the watchlists are the account's home.
  const email = uniqueEmail("site-owner");
  await gotoHydrated(page, "/register?role=site_owner");
  await expect(page.getByLabel("Site owner (watch my sites' plugins)")).toBeChecked();
  await page.getByLabel("Name").fill("Sam Site");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("status")).toContainText("Check your e-mail");
  await page.getByRole("link", { name: "sign in" }).click();
  await expect(page).toHaveURL(/\/vdp\/login\?redirect=%2Fwatchlists$/);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  // The vendor login says it is the site owners' too.
  await expect(page.getByText("Site owners sign in here too")).toBeVisible();
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/watchlists$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Watchlists");
  expect((await (await currentUser(page)).json()).roles).toEqual([]);
  // The verification link brings a site owner back to the watchlists, as the root does.
  await page.goto(await mailedLink(page, email, /https?:\/\/\S+\/api\/email\/verify\/\S+/));
  await expect(page).toHaveURL(/\/watchlists$/);
  await expect(page.getByText("No watchlists yet.")).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await expect(
    page.getByRole("navigation", { name: "Watchlists" }).getByRole("link", { name: "Watchlists" }),
  ).toBeVisible();

  // A watchlist from the uploaded file, with WordPress's own version.
  await page.getByLabel("Name", { exact: true }).fill("shop.example");
  await page.getByLabel("The list names").selectOption("plugin");
  await page.getByLabel("Upload a file").setInputFiles(FIXTURE.pathname);
  await expect(page.getByLabel("Your list")).toHaveValue(/"contact-form-7"/);
  await page.getByLabel("WordPress version").fill("6.4.2");
  await page.getByRole("button", { name: "Create watchlist" }).click();

  await expect(page).toHaveURL(/\/watchlists\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("shop.example");
  const entries = page.getByTestId("watchlist-entry");
  await expect(entries).toHaveCount(PLUGINS.length + 1);
  const lead = page.getByText(/ of 23 entries exposed \(\d+ known vulnerabilities\)$/);
  await expect(lead).toBeVisible();
  const before = (await lead.textContent()) ?? "";

  const entry = page.locator('[data-testid="watchlist-entry"][data-slug="contact-form-7"]');
  await expect(entry).toHaveCount(1);
  const exposed = await exposuresOf(entry);
  expect(exposed).toBeGreaterThan(1);
  await expect(entry.getByRole("link").first()).toHaveAttribute(
    "href",
    "/database/wordpress/plugin/contact-form-7/vulnerabilities/vdp",
  );
  // Each record links to its page, with its severity, and the entry says what to update to.
  await expect(entry.locator('a[href*="/vulnerability/"]').first()).toBeVisible();
  await expect(entry).toContainText(/Medium|High|Critical|Low/);
  const advice = (await entry.getByTestId("entry-exposure").textContent()) ?? "";
  const updateTo = /Update to ≥ (\S+)\.(?:\s|$)/.exec(advice)?.[1];
  expect(updateTo, advice).toBeTruthy();
  await expectNoSeriousViolations(page);
  await screenshots(page, "exposures");
  await page.setViewportSize({ width: 390, height: 900 });
  await entry.screenshot({ path: "reports/screenshots/watchlists-entry-390.png" });
  await page.setViewportSize({ width: 1280, height: 900 });

  // Updated on the site: the entry's version changes, and its exposures are read again.
  await entry.getByLabel("Installed version of contact-form-7").fill(updateTo ?? "");
  await entry.getByRole("button", { name: "Save version of contact-form-7" }).click();
  await expect(page.getByText(`contact-form-7 is now at ${updateTo}.`)).toBeVisible();
  await expect(entry.getByLabel("Installed version of contact-form-7")).toHaveValue(updateTo ?? "");
  await expect.poll(() => exposuresOf(entry)).toBeLessThan(exposed);
  await expect(page.getByText(/ of 23 entries exposed/)).not.toHaveText(before);

  // The list shows the watchlist with its counts.
  await page.getByRole("link", { name: "← All watchlists" }).click();
  const summary = page.getByTestId("watchlist-summary");
  await expect(summary).toHaveCount(1);
  await expect(summary).toContainText("shop.example");
  await expect(summary).toContainText(/of 23 entries exposed/);
  await expect(summary).toContainText("Alerts: E-mail at once");
  await expectNoSeriousViolations(page);
  await screenshots(page, "list");
});

test("a watchlist is renamed, its alerts set, its entries replaced, then deleted", async ({ page }) => {
  test.slow();
  await gotoHydrated(page, "/register?role=site_owner");
  const email = uniqueEmail("site-owner-settings");
  await page.getByLabel("Name").fill("Settings Owner");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByRole("link", { name: "sign in" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/watchlists$/);
  // Signing in loads the page anew: typed before hydration, the name was reset by it (CI, 2026-12-07).
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");

  // Products picked one by one; a row without a version is refused at the row.
  await page.getByLabel("Name", { exact: true }).fill("blog.example");
  await page.getByLabel("Pick products one by one").check();
  await page.getByLabel("Slug").fill("akismet");
  await page.getByRole("button", { name: "Create watchlist" }).click();
  await expect(page.getByText("Enter the installed version, such as 5.8.1.")).toBeVisible();
  await page.getByLabel("Installed version").fill("3.1.4");
  await page.getByRole("button", { name: "Create watchlist" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("blog.example");
  await expect(page.getByText("1 of 1 entry exposed", { exact: false })).toBeVisible();

  await page.getByLabel("Name", { exact: true }).fill("news.example");
  await page.getByRole("button", { name: "Rename" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("news.example");

  await page.getByLabel("Daily digest").check();
  await page.getByRole("button", { name: "Save alert setting" }).click();
  await expect(page.getByText("Alert setting saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Daily digest")).toBeChecked();

  // An alert webhook in Slack's format, to a receiver that checks the signature with the secret shown once.
  let secret = "";
  const receiver = await startWebhookReceiver(() => secret);
  const webhooks = page.getByRole("form", { name: "Add an alert webhook" });
  await webhooks.getByLabel("Webhook URL").fill(receiver.url);
  await webhooks.getByLabel("Format").selectOption("slack");
  await webhooks.getByRole("button", { name: "Add webhook" }).click();
  secret = (await page.getByTestId("forward-secret").textContent()) ?? "";
  expect(secret).toMatch(/^whsec_/);
  await page.getByRole("button", { name: "I have stored it" }).click();
  const hook = page.getByRole("list", { name: "Alert webhooks" }).getByRole("listitem");
  await expect(hook).toContainText("Slack incoming webhook · Active");
  await hook.getByRole("button", { name: "Send test alert" }).click();
  await expect(page.getByText("Test alert sent. Its delivery shows in the log.")).toBeVisible();
  await expect(hook.getByRole("table", { name: "Delivery log" })).toContainText("Delivered");
  expect(receiver.received.map((request) => [request.event, request.valid])).toEqual([
    ["watchlist.test", true],
  ]);
  expect(JSON.parse(receiver.received[0]?.body ?? "{}").blocks[0].text.text).toContain("news.example");
  await screenshots(page, "webhooks");
  await receiver.close();

  // A re-uploaded inventory replaces the entries; what it skipped is said.
  const upload = page.getByRole("form", { name: "Upload a new inventory" });
  await upload.getByLabel("Your list").fill(
    JSON.stringify([
      { name: "hello-dolly", status: "active", version: "1.7.2" },
      { name: "broken", status: "active", version: "" },
    ]),
  );
  await upload.getByRole("button", { name: "Replace entries" }).click();
  await expect(upload.getByText("broken has no version: skipped.")).toBeVisible();
  await expect(page.getByTestId("watchlist-entry")).toHaveCount(1);
  await expect(page.getByTestId("watchlist-entry")).toContainText("hello-dolly");
  await expect(page.getByText("1 entry, none exposed")).toBeVisible();
  await expectNoSeriousViolations(page);

  await page.getByRole("button", { name: "Delete watchlist" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("Delete “news.example” and its 1 entry?");
  await confirm.getByRole("button", { name: "Yes, delete it" }).click();
  await expect(page).toHaveURL(/\/watchlists$/);
  await expect(page.getByText("No watchlists yet.")).toBeVisible();
});
