import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { expectNoSeriousViolations } from "./axe.ts";

/**
 * "Check your site" (issue 20): an anonymous site owner pastes `wp plugin list --format=json` or a
 * composer.lock and sees which installed versions have known vulnerabilities, on the real seed data
 * (data/seed/wordpress-vulns). The page is sent without JavaScript: its form posts to the server.
 */
test.use({ javaScriptEnabled: false });

/** Old versions with known vulnerabilities, current versions, one drop-in and one unknown slug. */
const PLUGINS = [
  ["akismet", "5.3.2"],
  ["contact-form-7", "5.3.1"],
  ["classic-editor", "1.6.3"],
  ["elementor", "3.0.0"],
  ["hello-dolly", "1.7.2"],
  ["woocommerce", "4.0.0"],
  ["wordpress-seo", "15.0"],
  ["jetpack", "13.3.1"],
  ["wpforms-lite", "1.8.7.2"],
  ["all-in-one-seo-pack", "3.0"],
  ["updraftplus", "1.24.2"],
  ["wordfence", "7.11.5"],
  ["really-simple-ssl", "8.0.0"],
  ["litespeed-cache", "6.1"],
  ["w3-total-cache", "2.7.1"],
  ["duplicate-post", "4.5"],
  ["redirection", "5.4.2"],
  ["wp-super-cache", "1.12.0"],
  ["advanced-custom-fields", "6.2.9"],
  ["mailchimp-for-wp", "4.9.11"],
  ["ninja-forms", "3.8.2"],
  ["tinymce-advanced", "5.9.2"],
  ["our-own-site-helpers", "1.0.0"],
] as const;

const WP_PLUGIN_LIST = JSON.stringify([
  ...PLUGINS.map(([name, version], index) => ({
    name,
    status: index % 3 === 0 ? "inactive" : "active",
    update: "none",
    version,
    update_version: "",
    auto_update: "off",
  })),
  { name: "advanced-cache.php", status: "dropin", update: "none", version: "", auto_update: "off" },
]);

const COMPOSER_LOCK = JSON.stringify({
  _readme: ["This file locks the dependencies of your project to a known state"],
  "content-hash": "0123456789abcdef",
  packages: [
    { name: "composer/installers", version: "v2.2.0", type: "composer-plugin" },
    { name: "roots/wordpress-no-content", version: "5.8.1", type: "wordpress-core" },
    { name: "wpackagist-plugin/contact-form-7", version: "5.3.1", type: "wordpress-plugin" },
    { name: "wpackagist-plugin/akismet", version: "5.3.2", type: "wordpress-plugin" },
  ],
  "packages-dev": [],
});

async function submitList(page: Page, text: string, kind: "Plugins" | "Themes" = "Plugins") {
  await page.getByLabel(kind, { exact: true }).check();
  await page.getByLabel("Your list").fill(text);
  await page.getByRole("button", { name: "Check", exact: true }).click();
}

/** Nothing wider than the window: no sideways scrolling. */
async function expectNoHorizontalOverflow(page: Page) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

for (const width of [390, 1280]) {
  test(`checks a wp plugin list of ${PLUGINS.length} plugins, vulnerable ones first (${width} px)`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/database");
    await page
      .getByRole("navigation", { name: "Database" })
      .getByRole("link", { name: "Check your site" })
      .click();
    await expect(page).toHaveURL(/\/database\/check$/);
    await expect(page.getByRole("heading", { level: 1, name: "Check your site" })).toBeVisible();

    await submitList(page, WP_PLUGIN_LIST);
    await expect(
      page.getByRole("heading", { name: /^\d+ of 23 plugins (has|have) known vulnerabilities$/ }),
    ).toBeVisible();
    // The drop-in is skipped, and said so; the pasted text stays in the field.
    await expect(
      page.getByText("advanced-cache.php is a drop-in, not a directory plugin: skipped."),
    ).toBeVisible();
    await expect(page.getByLabel("Your list")).toHaveValue(WP_PLUGIN_LIST);

    const results = page.getByTestId("check-result");
    await expect(results).toHaveCount(PLUGINS.length);
    const contactForm = results.filter({
      has: page.getByRole("link", { name: "contact-form-7", exact: true }),
    });
    await expect(contactForm.getByText(/^Update to [\d.]+ or later$/).first()).toBeVisible();
    await expect(contactForm.getByText("Installed: 5.3.1")).toBeVisible();
    const elementor = results.filter({ has: page.getByRole("link", { name: "elementor", exact: true }) });
    await expect(elementor.getByText(/^Update to [\d.]+ or later$/).first()).toBeVisible();
    await expect(
      results
        .filter({ hasText: "our-own-site-helpers" })
        .getByText("Not in the database (nothing known, which does not mean it is safe)"),
    ).toBeVisible();
    await expect(results.getByText("No known vulnerability in this version").first()).toBeVisible();

    // Vulnerable ones first: every entry with an update line comes before every entry without one.
    const vulnerable = await results.evaluateAll((items) =>
      items.map(
        (item) =>
          item.textContent?.includes("Update to") ||
          item.textContent?.includes("Fixed in a later version") ||
          item.textContent?.includes("No fix yet"),
      ),
    );
    expect(vulnerable[0]).toBe(true);
    expect(vulnerable.indexOf(false)).toBeGreaterThan(vulnerable.lastIndexOf(true));

    // The product and record links lead to their pages.
    await expect(contactForm.getByRole("link", { name: "contact-form-7", exact: true })).toHaveAttribute(
      "href",
      "/database/wordpress/plugin/contact-form-7/vulnerabilities/vdp",
    );
    await expect(contactForm.locator('a[href*="/vulnerability/"]').first()).toBeVisible();

    await expectNoHorizontalOverflow(page);
    await page.screenshot({ path: `reports/screenshots/check-site-plugins-${width}.png`, fullPage: true });
  });
}

