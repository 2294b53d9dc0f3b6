import { expect, test } from "@playwright/test";

/**
 * Issue 15, finding 3: a NUL byte or bytes that are not UTF-8 in a page's path or query are the
 * visitor's mistake. The page answers a 4xx with the HTML error screen, never a 500 and never the
 * API's raw JSON. (Server side: apps/server/src/http/reject-malformed-input.ts.)
 */
const HOSTILE_PAGES = [
  "/database?q=%00",
  "/database?q=xss%00&kind=plugin",
  "/database/existing?q=%00",
  "/database/wordpress/plugin/%00/vulnerabilities/vdp",
  "/database/wordpress/plugin/contact-form-7/vulnerability/%00",
  "/database/wordpress/plugin/%00/security-policy/vdp",
  "/database/researchers/%00",
  "/database/report/wordpress/plugin/%00",
  "/vdp/invitations/%00",
  "/iframe/vendor?vendor=%00",
];

for (const path of HOSTILE_PAGES) {
  test(`${path} answers a 4xx error page`, async ({ page }) => {
    const response = await page.goto(path);
    const status = response?.status() ?? 0;
    expect(status, path).toBeGreaterThanOrEqual(400);
    expect(status, path).toBeLessThan(500);
    expect(response?.headers()["content-type"]).toContain("text/html");
    await expect(page).toHaveTitle(new RegExp(`^${status} \\| `));
    await expect(page.getByText(String(status), { exact: true }).first()).toBeVisible();
  });
}

test("a search with bytes that are not UTF-8 still shows the database, not an error", async ({ page }) => {
  const response = await page.goto("/database?q=%ff");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Vulnerability database" })).toBeVisible();
});
