import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import {
  authModeOf,
  csrfHeaderOf,
  fromMailbox,
  gotoHydrated,
  mailedLink,
  postAsUser,
  saveNewResearcherProfile,
  setUpThroughApi,
  signInThroughApi,
  signUpThroughApi,
  uniqueEmail,
  userHeaders,
} from "./auth-helpers.ts";
import { signInStaffInBrowser } from "./staff-session.ts";

/**
 * Issue 7's proof, the one disclosure journey (PRODUCT.md §2, §3, §5): a signed-out researcher
 * reports a real plugin with the ALTCHA captcha and signs in from the mailed link; staff validate the
 * report and notify the vendor, whose active program covers the plugin; the vendor fixes it; staff
 * verify and publish; the public page credits the researcher, who is on the leaderboard. Then a
 * product with no active program: its contact reads the link and the PIN from the mailbox, opens the
 * preview and submits a patch; staff verify and publish. Every e-mail is read from the dev mailbox.
 */

/** A real plugin of the seed data whose homepage is on its own domain, which no other spec touches. */
const PLUGIN = { slug: "autoptimize", name: "Autoptimize", domain: "autoptimize.com" };
const CVSS = "CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N";

interface ReportText {
  title: string;
  description: string;
  steps: string;
  proofOfConcept: string;
}

/** Every field of the report form after the product; the e-mail and captcha are the caller's. */
async function fillReport(page: Page, text: ReportText) {
  await page.getByLabel("Affected versions").selectOption("<=");
  await page.getByLabel("Version", { exact: true }).fill("3.1.12");
  await page.getByLabel("Vulnerability type").selectOption({ label: "Cross-Site Scripting (XSS)" });
  await page.getByLabel("OWASP Top 10 category").selectOption({ label: "A3 Injection" });
  await page.getByLabel("Required privilege").selectOption({ label: "Contributor" });
  await page.getByLabel("CVSS 3.1 vector").fill(CVSS);
  await page.getByLabel("Title").fill(text.title);
  await page.getByLabel("Description").fill(text.description);
  await page.getByLabel("Steps to reproduce").fill(text.steps);
  await page.getByLabel("Proof of concept").fill(text.proofOfConcept);
}

/** The real ALTCHA proof of work, solved in the browser: it starts on focus, or on the checkbox. */
async function solveCaptcha(page: Page) {
  const state = page.locator("altcha-widget [data-state]");
  await expect(state).toHaveAttribute("data-state", /.+/);
  if ((await state.getAttribute("data-state")) === "unverified")
    await page.getByRole("checkbox", { name: "I'm not a robot" }).check();
  await expect(state).toHaveAttribute("data-state", "verified", { timeout: 30_000 });
}

/** A vendor whose verified address is on the plugin's own domain claims it: an active program at once. */
async function vendorOwningPlugin(context: BrowserContext) {
  const email = `security-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@${PLUGIN.domain}`;
  const registered = await context.request.post("/api/register", {
    // Token mode sends no XSRF pair: the JSON body is its CSRF defence (decision 021).
    headers: authModeOf().mode === "token" ? {} : await csrfHeaderOf(context.request),
    data: { name: "Autoptimize security", email, password: "correct horse battery", role: "vendor" },
  });
  expect(registered.status(), await registered.text()).toBe(202);
  await context.request.get(await mailedLink(context, email, /https?:\/\/\S+\/api\/email\/verify\/\S+/));
  await signInThroughApi(context, email, "correct horse battery");
  await setUpThroughApi(context, email, ["vendor"]);
  const lobby = await context.request.get(`/api/products/lobby?q=${PLUGIN.slug}`, {
    headers: await userHeaders(context),
  });
  const product = ((await lobby.json()) as { data: { id: number; slug: string }[] }).data.find(
    (row) => row.slug === PLUGIN.slug,
  );
  if (!product) throw new Error(`${PLUGIN.slug} is not in the lobby of the seed data`);
  const claimed = await postAsUser(context, `/api/products/${product.id}/activate-product`, {
    is_lobby_product: true,
  });
  expect(await claimed.json()).toMatchObject({ status: "success" });
  return email;
}

