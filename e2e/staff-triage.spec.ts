import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { fromMailbox, mailedLink, signUpThroughApi, userHeaders } from "./auth-helpers.ts";
import { expectNoSeriousViolations } from "./axe.ts";
import {
  ensureStaffTwoFactor,
  staffCredentials,
  staffRequestContext,
  withNextStaffCode,
} from "./staff-session.ts";
import { startWebhookReceiver } from "./webhook-receiver.ts";

/**
 * Issue 7, the triage journey (PRODUCT.md §2): a researcher reports a vulnerability in a vendor's
 * active program; staff sign in with their second factor, take it into review, validate it (a bad
 * CVSS vector is refused first) and notify the vendor; the vendor sees it awaiting a fix and submits
 * one; staff verify the fix and publish; the public vulnerability page credits the researcher. On the
 * way: a possible duplicate flagged and rejected, a stale tab's action refused (409), a lobby claim
 * rejected with a reason, and axe on each page photographed.
 */

const XSS = `<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2"> [click](javascript:window.__pwned=3)`;

async function gotoHydrated(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
}

/** Opens the e-mail verification link mailed to `email`, read from the development mailbox. */
async function verifyEmail(context: BrowserContext, email: string) {
  await context.request.get(await mailedLink(context, email, /https?:\/\/\S+\/api\/email\/verify\/\S+/));
}

/** The vendor verifies its address, then starts and activates a program. */
async function vendorWithActiveProgram(context: BrowserContext, slug: string) {
  const { email } = await signUpThroughApi(context, ["vendor"]);
  await verifyEmail(context, email);

  const created = await context.request.post("/api/products", {
    headers: await userHeaders(context),
    data: {
      kind: "plugin",
      name: `Triage Journey ${slug}`,
      slug,
      product_url: `https://${slug}.example.test/plugin`,
      vendor_website_url: `https://${slug}.example.test`,
      plan: "free",
    },
  });
  expect(created.status(), await created.text()).toBeLessThan(300);
  const program = (await created.json()) as { id: number };
  const activated = await context.request.post(`/api/products/${program.id}/activate-product`, {
    headers: await userHeaders(context),
    data: { is_lobby_product: false },
  });
  expect(await activated.json()).toMatchObject({ status: "success" });
  return email;
}

/** The vendor claims a database product of another domain: the claim waits for staff (decision 006). */
async function claimLobbyProduct(context: BrowserContext): Promise<string> {
  const lobby = (await (
    await context.request.get("/api/products/lobby?q=gallery", { headers: await userHeaders(context) })
  ).json()) as {
    data: { id: number; name: string }[];
  };
  const product = lobby.data[0];
  if (!product) throw new Error("no lobby product matches “gallery” in the seed data");
  const claimed = await context.request.post(`/api/products/${product.id}/activate-product`, {
    headers: await userHeaders(context),
    data: { is_lobby_product: true },
  });
  expect(await claimed.json()).toMatchObject({ status: "pending" });
  return product.name;
}

/** Staff sign in on the login page with their second factor and land on `redirect`. */
async function signInStaff(page: Page, baseURL: string, redirect: string) {
  const { email, password } = staffCredentials();
  // The shared staff account gets its second factor from whichever spec needs it first.
  await ensureStaffTwoFactor(baseURL);
  await gotoHydrated(page, `/vdp/login?redirect=${redirect}`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByLabel("Authentication code")).toBeVisible();
  await withNextStaffCode(baseURL, async (code) => {
    await page.getByLabel("Authentication code").fill(code);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    // The path, not the whole URL: the login page's own `?redirect=` ends with it too.
    await expect(page).toHaveURL((url) => url.pathname === redirect);
  });
}

/** The picture, then no serious or critical axe violation (QUALITY.md). */
async function screenshot(page: Page, name: string) {
  await expect(page.getByText("Loading", { exact: false })).toHaveCount(0);
  await page.screenshot({ path: `reports/screenshots/${name}-xl.png`, fullPage: true });
  await expectNoSeriousViolations(page);
}

