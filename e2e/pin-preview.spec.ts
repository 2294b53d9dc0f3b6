import { type APIRequestContext, expect, type Page, type Request, test } from "@playwright/test";
import {
  fromMailbox,
  gotoHydrated,
  handTokenToBrowser,
  mailedLink,
  postAsUser,
  signUpThroughApi,
  uniqueEmail,
  userHeaders,
} from "./auth-helpers.ts";
import { staffRequestContext } from "./staff-session.ts";

/**
 * Issue 7, PRODUCT.md §2: a validated report on a product with no active program reaches the
 * product's contact e-mail as a private link plus, separately, a 6-digit PIN. The contact opens it,
 * is told of a wrong PIN, reads the report and submits a patch with a link and a zip; the report
 * moves to fix_pending and staff see the link and the fix file on the report's page.
 */

const CVSS = "CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N";
/** Starts with the zip signature, which is what the API checks. */
const FIX_ZIP = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from("patched gallery")]);

async function staffPost(
  staff: APIRequestContext,
  headers: Record<string, string>,
  path: string,
  data: unknown,
) {
  const response = await staff.post(path, { headers, data });
  expect(response.status(), await response.text()).toBe(200);
}

function mailText(page: Page, to: string, subject: RegExp): Promise<string> {
  return fromMailbox(page, to, (mail) => (subject.test(mail.subject) ? mail.text : undefined));
}

