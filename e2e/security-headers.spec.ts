import { expect, type Page, test } from "@playwright/test";
import { gotoHydrated } from "./auth-helpers.ts";

/**
 * The Content-Security-Policy of issue 15 in the real browser: pages hydrate (React Router's inline
 * scripts carry the nonce), the ALTCHA proof of work runs its workers, the charts draw, and Chromium
 * reports no violation on the way.
 */

/** Every CSP violation the page reports, from the DOM event and from the console. */
async function watchViolations(page: Page) {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(`Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return violations;
}

test("public pages, static and hydrated, and the chart page load under the policy with no violation", async ({
  page,
}) => {
  // First renders of the database pages after a cold start are slow on a loaded machine.
  test.setTimeout(90_000);
  const violations = await watchViolations(page);
  // The database pages are static (no scripts, decision 007); /register hydrates.
  for (const path of ["/database", "/database/statistics/wordpress", "/register"]) {
    const response = await page.goto(path);
    const policy = response?.headers()["content-security-policy"] ?? "";
    expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("base-uri 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(response?.headers()["x-content-type-options"]).toBe("nosniff");
    expect(response?.headers()["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  }
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await page.goto("/database/statistics/wordpress");
  await expect(page.locator("main svg[role=img]:visible").first()).toBeVisible();
  expect(violations).toEqual([]);
});

test("the signed-out report form solves the ALTCHA proof of work under the policy", async ({ page }) => {
  // The proof of work takes a while on a loaded machine.
  test.setTimeout(90_000);
  const violations = await watchViolations(page);
  await gotoHydrated(page, "/database/report");
  // The widget starts its proof of work (in blob: workers) when the form gets the focus.
  await page.getByLabel("Title").click();
  const captchaState = page.locator("altcha-widget [data-state]");
  await expect(captchaState).toHaveAttribute("data-state", "verified", { timeout: 60_000 });
  expect(violations).toEqual([]);
});

test("the vendor embed keeps its own frame-ancestors with the same strict policy", async ({ page }) => {
  const violations = await watchViolations(page);
  const response = await page.goto("/iframe/vendor?vendor=unknown-key");
  const policy = response?.headers()["content-security-policy"] ?? "";
  expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
  expect(policy).toContain("frame-ancestors 'none'");
  expect(response?.headers()["x-frame-options"]).toBeUndefined();
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  expect(violations).toEqual([]);
});