test("staff triage a report, the vendor fixes it, staff publish it with credit", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const consoleErrors: string[] = [];
  const watch = (page: Page) =>
    page.on("console", (message) => {
      if (message.type() === "error" && !message.text().startsWith("Failed to load resource"))
        consoleErrors.push(message.text());
    });

  const slug = `triage-journey-${Date.now().toString(36)}`;
  const title = `Stored XSS in the settings page of ${slug}`;

  // The vendor, with an active program for the product.
  const vendorContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const vendorEmail = await vendorWithActiveProgram(vendorContext, slug);
  const claimedProduct = await claimLobbyProduct(vendorContext);

  // The researcher reports through the API (signed in: no captcha).
  const researcherContext = await browser.newContext();
  const researcher = await signUpThroughApi(researcherContext, ["researcher"]);
  await verifyEmail(researcherContext, researcher.email);
  const reportBody = {
    kind: "plugin",
    product_slug: slug,
    product_name: `Triage Journey ${slug}`,
    affected_version_prefix: "<=",
    affected_version: "1.0.0",
    vulnerability_type: 2,
    owasp_category: 43,
    required_privilege: 6,
    title,
    description: `The **label** field of the settings page is printed without escaping. ${XSS}`,
    steps_to_reproduce:
      "1. Sign in as an administrator.\n2. Save the label `<svg onload=alert(1)>`.\n3. Open the page.",
    proof_of_concept: "```html\n<svg onload=alert(document.domain)>\n```\nThe alert shows on every visit.",
    suggested_fix: "Escape the label with `esc_html()` when printing it.",
    cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:H/UI:R/S:C/C:L/I:L/A:N",
  };
  const submitted = await researcherContext.request.post("/api/reports", {
    headers: await userHeaders(researcherContext),
    data: reportBody,
  });
  expect(submitted.status(), await submitted.text()).toBe(201);
  const reportId = ((await submitted.json()) as { id: string }).id;
  // The same product and type again: kept, and flagged to staff as a possible duplicate.
  const duplicateTitle = `Another XSS in the settings page of ${slug}`;
  const duplicate = await researcherContext.request.post("/api/reports", {
    headers: await userHeaders(researcherContext),
    data: { ...reportBody, title: duplicateTitle },
  });
  expect(duplicate.status(), await duplicate.text()).toBe(201);
  const researcherView = await (
    await researcherContext.request.get(`/api/reports/${reportId}`, {
      headers: await userHeaders(researcherContext),
    })
  ).json();
  const researcherName = (researcherView as { researcher: { display_name: string } }).researcher.display_name;

  // Staff sign in on the login page with their second factor and land on the queue.
  const staffContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const staff = await staffContext.newPage();
  watch(staff);
  await signInStaff(staff, baseURL ?? "", "/staff/reports");
  await expect(staff.getByRole("heading", { level: 1 })).toHaveText("Reports queue");
  await expect(staff.getByRole("link", { name: "New" })).toHaveAttribute("aria-current", "page");
  const row = staff.getByRole("row").filter({ hasText: title });
  await expect(row).toContainText("Submitted");
  const duplicateRow = staff.getByRole("row").filter({ hasText: duplicateTitle });
  await expect(duplicateRow.getByRole("link", { name: "Possible duplicate" })).toBeVisible();
  await expect(row.getByRole("link", { name: "Possible duplicate" })).toHaveCount(0);
  await screenshot(staff, "staff-queue");

  // The report's full detail, untrusted Markdown rendered inert.
  await row.getByRole("link", { name: title }).click();
  await expect(staff).toHaveURL(new RegExp(`/staff/reports/${reportId}$`));
  await expect(staff.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(staff.getByRole("link", { name: researcherName })).toBeVisible();
  await expect(staff.locator("#report-description + div strong")).toHaveText("label");
  expect(await staff.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(staff.getByRole("button", { name: "Validate the report" })).toHaveCount(0);

  // A staff-only comment.
  await staff.getByLabel("Comment", { exact: true }).fill("Reproduced on 1.0.0 with the default theme.");
  await staff.getByRole("button", { name: "Add comment" }).click();
  await expect(staff.getByRole("list", { name: "Comments" })).toContainText("Staff only");

  await staff.getByRole("button", { name: "Take into review" }).click();
  await expect(staff.getByText("The report is now in review.")).toBeVisible();
  await expect(staff.getByRole("button", { name: "Take into review" })).toHaveCount(0);
  await expect(staff.getByRole("button", { name: "Reject the report" })).toBeVisible();

  // Validation: a bad vector is refused with the calculator's message, then the live score shows.
  const vector = staff.getByLabel("CVSS 3.1 vector");
  await expect(vector).toHaveValue("CVSS:3.1/AV:N/AC:L/PR:H/UI:R/S:C/C:L/I:L/A:N");
  await vector.fill("CVSS:3.1/AV:N/AC:L/PR:N");
  await staff.getByRole("button", { name: "Validate the report" }).click();
  await expect(staff.locator("#validate-cvss-vector-error")).toHaveText(
    "Missing base metrics: UI, S, C, I, A.",
  );
  await vector.fill("CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N");
  await expect(staff.getByTestId("cvss-preview")).toHaveText("Base score 6.1 · Medium");
  await staff.getByLabel("CVE id").fill("CVE-2026-424242");
  await screenshot(staff, "staff-report");
  await staff.getByRole("button", { name: "Validate the report" }).click();
  await expect(staff.getByText("The report is validated.")).toBeVisible();
  await expect(staff.getByText("Medium 6.1")).toBeVisible();

  await staff.getByRole("button", { name: "Notify the vendor" }).click();
  await expect(staff.getByText("The vendor was notified; the fix deadline has started.")).toBeVisible();
  await expect(staff.getByText("Waiting for the vendor's fix.")).toBeVisible();

  // The vendor finds it awaiting a fix, with its deadline, and submits a fix.
  const vendor = await vendorContext.newPage();
  watch(vendor);
  await gotoHydrated(vendor, "/vdp/reports/awaiting_fix");
  const vendorRow = vendor.getByRole("row").filter({ hasText: title });
  await expect(vendorRow).toContainText(/\d+ days left/);
  await expect(vendorRow).toContainText("Medium");
  await screenshot(vendor, "vendor-reports");
  await vendorRow.getByRole("link", { name: title }).click();
  await expect(vendor.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(vendor.getByText(/Fix deadline: .* — \d+ days left/)).toBeVisible();
  expect(await vendor.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
  await screenshot(vendor, "vendor-report");
  // Staff-only comments stay with staff.
  await expect(vendor.getByText("Reproduced on 1.0.0")).toHaveCount(0);
  await vendor.getByRole("button", { name: "Submit the fix" }).click();
  await expect(vendor.getByText("The fixed version is required.")).toBeVisible();
  await vendor.getByLabel("Fixed in version").fill("1.0.1");
  await vendor
    .getByLabel("Notes")
    .fill("The label is escaped since 1.0.1: https://example.test/changeset/42");
  await vendor.getByRole("button", { name: "Submit the fix" }).click();
  await expect(vendor.getByText("Fix submitted: our team will verify it.")).toBeVisible();
  await expect(vendor.getByText("Your fix (version 1.0.1) is waiting for verification")).toBeVisible();
  await vendor.getByLabel("Add a comment").fill("Thanks for the report: **1.0.1** is on wordpress.org now.");
  await vendor.getByRole("button", { name: "Send comment" }).click();
  await expect(vendor.locator("#report-comments + ol")).toContainText("1.0.1 is on wordpress.org now.");
  await gotoHydrated(vendor, "/vdp/reports/fix_pending");
  await expect(vendor.getByRole("row").filter({ hasText: title })).toBeVisible();

  // Staff verify the fix and publish.
  await gotoHydrated(staff, `/staff/reports/${reportId}`);
  await expect(staff.getByRole("list", { name: "Timeline" })).toContainText("Fix submitted");
  await expect(staff.getByRole("list", { name: "Comments" })).toContainText("1.0.1 is on wordpress.org now.");
  // A second tab opened before the fix is verified: its action is refused with the server's message.
  const staleTab = await staffContext.newPage();
  watch(staleTab);
  await gotoHydrated(staleTab, `/staff/reports/${reportId}`);
  await expect(staleTab.getByRole("button", { name: "Verify the fix" })).toBeVisible();
  await staff.getByRole("button", { name: "Verify the fix" }).click();
  await expect(staff.getByText("The fix is verified.")).toBeVisible();
  await staleTab.getByRole("button", { name: "Verify the fix" }).click();
  await expect(staleTab.getByText("A report in fixed cannot be verified as fixed.")).toBeVisible();
  await expect(staleTab.getByRole("button", { name: "Publish", exact: true })).toBeVisible();
  await staleTab.close();
  await staff.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(staff.getByText("The vulnerability is published.")).toBeVisible();

  // The public page credits the researcher.
  await staff.getByRole("link", { name: "Public page" }).click();
  await expect(staff.getByRole("heading", { level: 1 })).toContainText(slug);
  await expect(staff.getByRole("region", { name: "Credits" })).toContainText(researcherName);
  // The report's Markdown is rendered, not shown raw; no empty References heading (issue 19).
  const description = staff.getByRole("region", { name: "Description" });
  await expect(description.locator("strong")).toHaveText("label");
  await expect(description).not.toContainText("**");
  await expect(staff.getByRole("heading", { name: "References" })).toHaveCount(0);

  // The duplicate: its page says so, and staff reject it with that reason.
  await gotoHydrated(staff, "/staff/reports");
  await staff
    .getByRole("row")
    .filter({ hasText: duplicateTitle })
    .getByRole("link", { name: duplicateTitle })
    .click();
  await expect(staff.getByRole("note")).toContainText("Possible duplicate");
  await staff.getByRole("button", { name: "Take into review" }).click();
  await staff.getByLabel("Reason").selectOption("duplicate");
  await staff.getByRole("button", { name: "Reject the report" }).click();
  await expect(staff.getByText("The report was rejected.")).toBeVisible();
  await expect(staff.getByText("This report is closed: no further action.")).toBeVisible();
  await gotoHydrated(staff, "/staff/reports?status=rejected");
  await expect(staff.getByRole("row").filter({ hasText: duplicateTitle })).toContainText("Rejected");

  // The vendor's claim from another domain: staff reject it with a reason (the product stays unclaimed).
  await staff.getByRole("link", { name: "Product claims" }).click();
  await expect(staff.getByRole("heading", { level: 1 })).toHaveText("Product claims");
  const claim = staff
    .getByRole("listitem", { name: `Claim of ${claimedProduct}` })
    .filter({ hasText: vendorEmail });
  await expect(claim).toBeVisible();
  await claim.getByRole("button", { name: "Reject…" }).click();
  await claim.getByRole("button", { name: "Reject the claim" }).click();
  await expect(claim.getByText("A reason is required.")).toBeVisible();
  await claim
    .getByLabel("Reason shown to the vendor")
    .fill("The product's website does not name your company.");
  await claim.getByRole("button", { name: "Reject the claim" }).click();
  await expect(staff.getByText("Claim rejected.")).toBeVisible();
  await expect(claim).toHaveCount(0);

  expect(consoleErrors).toEqual([]);
  for (const context of [vendorContext, researcherContext, staffContext]) await context.close();
});

test("a report on an imported product without a program waits until staff set the vendor contact, then goes through the PIN preview to a fix and publication that alerts its watcher once", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  // An imported product (We're Open!, in the bundled data) that runs no program and has no contact.
  const researcherContext = await browser.newContext();
  const researcher = await signUpThroughApi(researcherContext, ["researcher"]);
  await verifyEmail(researcherContext, researcher.email);
  const title = `Reflected XSS in the opening hours widget ${Date.now().toString(36)}`;
  const submitted = await researcherContext.request.post("/api/reports", {
    headers: await userHeaders(researcherContext),
    data: {
      kind: "plugin",
      product_slug: "opening-hours",
      product_name: "We're Open!",
      affected_version_prefix: "<=",
      affected_version: "1.37",
      vulnerability_type: 2,
      owasp_category: 43,
      required_privilege: 1,
      title,
      description: "The widget prints the `day` query parameter back into the page without escaping it.",
      steps_to_reproduce: "1. Open a page with the widget.\n2. Add ?day=<svg onload=alert(1)> to the URL.",
      proof_of_concept: "https://site.example/?day=%3Csvg%20onload%3Dalert(1)%3E shows the alert.",
      cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N",
    },
  });
  expect(submitted.status(), await submitted.text()).toBe(201);
  const reportId = ((await submitted.json()) as { id: string }).id;

  // A site owner watches the plugin at the version the report affects (issue 20): told of the
  // publication by e-mail, once.
  const watcherContext = await browser.newContext();
  const watcher = await signUpThroughApi(watcherContext, ["researcher"]);
  const watched = await watcherContext.request.post("/api/watchlists", {
    headers: await userHeaders(watcherContext),
    data: { name: "hours.example", entries: [{ kind: "plugin", slug: "opening-hours", version: "1.37" }] },
  });
  expect(watched.status(), await watched.text()).toBe(201);
  // ...and by a signed webhook in Pressguard's JSON and one in Slack's format, each checking its secret.
  const watchlistId = ((await watched.json()) as { id: string }).id;
  const hooks: Record<
    "json" | "slack",
    { secret: string; receiver: Awaited<ReturnType<typeof startWebhookReceiver>> }
  > = { json: { secret: "", receiver: null as never }, slack: { secret: "", receiver: null as never } };
  for (const format of ["json", "slack"] as const) {
    const hook = hooks[format];
    hook.receiver = await startWebhookReceiver(() => hook.secret);
    const made = await watcherContext.request.post(`/api/watchlists/${watchlistId}/webhooks`, {
      headers: await userHeaders(watcherContext),
      data: { url: hook.receiver.url, format },
    });
    expect(made.status(), await made.text()).toBe(201);
    hook.secret = ((await made.json()) as { secret: string }).secret;
  }

  const staffContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const staff = await staffContext.newPage();
  await signInStaff(staff, baseURL ?? "", `/staff/reports/${reportId}`);
  await expect(staff.getByRole("heading", { level: 1 })).toHaveText(title);
  await staff.getByRole("button", { name: "Take into review" }).click();
  await expect(staff.getByText("The report is now in review.")).toBeVisible();
  await staff.getByRole("button", { name: "Validate the report" }).click();
  await expect(staff.getByText("The report is validated.")).toBeVisible();

  // Issue 19: "Notify the vendor" said the vendor was notified and mailed nobody. Now it waits.
  const contactCard = staff.getByRole("region", { name: "Vendor contact" });
  await expect(contactCard.getByRole("note")).toContainText("No vendor contact.");
  await expect(contactCard).toContainText("WordPress.org page (author, support forum)");
  await expect(staff.getByRole("button", { name: "Notify the vendor" })).toBeDisabled();
  await expect(staff.getByText("Nobody to notify yet: set the vendor contact below first.")).toBeVisible();
  await expect(contactCard).toContainText("The author's WordPress.org profile");
  await expect(
    contactCard.getByRole("link", { name: "https://profiles.wordpress.org/designextreme/" }),
  ).toBeVisible();
  await screenshot(staff, "staff-report-no-contact");
  // The queue lists it among the reports waiting for a vendor contact.
  await gotoHydrated(staff, "/staff/reports");
  await staff.getByRole("link", { name: "No vendor contact" }).click();
  await expect(staff.getByRole("link", { name: "No vendor contact" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await staff.getByRole("link", { name: title }).click();
  await expect(staff.getByRole("heading", { level: 1 })).toHaveText(title);

  const contact = `security-${Date.now().toString(36)}@opening-hours.example.test`;
  await contactCard.getByLabel("Contact e-mail").fill("not an address");
  await contactCard.getByRole("button", { name: "Save contact" }).click();
  await expect(contactCard.getByText("Must be a valid email address.")).toBeVisible();
  await contactCard.getByLabel("Contact e-mail").fill(contact);
  await contactCard.getByRole("button", { name: "Save contact" }).click();
  await expect(staff.getByText("The vendor contact is saved.")).toBeVisible();
  await expect(contactCard).toContainText(`The PIN preview goes to ${contact}.`);
  await contactCard.getByText("Changes (1)").click();
  await expect(contactCard).toContainText(`set ${contact}`);

  await staff.getByRole("button", { name: "Notify the vendor" }).click();
  await expect(staff.getByText("The vendor was notified; the fix deadline has started.")).toBeVisible();
  // The contact really gets the private link and, in a mail of its own, the PIN.
  const notice = await fromMailbox(staffContext, contact, (mail) =>
    /^Vulnerability report for/.test(mail.subject) ? mail.text : undefined,
  );
  const pin = /is: ([0-9]{6})/.exec(
    await fromMailbox(staffContext, contact, (mail) =>
      /^Your PIN/.test(mail.subject) ? mail.text : undefined,
    ),
  )?.[1];
  expect(pin).toMatch(/^[0-9]{6}$/);
  const link = /https?:\/\/\S+\/database\/report-preview\/\S+\/pin/.exec(notice)?.[0] ?? "";

  // The contact opens the preview with the PIN and submits the fix, with no account.
  const contactContext = await browser.newContext();
  const contactPage = await contactContext.newPage();
  await gotoHydrated(contactPage, new URL(link).pathname);
  await contactPage.getByLabel("PIN", { exact: true }).fill(pin ?? "");
  await contactPage.getByRole("button", { name: "Open the report" }).click();
  await expect(contactPage.locator("h1")).toHaveText(title);
  await contactPage.getByRole("button", { name: "Submit the fix" }).click();
  await contactPage.getByLabel("Fixed version").fill("1.38");
  await contactPage.getByLabel("Notes").fill("The day parameter is escaped with esc_html() now.");
  await contactPage.getByRole("button", { name: "Submit the fix" }).click();

  // Staff verify the fix and publish: the imported product gets the new record.
  await gotoHydrated(staff, `/staff/reports/${reportId}`);
  await expect(staff.getByRole("list", { name: "Timeline" })).toContainText("Fix submitted");
  await staff.getByRole("button", { name: "Verify the fix" }).click();
  await expect(staff.getByText("The fix is verified.")).toBeVisible();
  await staff.getByRole("button", { name: "Publish", exact: true }).click();
  await expect(staff.getByText("The vulnerability is published.")).toBeVisible();
  await staff.getByRole("link", { name: "Public page" }).click();
  await expect(staff.getByRole("heading", { level: 1 })).toContainText(title);
  await contactContext.close();

  // The watcher's alert names the entry and what to do.
  const alert = await fromMailbox(watcherContext, watcher.email, (mail) =>
    mail.subject === "A vulnerability affects opening-hours 1.37 on hours.example" ? mail.text : undefined,
  );
  expect(alert).toContain(`${title} (medium). Update opening-hours to 1.38 or later.`);
  // The webhooks got the alert once each, signed; Slack's in Slack's own message format.
  const alertsOf = (format: "json" | "slack") =>
    hooks[format].receiver.received.filter((request) => request.event === "watchlist.alert");
  await expect.poll(() => alertsOf("json").length, { timeout: 30_000 }).toBe(1);
  await expect.poll(() => alertsOf("slack").length, { timeout: 30_000 }).toBe(1);
  expect(alertsOf("json")[0]?.valid).toBe(true);
  expect(alertsOf("slack")[0]?.valid).toBe(true);
  const json = JSON.parse(alertsOf("json")[0]?.body ?? "{}");
  expect(json.alerts[0]).toMatchObject({
    change: "new",
    entry: { slug: "opening-hours", version: "1.37" },
    vulnerability: { title, fixed_in: "1.38" },
    action: "Update opening-hours to 1.38 or later.",
  });
  const slack = JSON.parse(alertsOf("slack")[0]?.body ?? "{}");
  expect(slack.text).toContain("A vulnerability affects hours.example");
  expect(slack.blocks[1].text.type).toBe("mrkdwn");
  expect(slack.blocks[1].text.text).toContain("Update opening-hours to 1.38 or later.");

  // A later cosmetic edit (staff record the CVE id on the published record) alerts nobody.
  const { request: staffApi, headers: staffHeaders } = await staffRequestContext(baseURL ?? "");
  // Eight digits: no bundled record has such an id (five digits met "Open User Map"'s CVE-2026-66445).
  const cve = `CVE-2026-9${String(Date.now()).slice(-7)}`;
  const recorded = await staffApi.put(`/api/staff/reports/${reportId}/cve`, {
    headers: staffHeaders,
    data: { cve },
  });
  expect(recorded.status(), await recorded.text()).toBe(200);
  // Two runs of the alert job (every 5 s on the e2e servers) later, still one of each.
  await staff.waitForTimeout(12_000);
  expect([alertsOf("json").length, alertsOf("slack").length]).toEqual([1, 1]);
  const alertMails = await watcherContext.request.get(
    `/api/dev/mail?limit=200&to=${encodeURIComponent(watcher.email)}`,
  );
  const subjects = ((await alertMails.json()).data as { subject: string }[]).map((mail) => mail.subject);
  expect(subjects.filter((subject) => subject.startsWith("A vulnerability affects"))).toHaveLength(1);
  await staffApi.dispose();
  for (const hook of Object.values(hooks)) await hook.receiver.close();
  await watcherContext.close();
});
