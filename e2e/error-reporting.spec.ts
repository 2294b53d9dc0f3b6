import { expect, type Page, type Request, test } from "@playwright/test";
import { gotoHydrated } from "./auth-helpers.ts";

/**
 * Browser errors reach Sentry through its SDK (apps/web/app/lib/error-reporting.ts), loaded at the
 * first error; answers 300–499 are never reported (spec §8). The cookie-mode server of the suite is
 * configured with a DSN nothing listens at (playwright.config.ts): the envelopes the browser sends
 * there are caught here. Against another server (E2E_BASE_URL) the config leaves this file out.
 */
const ENVELOPES = "**/api/1/envelope/**";

async function signInAnswering(page: Page, status: number) {
  const sent: Request[] = [];
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(request.url());
  });
  await page.route(ENVELOPES, async (route) => {
    sent.push(route.request());
    await route.fulfill({ status: 200, contentType: "application/json", body: "{}" });
  });
  await page.route("**/api/login", (route) =>
    route.fulfill({
      status,
      contentType: "application/json",
      body: JSON.stringify({ status: "error", message: status >= 500 ? "Server error." : "Invalid." }),
    }),
  );
  await gotoHydrated(page, "/vdp/login");
  await page.getByLabel("E-mail").fill("nobody@example.test");
  await page.getByLabel("Password").fill("a password of some length");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  return { sent, sdkScripts: () => scripts.filter((url) => url.includes("/sentry-browser-")) };
}

test("a 5xx answer in the browser is sent to Sentry by its SDK", async ({ page }) => {
  const { sent, sdkScripts } = await signInAnswering(page, 500);
  await expect.poll(() => sent.length, { timeout: 15_000 }).toBeGreaterThan(0);
  expect(sdkScripts()).toHaveLength(1);
  const body = sent.map((request) => request.postData() ?? "").join("\n");
  expect(sent[0]?.url()).toContain("sentry_key=e2epublickey");
  expect(body).toContain('"type":"event"');
  expect(body).toContain("ApiError");
  expect(body).not.toContain("a password of some length");
});

test("a 4xx answer is not reported, and the SDK is not even loaded", async ({ page }) => {
  const { sent, sdkScripts } = await signInAnswering(page, 422);
  await expect(page.getByText("Invalid.").first()).toBeVisible();
  await page.waitForTimeout(1_000);
  expect(sent).toEqual([]);
  expect(sdkScripts()).toEqual([]);
});
