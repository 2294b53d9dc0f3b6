import { expect, type Page, test } from "@playwright/test";
import { loginPathFor, signUpThroughApi } from "./auth-helpers.ts";
import { ROUTES } from "./route-table.ts";

const SITE = "Pressguard";

/** Opens a page and waits until React has hydrated it, so clicks run client-side code. */
async function gotoHydrated(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
}

test.describe("every route of the route table", () => {
  for (const { path, heading } of ROUTES) {
    const loginPath = loginPathFor(path);
    if (loginPath) {
      test(`${path} sends an anonymous visitor to ${loginPath} with a way back`, async ({ page }) => {
        const response = await page.goto(path);
        expect(response?.status()).toBe(200);
        const url = new URL(page.url());
        expect(url.pathname).toBe(loginPath);
        expect(url.searchParams.get("redirect")).toBe(path);
      });
    } else {
      test(`${path} answers 200 with its heading and a titled page`, async ({ page }) => {
        const response = await page.goto(path);
        expect(response?.status()).toBe(200);
        const h1 = page.locator("h1").first();
        await expect(h1).toBeVisible();
        await expect(h1).toHaveText(heading);
        await expect(page).toHaveTitle(new RegExp(` \\| ${SITE}$`));
      });
    }
  }
});

test.describe("every guarded route, signed in as a vendor and researcher", () => {
  // The staff pages need a staff account (e2e/page-authorization.spec.ts, e2e/staff-triage.spec.ts).
  const guarded = ROUTES.filter(({ path }) => loginPathFor(path) !== null && !path.startsWith("/staff/"));

  test("each guarded page answers 200 with its heading", async ({ page, context }) => {
    test.setTimeout(90_000);
    const { user } = await signUpThroughApi(context, ["vendor", "researcher"]);
    for (const route of guarded) {
      // A researcher's profile tabs are theirs only (another uuid is a 404), and a report preview
      // needs a report of theirs (e2e/report-flow.spec.ts, e2e/page-authorization.spec.ts).
      if (route.path.startsWith("/researchers/reports/")) continue;
      // A program page is a 404 for a program that is not the vendor's (spec §2; program 42 is no one's
      // here): e2e/vendor-programs.spec.ts opens the vendor's own, e2e/page-authorization.spec.ts the 404.
      if (/^\/vdp\/programs\/\d+/.test(route.path)) continue;
      // The set-up pages move a set-up account on (issue 19): e2e/auth.spec.ts and
      // e2e/researcher-profile.spec.ts open them with fresh accounts.
      if (route.path === "/vdp/create-account" || route.path === "/researchers/create") continue;
      const path = route.path.replace(
        /^\/researchers\/[0-9a-f-]{36}\//,
        `/researchers/${user.researcher?.uuid}/`,
      );
      const { heading } = route;
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      expect(new URL(page.url()).pathname, path).toBe(path);
      await expect(page.locator("h1").first(), path).toHaveText(heading);
      await expect(page).toHaveTitle(new RegExp(` \\| ${SITE}$`));
    }
  });

  test("a signed-in visitor is sent away from the login pages", async ({ page, context }) => {
    await signUpThroughApi(context, ["researcher"]);
    for (const path of ["/vdp/login", "/researchers/login"]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/researchers\/[0-9a-f-]{36}\/in-review$/);
    }
  });
});

test.describe("not found", () => {
  for (const path of [
    "/no-such-page",
    "/vdp/programs/abc",
    "/vdp/programs/12x/edit",
    "/database/nope/plugin/x/vulnerabilities/vdp",
    // Public database records that do not exist (researcher uuids are random per import: see the journey).
    "/database/researchers/4d4b1c0e-7d1a-4c8b-9a35-2f1e0c3b5a77",
    "/database/researchers/not-a-uuid",
    "/database/wordpress/plugin/no-such-plugin-anywhere/vulnerabilities/vdp",
    "/database/wordpress/theme/contact-form-7/security-contributors/vdp",
    "/database/wordpress/plugin/contact-form-7/vulnerability/some-vulnerability",
    "/database/wordpress/plugin/akismet/vulnerability/contact-form-7-5-9-4-unauthenticated-open-redirect-953be831",
  ]) {
    test(`${path} is a 404 "Page not found" with the code as title`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page).toHaveTitle(`404 | Page not found | ${SITE}`);
      await expect(page.getByText("404", { exact: true }).first()).toBeVisible();
      await expect(page.getByText("Page not found").first()).toBeVisible();
    });
  }

  test("a crawler gets a plain status response, not the error page", async ({ request }) => {
    const response = await request.get("/no-such-page", {
      headers: { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" },
    });
    expect(response.status()).toBe(404);
    expect(response.headers()["content-type"]).toContain("text/plain");
    expect(await response.text()).not.toContain("<html");
  });
});

