import { expect, test } from "@playwright/test";
import { expectNoSeriousViolations } from "./axe.ts";
import { PRODUCT_PAGE, researcherProfilePath, STATISTICS_PAGE, VULNERABILITY_PAGE } from "./public-pages.ts";

/**
 * QUALITY.md: public pages pass axe (WCAG 2.1 A and AA rules, best practices) with no violation of
 * any impact (issue 38), the forms a visitor meets first included.
 */
const pages: { name: string; path: string | "researcher" }[] = [
  { name: "database home", path: "/database" },
  { name: "existing-vulnerability look-up", path: "/database/existing?q=contact+form" },
  { name: "vulnerability page", path: VULNERABILITY_PAGE },
  { name: "product vulnerabilities", path: PRODUCT_PAGE },
  { name: "VDP directory", path: "/database/vdp" },
  { name: "leaderboard", path: "/database/leaderboard/all-time" },
  { name: "statistics", path: STATISTICS_PAGE },
  { name: "researcher profile", path: "researcher" },
  { name: "report form", path: "/database/report" },
  { name: "report form of a product", path: "/database/report/wordpress/plugin/contact-form-7" },
  { name: "site check", path: "/database/check" },
  { name: "API page", path: "/database/api" },
  { name: "about the data", path: "/database/about-data" },
  { name: "researcher login", path: "/researchers/login" },
  { name: "registration", path: "/register" },
  { name: "vendor login", path: "/vdp/login" },
];

for (const { name, path } of pages) {
  test(`the ${name} has no accessibility violation`, async ({ page, request }) => {
    const url = path === "researcher" ? await researcherProfilePath(request) : path;
    const response = await page.goto(url);
    expect(response?.status()).toBe(200);
    // Parts that load after hydration (the report form's "Is it already known?") are checked too.
    await page.waitForLoadState("networkidle");
    // Closed disclosures (the Solutions menu, the statistics' monthly table) are checked open too.
    await page.locator("details").evaluateAll((elements) => {
      for (const element of elements) (element as HTMLDetailsElement).open = true;
    });
    await expectNoSeriousViolations(page);
  });
}