/** A product registered by a vendor who never activated its program: the PIN goes to its contact. */
async function productWithoutProgram(context: BrowserContext, contact: string) {
  await signUpThroughApi(context, ["vendor"]);
  const slug = `journey-gallery-${Date.now().toString(36)}`;
  const created = await postAsUser(context, "/api/products", {
    kind: "plugin",
    name: `Journey Gallery ${slug.slice(-6)}`,
    slug,
    product_url: `https://${slug}.example.test/plugin`,
    vendor_website_url: `https://${slug}.example.test`,
    vendor_contact_email: contact,
  });
  expect(created.status(), await created.text()).toBe(201);
  return { slug, name: `Journey Gallery ${slug.slice(-6)}` };
}

/** Staff move a report along on its page, each action confirmed by its message. */
async function staffAct(staff: Page, button: string, confirmation: string) {
  await staff.getByRole("button", { name: button, exact: true }).click();
  await expect(staff.getByText(confirmation)).toBeVisible();
}

async function staffValidateAndNotify(staff: Page, reportId: string) {
  await gotoHydrated(staff, `/staff/reports/${reportId}`);
  await staffAct(staff, "Take into review", "The report is now in review.");
  await expect(staff.getByLabel("CVSS 3.1 vector")).toHaveValue(CVSS);
  await staffAct(staff, "Validate the report", "The report is validated.");
  await staffAct(staff, "Notify the vendor", "The vendor was notified; the fix deadline has started.");
}

async function staffVerifyAndPublish(staff: Page, reportId: string) {
  await gotoHydrated(staff, `/staff/reports/${reportId}`);
  await staffAct(staff, "Verify the fix", "The fix is verified.");
  await staffAct(staff, "Publish", "The vulnerability is published.");
}

const reportIdIn = (url: string) => /\/([0-9a-f-]{36})\/[a-z]+$/.exec(new URL(url).pathname)?.[1] ?? "";