test("checks a composer.lock using WPackagist, with WordPress core", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto("/database/check");
  await submitList(page, COMPOSER_LOCK);
  await expect(
    page.getByRole("heading", { name: /^\d+ of 3 products (has|have) known vulnerabilities$/ }),
  ).toBeVisible();
  await expect(
    page.getByText("1 other Composer package was ignored (not WordPress plugins, themes or core)."),
  ).toBeVisible();
  const results = page.getByTestId("check-result");
  await expect(results).toHaveCount(3);
  await expect(results.filter({ hasText: "WordPress core" })).toContainText("Installed: 5.8.1");
  await expect(
    results
      .filter({ hasText: "contact-form-7" })
      .getByText(/^Update to [\d.]+ or later$/)
      .first(),
  ).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await page.screenshot({ path: "reports/screenshots/check-site-composer-390.png", fullPage: true });
});

test("says what is wrong with a paste that is not a list, at the field", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto("/database/check");
  await page.getByRole("button", { name: "Check", exact: true }).click();
  await expect(
    page.getByText("Paste the output of `wp plugin list --format=json` or a composer.lock."),
  ).toBeVisible();

  await submitList(page, "Plugins: akismet, contact form 7");
  const field = page.getByLabel("Your list");
  await expect(field).toHaveValue("Plugins: akismet, contact form 7");
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(
    "This is not JSON: paste the output of `wp plugin list --format=json`.",
  );
  await expect(page.getByTestId("check-result")).toHaveCount(0);

  await page.getByLabel("Your list").fill(WP_PLUGIN_LIST);
  await page.getByLabel("WordPress version").fill("six point four");
  await page.getByRole("button", { name: "Check", exact: true }).click();
  await expect(page.getByText("Enter a version number such as 6.4.2.")).toBeVisible();
  await expectNoHorizontalOverflow(page);
  await page.screenshot({ path: "reports/screenshots/check-site-errors-390.png", fullPage: true });
});

test.describe("accessibility", () => {
  // axe runs as a script in the page: the page itself sends none either way.
  test.use({ javaScriptEnabled: true });

  test("the results and the field errors have no serious or critical accessibility violation", async ({
    page,
  }) => {
    await page.goto("/database/check");
    await submitList(page, WP_PLUGIN_LIST);
    await expect(page.getByTestId("check-result")).toHaveCount(PLUGINS.length);
    await expectNoSeriousViolations(page);
    await submitList(page, "not a list");
    await expect(page.getByLabel("Your list")).toHaveAttribute("aria-invalid", "true");
    await expectNoSeriousViolations(page);
  });
});

/**
 * A server of its own with a public-API budget of 2 checks a day and no data imported: the suite's
 * servers allow a million requests a minute, which no test can spend.
 */
async function startLowBudgetServer(): Promise<{ origin: string; stop: () => Promise<void> }> {
  const port = await new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
  const directory = mkdtempSync(join(tmpdir(), "pressguard-check-budget-"));
  // Reachable by the account the embedded PostgreSQL runs as when this is root.
  chmodSync(directory, 0o755);
  const origin = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? directory,
      PORT: String(port),
      HOST: "127.0.0.1",
      APP_URL: origin,
      LOG_LEVEL: "warn",
      SEED: "off",
      EMBEDDED_DB_DIR: join(directory, "postgres"),
      ATTACHMENTS_DIR: join(directory, "attachments"),
      EXPORTS_DIR: join(directory, "exports"),
      API_RATE_LIMIT_ANONYMOUS: "2",
      API_RATE_LIMIT_WINDOW_SECONDS: "86400",
      // The suite never reaches the network: the upstream data sources stay off (decision 035).
      KEV_URL: "off",
      EPSS_URL: "off",
      WPORG_API_URL: "off",
    },
    stdio: "ignore",
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stop = async () => {
    child.kill("SIGTERM");
    await exited;
    rmSync(directory, { recursive: true, force: true });
  };
  for (let waited = 0; waited < 120_000; waited += 500) {
    const ready = await fetch(`${origin}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return { origin, stop };
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await stop();
  throw new Error("the low-budget server did not start");
}

test.describe("over the visitor's budget", () => {
  let server: Awaited<ReturnType<typeof startLowBudgetServer>> | undefined;
  test.beforeAll(async () => {
    test.setTimeout(150_000);
    server = await startLowBudgetServer();
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test("a refused check is the page with its message, 429 and the API's Retry-After (issue 38)", async ({
    page,
  }) => {
    const origin = server?.origin ?? "";
    const list = JSON.stringify([
      { name: "contact-form-7", status: "active", update: "none", version: "5.3.1" },
    ]);
    for (let check = 1; check <= 3; check += 1) {
      await page.goto(`${origin}/database/check`);
      const answered = page.waitForResponse(
        (response) => response.request().method() === "POST" && response.url().endsWith("/database/check"),
      );
      await submitList(page, list);
      const answer = await answered;
      if (check <= 2) {
        expect(answer.status()).toBe(200);
        continue;
      }
      expect(answer.status()).toBe(429);
      expect(answer.headers()["content-type"]).toBe("text/html; charset=utf-8");
      expect(Number(answer.headers()["retry-after"])).toBeGreaterThan(0);
      await expect(page.getByRole("heading", { level: 1, name: "Check your site" })).toBeVisible();
      await expect(
        page.getByText(/^Too many checks from your address\. Try again in \d+ seconds\.$/),
      ).toBeVisible();
      // The pasted list stays for the next try.
      await expect(page.getByLabel("Your list")).toHaveValue(list);
    }
  });
});
