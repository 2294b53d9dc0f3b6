import { type BrowserContext, expect, test } from "@playwright/test";
import { authModeOf, gotoHydrated, mailedLink, postAsUser, signUpThroughApi } from "./auth-helpers.ts";
import { signInStaffInBrowser } from "./staff-session.ts";

/**
 * Issue 19, duplicates against the database: a researcher reports an XSS on Contact Form 7, which
 * has published XSS records; staff see a record among the possible duplicates and close the report
 * as its duplicate; the researcher reads "Closed as a duplicate of" with the record's public link.
 */

async function verifiedResearcher(context: BrowserContext) {
  const account = await signUpThroughApi(context, ["researcher"]);
  await context.request.get(
    await mailedLink(context, account.email, /https?:\/\/\S+\/api\/email\/verify\/\S+/),
  );
  return account;
}

test("staff close a report as a duplicate of a published record, and the researcher sees its link", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(authModeOf().mode === "token" ? 180_000 : 120_000);
  const title = `Stored XSS in the form title ${Date.now().toString(36)}`;
  const researcherContext = await browser.newContext();
  const staffContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await Promise.all([
    verifiedResearcher(researcherContext),
    signInStaffInBrowser(staffContext, baseURL ?? ""),
  ]);

  const submitted = await postAsUser(researcherContext, "/api/reports", {
    kind: "plugin",
    product_slug: "contact-form-7",
    product_name: "Contact Form 7",
    affected_version_prefix: "<=",
    affected_version: "5.0",
    vulnerability_type: 2,
    owasp_category: 43,
    required_privilege: 3,
    title,
    description: "The form title is printed in the admin list without escaping it.",
    steps_to_reproduce: "1. Sign in as an editor.\n2. Save a form title with a script.\n3. Open the list.",
    proof_of_concept: "Form title: <svg onload=alert(document.domain)> runs for every administrator.",
  });
  expect(submitted.status(), await submitted.text()).toBe(201);
  const reportId = ((await submitted.json()) as { id: string }).id;

  const staff = await staffContext.newPage();
  await gotoHydrated(staff, `/staff/reports/${reportId}`);
  await expect(staff.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(staff.getByTestId("known-vulnerability-count")).toContainText(/\d+ known vulnerabilit/);
  const first = staff.getByRole("list", { name: "Possible duplicates" }).getByRole("listitem").first();
  await expect(first).toContainText("Published record");
  await expect(first).toContainText("Same type and overlapping versions");
  const recordLink = first.getByRole("link");
  const recordTitle = (await recordLink.textContent()) ?? "";
  const recordPath = (await recordLink.getAttribute("href")) ?? "";
  expect(recordPath).toMatch(/^\/database\/wordpress\/plugin\/contact-form-7\/vulnerability\//);

  await staff.getByRole("button", { name: "Take into review", exact: true }).click();
  await expect(staff.getByText("The report is now in review.")).toBeVisible();
  await first.getByRole("button", { name: "Mark as duplicate of this" }).click();
  await expect(staff.getByText("The report was rejected.")).toBeVisible();

  const researcher = await researcherContext.newPage();
  await gotoHydrated(researcher, `/researchers/reports/${reportId}/preview`);
  const note = researcher.getByRole("note").filter({ hasText: "Closed as a duplicate of" });
  await expect(note).toBeVisible();
  await expect(note.getByRole("link", { name: recordTitle })).toHaveAttribute("href", recordPath);
});
