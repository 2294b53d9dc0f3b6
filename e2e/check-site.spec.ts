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