test("the contact of a product with no program opens a report with its PIN and submits a patch", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const contact = uniqueEmail("pin-contact");
  const slug = `pin-e2e-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;

  // A vendor registers the product without activating its program: no active program, a contact e-mail.
  const vendorContext = await browser.newContext();
  await signUpThroughApi(vendorContext, ["vendor"]);
  const product = await postAsUser(vendorContext, "/api/products", {
    kind: "plugin",
    name: "Pin Preview Gallery",
    product_url: "https://pin.example/gallery",
    slug,
    vendor_website_url: "https://pin.example",
    vendor_contact_email: contact,
  });
  expect(product.status(), await product.text()).toBe(201);
  await vendorContext.close();

  // A researcher with a verified address reports it.
  const researcherContext = await browser.newContext();
  const researcherPage = await researcherContext.newPage();
  const { email } = await signUpThroughApi(researcherContext, ["researcher"]);
  await researcherPage.goto(
    await mailedLink(researcherPage, email, /https?:\/\/\S+\/api\/email\/verify\/\S+/),
  );
  const title = `Stored XSS in the gallery caption ${Date.now()}`;
  const submitted = await postAsUser(researcherContext, "/api/reports", {
    kind: "plugin",
    product_slug: slug,
    product_name: "Pin Preview Gallery",
    affected_version_prefix: "<=",
    affected_version: "1.4.0",
    vulnerability_type: 2,
    owasp_category: 43,
    required_privilege: 3,
    title,
    description: "The caption of a gallery image is printed without escaping on the front end.",
    steps_to_reproduce: "1. Log in as an author. 2. Add a gallery. 3. Put a script in a caption.",
    proof_of_concept: "Caption: <img src=x onerror=alert(1)>",
  });
  expect(submitted.status(), await submitted.text()).toBe(201);
  const reportId = ((await submitted.json()) as { id: string }).id;
  const attached = await researcherContext.request.post(`/api/reports/${reportId}/attachments`, {
    headers: await userHeaders(researcherContext),
    multipart: {
      file: { name: "poc.html", mimeType: "text/html", buffer: Buffer.from("<script>alert(1)</script>") },
    },
  });
  expect(attached.status(), await attached.text()).toBe(201);
  await researcherContext.close();

  // Staff validate it and notify the vendor.
  const staffSession = await staffRequestContext(baseURL ?? "");
  const staff = staffSession.request;
  const transitions = `/api/staff/reports/${reportId}/transitions`;
  await staffPost(staff, staffSession.headers, transitions, { action: "take_into_review" });
  await staffPost(staff, staffSession.headers, transitions, {
    action: "validate",
    vulnerability_type: 2,
    owasp_category: 43,
    required_privilege: 3,
    affected_version_prefix: "<=",
    affected_version: "1.4.0",
    cvss_vector: CVSS,
  });
  await staffPost(staff, staffSession.headers, transitions, { action: "notify_vendor" });

  // The contact reads the two e-mails as a user would.
  const context = await browser.newContext();
  const page = await context.newPage();
  const notice = await mailText(page, contact, /^Vulnerability report for Pin Preview Gallery/);
  const link = /https?:\/\/\S+\/database\/report-preview\/\S+\/pin/.exec(notice)?.[0];
  expect(link).toBeTruthy();
  const pin = /is: ([0-9]{6})/.exec(await mailText(page, contact, /^Your PIN/))?.[1] ?? "";
  expect(pin).toMatch(/^[0-9]{6}$/);

  const path = new URL(link ?? "").pathname;
  await page.goto(path);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await expect(page.locator("h1")).toHaveText("Enter the report PIN");
  await page.getByLabel("PIN", { exact: true }).fill(pin === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "Open the report" }).click();
  await expect(page.getByText(/The PIN is not correct\. 4 tries left/)).toBeVisible();

  await page.getByLabel("PIN", { exact: true }).fill(pin);
  await page.getByRole("button", { name: "Open the report" }).click();
  await expect(page).toHaveURL(new RegExp(`/database/report-preview/${reportId}/preview$`));
  await expect(page.locator("h1")).toHaveText(title);
  // The proof of concept is shown as text, never run; its file is a download, never opened.
  await expect(page.locator("img[src=x]")).toHaveCount(0);
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "poc.html" }).click();
  expect((await downloading).suggestedFilename()).toBe("poc.html");

  // The contact asks the researcher a question with the PIN credential, no account needed.
  await page.getByRole("button", { name: "Send comment" }).click();
  await expect(page.getByText("The comment is required.")).toBeVisible();
  const question = `Which WordPress version did you test on? ${Date.now()}`;
  await page.getByLabel("Add a comment").fill(question);
  await page.getByRole("button", { name: "Send comment" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: question })).toContainText(
    "Vendor's security contact",
  );
  await expect(page.getByLabel("Add a comment")).toHaveValue("");

  // The researcher answers from the e-mailed link in a browser without a session.
  const researcherMail = await mailText(page, email, /^Your report is in review/);
  const researcherLink = /https?:\/\/\S+\/researchers\/reports\/\S+\/preview\?token=\S+/.exec(
    researcherMail,
  )?.[0];
  expect(researcherLink).toBeTruthy();
  const linkToken = new URL(researcherLink ?? "").searchParams.get("token") ?? "";
  expect(linkToken).not.toBe("");
  const linkContext = await browser.newContext();
  const linkPage = await linkContext.newPage();
  // Everything the page sends (its requests and their Referer) is watched for the link's token.
  const sent: Promise<string>[] = [];
  const watchRequest = (request: Request) => {
    // The e-mailed link itself is the one request that carries it.
    if (request.url().endsWith(`?token=${linkToken}`)) return;
    sent.push(
      Promise.resolve(request.url()),
      request
        .headerValue("referer")
        .then((value) => value ?? "")
        // A request cut short (the page moved on) has only its provisional headers.
        .catch(() => request.headers().referer ?? ""),
    );
  };
  linkPage.on("request", watchRequest);
  await gotoHydrated(linkPage, new URL(researcherLink ?? "").pathname + new URL(researcherLink ?? "").search);
  await expect(linkPage.getByText(question)).toBeVisible();
  // Issue 15: the token left the address bar at once, for an HttpOnly grant of an hour at most…
  await expect(linkPage).toHaveURL(new RegExp(`/researchers/reports/${reportId}/preview$`));
  const grants = (await linkContext.cookies()).filter((cookie) => cookie.name === "pressguard_link_grant");
  expect(grants.map((cookie) => cookie.path).sort()).toEqual([
    `/api/reports/${reportId}`,
    `/researchers/reports/${reportId}`,
  ]);
  for (const grant of grants) {
    expect(grant).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    expect(grant.value).not.toContain(linkToken);
    expect(grant.expires * 1000 - Date.now()).toBeLessThanOrEqual(3600_000);
  }
  // …the page still works after a reload within the grant's life…
  await linkPage.reload();
  await expect(linkPage.locator("html")).toHaveAttribute("data-hydrated", "true");
  await expect(linkPage.getByText(question)).toBeVisible();
  const answer = `WordPress 6.7 with the default theme ${Date.now()}`;
  await linkPage.getByLabel("Add a comment").fill(answer);
  await linkPage.getByRole("button", { name: "Send comment" }).click();
  await expect(linkPage.getByRole("listitem").filter({ hasText: answer })).toBeVisible();
  // …its file downloads without a token in its link…
  await expect(linkPage.locator('a[href*="token="]')).toHaveCount(0);
  const proofDownload = linkPage.waitForEvent("download");
  await linkPage.getByRole("link", { name: "poc.html" }).click();
  expect((await proofDownload).suggestedFilename()).toBe("poc.html");
  // …and a link followed out of the page carries no token in its Referer.
  // The header's link to the database (a client-side navigation: its page data request).
  const leaving = linkPage.waitForRequest((request) =>
    new URL(request.url()).pathname.startsWith("/database"),
  );
  await linkPage
    .getByRole("link", { name: /Pressguard/ })
    .first()
    .click();
  expect((await (await leaving).headerValue("referer")) ?? "").not.toContain("token");
  linkPage.off("request", watchRequest);
  expect((await Promise.all(sent)).filter((text) => text.includes(linkToken))).toEqual([]);
  await linkContext.close();
  await page.reload();
  await expect(page.getByText(answer)).toBeVisible();

  await page.getByRole("button", { name: "Submit the fix" }).click();
  await expect(page.getByText("The fixed version is required.")).toBeVisible();
  await page.getByLabel("Fixed version").fill("1.4.1");
  await page.getByLabel("Notes").fill("Captions are escaped with esc_html() now.");
  await page.getByLabel("Patch (diff)").fill("-echo $caption;\n+echo esc_html( $caption );");
  // A script link is refused before anything is sent; a file named .zip that is not one by the API.
  await page.getByLabel("Link to the fix").fill("javascript:alert(document.cookie)");
  await page.getByRole("button", { name: "Submit the fix" }).click();
  await expect(
    page.getByText("The URL must be a valid URL including the http(s):// protocol."),
  ).toBeVisible();
  const fixLink = "https://pin.example/gallery/releases/1.4.1";
  await page.getByLabel("Link to the fix").fill(fixLink);
  const files = page.getByLabel("Fix files (zip)");
  await files.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("x") });
  await expect(page.getByText("notes.txt: Attach the fix as a .zip file.")).toBeVisible();
  await files.setInputFiles({ name: "renamed.zip", mimeType: "application/zip", buffer: Buffer.from("MZ") });
  await page.getByRole("button", { name: "Submit the fix" }).click();
  await expect(page.getByText(/renamed\.zip: This file is not a zip archive/)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/database/report-preview/${reportId}/preview$`));
  await page.getByRole("button", { name: "Remove renamed.zip" }).click();
  await files.setInputFiles({ name: "gallery-1.4.1.zip", mimeType: "application/zip", buffer: FIX_ZIP });
  await page.getByRole("button", { name: "Submit the fix" }).click();
  await expect(page).toHaveURL(/\/database\/patch-submitted$/);
  await expect(page.locator("h1")).toHaveText("Patch submitted");

  const detail = await staff.get(`/api/staff/reports/${reportId}`, { headers: staffSession.headers });
  expect(await detail.json()).toMatchObject({
    status: "fix_pending",
    fixed_version: "1.4.1",
    fix_url: fixLink,
    attachments: [
      expect.objectContaining({ kind: "proof", filename: "poc.html" }),
      expect.objectContaining({ kind: "fix", filename: "gallery-1.4.1.zip" }),
    ],
  });

  // Staff see the link and both kinds of file on the report's page, and download the fix.
  const staffContext = await browser.newContext({ storageState: await staff.storageState() });
  if (staffSession.token) await handTokenToBrowser(staffContext, staffSession.token);
  const staffPage = await staffContext.newPage();
  await gotoHydrated(staffPage, `/staff/reports/${reportId}`);
  await expect(staffPage.getByRole("link", { name: fixLink })).toHaveAttribute(
    "rel",
    "noopener noreferrer nofollow",
  );
  const staffFiles = staffPage.getByRole("region", { name: "Files", exact: true });
  await expect(staffFiles.getByRole("region", { name: "Proof of concept" })).toContainText("poc.html");
  const fixFiles = staffFiles.getByRole("region", { name: "Fix", exact: true });
  const fixDownload = staffPage.waitForEvent("download");
  await fixFiles.getByRole("link", { name: "gallery-1.4.1.zip" }).click();
  expect((await fixDownload).suggestedFilename()).toBe("gallery-1.4.1.zip");
  await staffContext.close();

  // Back on the preview, the report no longer takes a fix; a new browser without the PIN is asked for it.
  await page.goto(`/database/report-preview/${reportId}/preview`);
  await expect(page.getByText("Your fix was received.")).toBeVisible();
  const stranger = await (await browser.newContext()).newPage();
  await stranger.goto(`/database/report-preview/${reportId}/preview`);
  await expect(stranger.getByRole("link", { name: "Enter the PIN" })).toBeVisible();
  await staff.dispose();
  await context.close();
});