test("a report goes from a signed-out researcher to a published, credited vulnerability, with and without a program", async ({
  browser,
  baseURL,
}) => {
  // Token mode with localStorage loads each guarded page twice (the shell, then the page: decision 021).
  test.setTimeout(authModeOf().mode === "token" ? 180_000 : 120_000);
  const stamp = Date.now().toString(36);
  const researcherEmail = uniqueEmail("journey-researcher");
  const title = `Stored XSS in the critical CSS settings ${stamp}`;

  const vendorContext = await browser.newContext();
  const staffContext = await browser.newContext();
  const researcherContext = await browser.newContext();
  const [vendorEmail] = await Promise.all([
    vendorOwningPlugin(vendorContext),
    signInStaffInBrowser(staffContext, baseURL ?? ""),
  ]);

  // The signed-out researcher reports the plugin, found by search, and solves the captcha.
  const researcher = await researcherContext.newPage();
  await gotoHydrated(researcher, "/database/report");
  await researcher.getByLabel("Affected software").fill(PLUGIN.name);
  await researcher
    .getByRole("list", { name: "Matching products" })
    .getByRole("button")
    .filter({ has: researcher.getByText(PLUGIN.slug, { exact: true }) })
    .click();
  await expect(researcher.getByTestId("chosen-product")).toHaveText(PLUGIN.name);
  await fillReport(researcher, {
    title,
    description: "The critical CSS field is printed on the settings screen **without escaping**.",
    steps:
      "1. Sign in as a contributor.\n2. Save a critical CSS rule with a script tag.\n3. An admin opens it.",
    proofOfConcept: "```\n</style><script>alert(document.domain)</script>\n```",
  });
  await researcher.getByLabel("Your e-mail address").fill(researcherEmail);
  await solveCaptcha(researcher);
  await researcher.getByRole("button", { name: "Submit report" }).click();
  await expect(researcher).toHaveURL(/\/database\/preview-email$/);
  await expect(researcher.locator("h1")).toHaveText("Check your inbox");
  await expect(researcher.getByTestId("submitted-title")).toHaveText(title);

  // The mailed sign-in link leads to the profile set-up (issue 19), then the reports, the new one in review.
  await researcher.goto(
    await mailedLink(researcher, researcherEmail, /https?:\/\/\S+\/login\/magic-link\/[0-9a-f-]{36}/),
  );
  await saveNewResearcherProfile(researcher);
  // Made by the signed-out report, the account has no password: the settings set a first one, without
  // asking for a current one (issue 19), then offer the usual change.
  await gotoHydrated(researcher, "/researchers/settings");
  const passwordSection = researcher.getByRole("region", { name: "Password" });
  await expect(passwordSection.getByLabel("Current password")).toHaveCount(0);
  await passwordSection.getByLabel("New password").fill("my first password");
  await passwordSection.getByRole("button", { name: "Set password" }).click();
  await expect(passwordSection.getByRole("status")).toContainText("Your password has been changed.");
  await expect(passwordSection.getByLabel("Current password")).toBeVisible();
  await researcher.goto("/");
  await expect(researcher).toHaveURL(/\/researchers\/[0-9a-f-]{36}\/in-review$/);
  await researcher.getByRole("link", { name: title }).click();
  await expect(researcher).toHaveURL(/\/researchers\/reports\/[0-9a-f-]{36}\/preview$/);
  const reportId = reportIdIn(researcher.url());
  // Opened from their own list, the report is in their area: its menu and Sign out (issue 19).
  await expect(researcher.getByRole("navigation", { name: "Researcher" })).toBeVisible();
  await expect(researcher.getByRole("button", { name: "Sign out" })).toBeVisible();

  // Staff validate it and notify the vendor.
  const staff = await staffContext.newPage();
  await staffValidateAndNotify(staff, reportId);

  // The vendor's mailed link opens the report without an account; its token leaves the URL at once
  // for an HttpOnly grant (issue 15), which a reload still reads with.
  const vendorLink = await mailedLink(
    vendorContext,
    vendorEmail,
    new RegExp(`https?://\\S+/vdp/vulnerabilities/${reportId}/preview\\?token=\\S+`),
  );
  const linkReader = await (await browser.newContext()).newPage();
  await gotoHydrated(linkReader, new URL(vendorLink).pathname + new URL(vendorLink).search);
  await expect(linkReader).toHaveURL(new RegExp(`/vdp/vulnerabilities/${reportId}/preview$`));
  await expect(linkReader.getByRole("heading", { level: 1 })).toHaveText(title);
  await linkReader.reload();
  await expect(linkReader.getByRole("heading", { level: 1 })).toHaveText(title);
  // Not signed in: the bare preview, no menu and no Sign out.
  await expect(linkReader.getByRole("navigation", { name: "Vendor" })).toHaveCount(0);
  await expect(linkReader.getByRole("button", { name: "Sign out" })).toHaveCount(0);
  expect(
    (await linkReader.context().cookies())
      .filter((cookie) => cookie.name === "pressguard_link_grant")
      .map((cookie) => [cookie.path, cookie.httpOnly]),
  ).toEqual(
    expect.arrayContaining([
      [`/vdp/vulnerabilities/${reportId}`, true],
      [`/api/reports/${reportId}`, true],
      [`/api/vendor/reports/${reportId}`, true],
    ]),
  );
  await linkReader.context().close();

  // The vendor finds it awaiting a fix and submits one.
  const vendor = await vendorContext.newPage();
  await gotoHydrated(vendor, "/vdp/reports/awaiting_fix");
  await vendor.getByRole("row").filter({ hasText: title }).getByRole("link", { name: title }).click();
  await expect(vendor.getByRole("heading", { level: 1 })).toHaveText(title);
  // Opened from their report list, the report is in the vendor area: its menu and Sign out (issue 19).
  await expect(vendor.getByRole("navigation", { name: "Vendor" })).toBeVisible();
  await expect(vendor.getByRole("button", { name: "Sign out" })).toBeVisible();
  await vendor.getByLabel("Fixed in version").fill("3.1.13");
  await vendor.getByLabel("Notes").fill("The critical CSS is escaped with esc_html() since 3.1.13.");
  await vendor.getByRole("button", { name: "Submit the fix" }).click();
  await expect(vendor.getByText("Fix submitted: our team will verify it.")).toBeVisible();

  // Staff verify and publish; the public page credits the researcher with a link to their profile.
  await staffVerifyAndPublish(staff, reportId);
  await staff.getByRole("link", { name: "Public page" }).click();
  await expect(staff.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(staff.getByRole("link", { name: PLUGIN.name, exact: true }).first()).toHaveAttribute(
    "href",
    `/database/wordpress/plugin/${PLUGIN.slug}/vulnerabilities/vdp`,
  );
  const credit = staff.getByRole("region", { name: "Credits" }).getByRole("link");
  await expect(credit).toHaveCount(1);
  const researcherName = (await credit.textContent()) ?? "";
  // A neutral name until the researcher names their profile, never their address (issue 19).
  expect(researcherName).toMatch(/^Researcher [0-9a-f]{6}$/);
  await credit.click();
  await expect(staff).toHaveURL(/\/database\/researchers\/[0-9a-f-]{36}$/);
  await expect(staff.getByRole("heading", { level: 1 })).toHaveText(researcherName);
  const profilePath = new URL(staff.url()).pathname;
  // The database pages are static HTML (decision 007): nothing to hydrate.
  await staff.goto("/database/leaderboard");
  await expect(staff.locator(`a[href="${profilePath}"]`)).toHaveText(researcherName);

  // A product with no active program: the researcher, signed in now, reports it from its own link.
  const contact = uniqueEmail("journey-contact");
  const product = await productWithoutProgram(await browser.newContext(), contact);
  const secondTitle = `Reflected XSS in the gallery lightbox ${stamp}`;
  await gotoHydrated(researcher, `/database/report/wordpress/plugin/${product.slug}`);
  await expect(researcher.getByTestId("chosen-product")).toHaveText(product.name);
  await fillReport(researcher, {
    title: secondTitle,
    description: "The lightbox caption parameter is echoed into the page without escaping.",
    steps: "Open a gallery with the payload in the caption parameter as a visitor.",
    proofOfConcept: "/?lightbox-caption=<svg/onload=alert(1)> shows the alert.",
  });
  await researcher.getByRole("button", { name: "Submit report" }).click();
  await expect(researcher).toHaveURL(/\/database\/report-submitted\?report=[0-9a-f-]{36}$/);
  const secondId = new URL(researcher.url()).searchParams.get("report") ?? "";
  await staffValidateAndNotify(staff, secondId);

  // The contact reads the link and the PIN from two e-mails, opens the report and submits a patch.
  const pinPage = await (await browser.newContext()).newPage();
  const pinLink = await mailedLink(pinPage, contact, /https?:\/\/\S+\/database\/report-preview\/\S+\/pin/);
  const pin = await fromMailbox(pinPage, contact, (mail) =>
    /^Your PIN/.test(mail.subject) ? /is: ([0-9]{6})/.exec(mail.text)?.[1] : undefined,
  );
  await gotoHydrated(pinPage, new URL(pinLink).pathname);
  await pinPage.getByLabel("PIN", { exact: true }).fill(pin);
  await pinPage.getByRole("button", { name: "Open the report" }).click();
  await expect(pinPage).toHaveURL(new RegExp(`/database/report-preview/${secondId}/preview$`));
  await expect(pinPage.locator("h1")).toHaveText(secondTitle);
  await pinPage.getByLabel("Fixed version").fill("1.0.1");
  await pinPage.getByLabel("Notes").fill("The caption is escaped with esc_attr() now.");
  await pinPage.getByLabel("Patch (diff)").fill("-echo $caption;\n+echo esc_attr( $caption );");
  await pinPage.getByRole("button", { name: "Submit the fix" }).click();
  await expect(pinPage).toHaveURL(/\/database\/patch-submitted$/);
  await expect(pinPage.locator("h1")).toHaveText("Patch submitted");

  await staffVerifyAndPublish(staff, secondId);
  await staff.getByRole("link", { name: "Public page" }).click();
  await expect(staff.getByRole("region", { name: "Credits" })).toContainText(researcherName);

  for (const context of browser.contexts()) await context.close();
});
