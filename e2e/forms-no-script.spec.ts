import { expect, test } from "@playwright/test";

/**
 * Issue 38's PIN finding, for every form: a form without a method, submitted before its page's scripts
 * run (a slow network, scripts off), was a GET of the page with every field in the URL: a password in
 * the address bar, the history, Referers and the request log. Each form now posts
 * (apps/web/app/ui/form-methods.test.ts holds the sources to it); here the sign-in and registration
 * pages are submitted with scripts off.
 */
test.use({ javaScriptEnabled: false });

const SECRET = "no-script secret 7f3a";

for (const { path, fill } of [
  {
    path: "/researchers/login",
    fill: async (page: import("@playwright/test").Page) => {
      await page.getByLabel("E-mail", { exact: true }).fill("no-script@example.test");
      await page.getByLabel("Password", { exact: true }).fill(SECRET);
    },
  },
  {
    path: "/register",
    fill: async (page: import("@playwright/test").Page) => {
      await page.getByLabel("Name", { exact: true }).fill("No Script");
      await page.getByLabel("E-mail", { exact: true }).fill("no-script@example.test");
      await page.getByLabel("Password", { exact: true }).fill(SECRET);
    },
  },
]) {
  test(`${path} submitted without scripts never puts a field in a URL`, async ({ page }) => {
    const urls: string[] = [];
    page.on("request", (request) => urls.push(request.url()));
    await page.goto(path);
    await fill(page);
    const answered = page.waitForRequest(
      (request) => request.isNavigationRequest() && request.url() !== "about:blank",
    );
    await page.locator("main form").first().locator('button[type="submit"]').first().click();
    const submitted = await answered;
    expect(submitted.method()).toBe("POST");
    expect(
      urls.filter(
        (url) => url.includes(encodeURIComponent(SECRET).replaceAll("%20", "+")) || url.includes("secret"),
      ),
    ).toEqual([]);
  });
}
