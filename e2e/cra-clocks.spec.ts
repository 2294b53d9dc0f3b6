import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { csafErrorsOf } from "../apps/server/src/test/csaf-schema.ts";
import { authModeOf, gotoHydrated, postAsUser, userHeaders } from "./auth-helpers.ts";
import { screenshotBothWidths, vendorProgram, verifiedAccount } from "./program-helpers.ts";
import { signInStaffInBrowser } from "./staff-session.ts";

/**
 * Issue 20, the EU Cyber Resilience Act's Article 14 clocks: a vendor marks a report on its product
 * actively exploited, sees the 24 h / 72 h / 14 d clocks, confirms the early warning, and downloads
 * the CSAF draft, which validates against the official CSAF 2.0 schema; the program page lists the
 * running clocks.
 */

test("a vendor marks a report actively exploited, sees the CRA clocks and downloads a valid CSAF draft", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(authModeOf().mode === "token" ? 180_000 : 120_000);
  const stamp = Date.now().toString(36);
  const slug = `cra-clocks-${stamp}`;
  const title = `Unauthenticated option update in ${slug}`;

  // The vendor's browser is in Berlin: the form's local time goes to the API as UTC.
  const vendorContext = await browser.newContext({ timezoneId: "Europe/Berlin" });
  const researcherContext = await browser.newContext();
  const staffContext = await browser.newContext();
  const [productId] = await Promise.all([
    vendorProgram(vendorContext, slug, { name: `Cra Clocks ${slug}` }),
    verifiedAccount(researcherContext, "researcher"),
    signInStaffInBrowser(staffContext, baseURL ?? ""),
  ]);

  const submitted = await postAsUser(researcherContext, "/api/reports", {
    kind: "plugin",
    product_slug: slug,
    product_name: `Cra Clocks ${slug}`,
    affected_version_prefix: "<=",
    affected_version: "3.1.0",
    vulnerability_type: 3,
    owasp_category: 41,
    required_privilege: 1,
    title,
    description: "An AJAX action updates any site option without a capability check or nonce.",
    steps_to_reproduce: "1. Send the AJAX action signed out.\n2. Set users_can_register and default_role.",
    proof_of_concept: "POST /wp-admin/admin-ajax.php action=cra_save&option=default_role&value=administrator",
    cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
  });
  expect(submitted.status(), await submitted.text()).toBe(201);
  const reportId = ((await submitted.json()) as { id: string }).id;
  const transitions = `/api/staff/reports/${reportId}/transitions`;
  for (const body of [
    { action: "take_into_review" },
    {
      action: "validate",
      vulnerability_type: 3,
      owasp_category: 41,
      required_privilege: 1,
      affected_version_prefix: "<=",
      affected_version: "3.1.0",
      cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
    },
    { action: "notify_vendor" },
  ]) {
    const moved = await postAsUser(staffContext, transitions, body);
    expect(moved.status(), await moved.text()).toBe(200);
  }

  // The vendor opens the report, phone-sized, and marks it exploited from two hours ago.
  const page = await vendorContext.newPage();
  await page.setViewportSize({ width: 390, height: 900 });
  await gotoHydrated(page, `/vdp/vulnerabilities/${reportId}/preview`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  const panel = page.getByRole("region", { name: "Actively exploited?" });
  await expect(panel).toContainText("EU Cyber Resilience Act (Article 14)");
  await expect(panel).toContainText("single reporting platform");
  const awareAt = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 2 * 3_600_000);
  const localValue = await page.evaluate((iso) => {
    const date = new Date(iso);
    return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
  }, awareAt.toISOString());
  expect(localValue).not.toBe(awareAt.toISOString().slice(0, 16));
  await panel.getByLabel("When did you become aware it is exploited?").fill(localValue);
  await panel.getByRole("button", { name: "Mark as actively exploited" }).click();
  await expect(page.getByText("Marked as actively exploited: the clocks are running.")).toBeVisible();

  const clock = (step: string) => panel.locator(`li[data-step="${step}"]`);
  await expect(clock("early_warning")).toContainText("Early warning");
  await expect(clock("early_warning")).toContainText(/Due .* · (21 h \d+ min|22 h) left/);
  await expect(clock("notification")).toContainText(/Due .* · 2 days 2[12] h left/);
  await expect(clock("final_report")).toContainText("Waiting for the fix");
  await expect(clock("final_report")).toContainText("Due 14 days after the fix is available");
  const status = (await (
    await vendorContext.request.get(`/api/reports/${reportId}/exploitation`, {
      headers: await userHeaders(vendorContext),
    })
  ).json()) as { notice: { aware_at: string; clocks: { step: string; due_at: string | null }[] } };
  expect(status.notice.aware_at).toBe(awareAt.toISOString());
  expect(status.notice.clocks.map((entry) => entry.due_at)).toEqual([
    new Date(awareAt.getTime() + 24 * 3_600_000).toISOString(),
    new Date(awareAt.getTime() + 72 * 3_600_000).toISOString(),
    null,
  ]);

  // The early warning is sent: the vendor confirms it.
  await clock("early_warning")
    .getByRole("button", { name: /^Mark as submitted\W+Early warning$/ })
    .click();
  await expect(clock("early_warning")).toContainText("Submitted");
  await expect(clock("early_warning").getByRole("button")).toHaveCount(0);

  // The notification's draft, read on the page and downloaded as CSAF.
  await panel.getByText(`Vulnerability notification: ${title}`).click();
  const draft = panel.locator("details", { hasText: `Vulnerability notification: ${title}` });
  await expect(draft).toContainText("Nature of the exploit and of the vulnerability");
  await expect(draft).toContainText("Broken Access Control");
  await screenshotBothWidths(page, "cra-clocks-vendor-report");
  await page.setViewportSize({ width: 390, height: 900 });
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    draft.getByRole("link", { name: "Download as CSAF 2.0 (JSON)" }).click(),
  ]);
  const document = JSON.parse(await readFile((await download.path()) ?? "", "utf8")) as {
    document: { tracking: { status: string }; title: string };
  };
  expect(document.document.tracking.status).toBe("draft");
  expect(document.document.title).toBe(`Vulnerability notification: ${title}`);
  expect(csafErrorsOf([document])).toEqual([]);

  // The program page lists the report with its running clocks.
  await gotoHydrated(page, `/vdp/programs/${productId}`);
  const running = page.getByRole("region", { name: "Actively exploited: deadlines running" });
  await expect(running.getByRole("link", { name: title })).toBeVisible();
  await expect(running.locator('li[data-step="notification"]')).toContainText(/2 days 2[12] h left/);
  await screenshotBothWidths(page, "cra-clocks-vendor-program");

  // Staff see the same clocks on their report page.
  const staff = await staffContext.newPage();
  await gotoHydrated(staff, `/staff/reports/${reportId}`);
  const staffCard = staff.getByRole("region", { name: "Actively exploited? (EU Cyber Resilience Act)" });
  await expect(staffCard.locator('li[data-step="early_warning"]')).toContainText("Submitted");
  await expect(staffCard.locator('li[data-step="final_report"]')).toContainText("Waiting for the fix");

  for (const context of [vendorContext, researcherContext, staffContext]) await context.close();
});