test.describe("navigation and chrome", () => {
  test("the root sends an anonymous visitor to the vendor login", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/vdp\/login$/);
  });

  test("a page without its own title falls back to its last path segment in title case", async ({
    page,
    context,
  }) => {
    await signUpThroughApi(context, ["vendor"]);
    await page.goto("/vdp/reports/awaiting_fix");
    await expect(page).toHaveTitle(`Awaiting Fix | ${SITE}`);
  });

  test("canonical links keep only whitelisted query parameters", async ({ page }) => {
    await page.goto("/database?page=2&utm_source=newsletter&q=xss");
    const canonical = await page.locator('link[rel="canonical"]').getAttribute("href");
    expect(canonical).toMatch(/\/database\?/);
    expect(canonical).toContain("page=2");
    expect(canonical).toContain("q=xss");
    expect(canonical).not.toContain("utm_source");
  });

  test("the public header offers Pricing, the six Solutions and Login", async ({ page }) => {
    // The report form is a hydrated page with the public header (the database's reading pages are not).
    await gotoHydrated(page, "/database/report");
    const header = page.locator("header").first();
    await expect(header.getByRole("link", { name: /^Pricing/ })).toBeVisible();
    await expect(header.getByRole("link", { name: /^Login/ })).toBeVisible();
    const solutions = header.getByRole("button", { name: "Solutions" });
    await solutions.click();
    const menu = page.locator(`[id="${await solutions.getAttribute("aria-controls")}"]`);
    for (const entry of [
      "WordPress security",
      "Plugin auditing",
      "Managed VDP",
      "Bug Bounty",
      "For hosts",
      "Vulnerability database",
    ]) {
      await expect(
        menu.getByRole("link", { name: new RegExp(`^${entry}( \\(external site\\))?$`) }),
      ).toBeVisible();
    }
  });

  test("on a database page sent without JavaScript, the Solutions menu is the browser's disclosure", async ({
    page,
  }) => {
    await page.goto("/database");
    const header = page.locator("header").first();
    const solutions = header.locator("summary", { hasText: "Solutions" });
    await expect(header.getByRole("link", { name: "Managed VDP" })).toBeHidden();
    await solutions.click();
    await expect(header.getByRole("link", { name: "Managed VDP" })).toBeVisible();
  });

  test("the footer shows the active program count from the API and the data attribution", async ({
    page,
    request,
  }) => {
    const metrics = await (await request.get("/api/public/footer/metrics")).json();
    await page.goto("/database");
    await expect(page.getByTestId("active-vdp-count")).toContainText(
      String(metrics.active_vdp_directory_count),
    );
    const footer = page.locator("footer");
    await expect(footer).toContainText("Defiant");
    await expect(footer).toContainText("MITRE");
  });

  test("the loading bar shows in #AFE614, 3 px high, while a navigation is slow", async ({ page }) => {
    await gotoHydrated(page, "/database/report");
    // Hold the next page's data request so the navigation outlasts the bar's 200 ms throttle.
    await page.route("**/*.data*", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1200));
      await route.continue();
    });
    const bar = page.getByTestId("loading-bar");
    // The database home has a loader, so its client-side navigation fetches data.
    await page.locator('main a[href="/database"]').first().click();
    await expect(bar).toHaveCSS("opacity", "1");
    await expect(bar).toHaveCSS("background-color", "rgb(175, 230, 20)");
    await expect(bar).toHaveCSS("height", "3px");
    await expect(page).toHaveURL(/\/database$/);
    await expect(bar).toHaveCSS("opacity", "0", { timeout: 5000 });
  });

  test("the build endpoint answers the id the page was built with", async ({ request }) => {
    const latest = await (await request.get("/builds/latest.json")).json();
    expect(latest.id).toMatch(/^\d{14}-[0-9a-f]{10}$/);
  });
});

test.describe("rendered pages kept for anonymous visitors", () => {
  test("a repeated anonymous read gets the same page with an ETag, and revalidates with 304", async ({
    request,
  }) => {
    const first = await request.get("/database/about-data");
    expect(first.status()).toBe(200);
    const etag = first.headers().etag;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const second = await request.get("/database/about-data");
    expect(second.headers().etag).toBe(etag);
    expect(await second.text()).toBe(await first.text());
    const revalidated = await request.get("/database/about-data", { headers: { "if-none-match": etag! } });
    expect(revalidated.status()).toBe(304);
  });

  test("a visitor with a session cookie is never served a stored page", async ({ request }) => {
    const response = await request.get("/database/about-data", {
      headers: { cookie: "pressguard_session=unknown" },
    });
    expect(response.status()).toBe(200);
    expect(response.headers().etag).toBeUndefined();
  });
});
