import { mkdirSync } from "node:fs";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { mailedLink, saveNewResearcherProfile, signUpThroughApi, uniqueEmail } from "./auth-helpers.ts";

/**
 * Issue 7, the reporter's side (PRODUCT.md §3): the one report form, signed out with the real ALTCHA
 * proof of work and the mailed sign-in link, signed in, its validation messages, and the researcher's
 * own pages showing the report with every untrusted field rendered inert.
 */

const SCREENSHOTS = "reports/screenshots";
const CVSS = "CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N";

async function gotoHydrated(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
}

/** Searches the database for contact-form-7 and picks it from the matches. */
async function pickContactForm7(page: Page) {
  await page.getByLabel("Affected software").fill("contact form 7");
  const matches = page.getByRole("list", { name: "Matching products" });
  await matches
    .getByRole("button")
    .filter({ has: page.getByText("contact-form-7", { exact: true }) })
    .click();
  await expect(page.getByTestId("chosen-product")).toHaveText("Contact Form 7");
}

interface ReportText {
  title: string;
  description: string;
  steps: string;
  proofOfConcept: string;
  suggestedFix?: string;
}

/** Every field after the product (the e-mail and captcha are the caller's). */
async function fillReport(page: Page, text: ReportText) {
  await page.getByLabel("Affected versions").selectOption("<=");
  await page.getByLabel("Version", { exact: true }).fill("5.9.5");
  await page.getByLabel("Vulnerability type").selectOption({ label: "Cross-Site Scripting (XSS)" });
  await page.getByLabel("OWASP Top 10 category").selectOption({ label: "A3 Injection" });
  await page.getByLabel("Required privilege").selectOption({ label: "Contributor" });
  await page.getByLabel("CVSS 3.1 vector").fill(CVSS);
  await expect(page.getByTestId("cvss-preview")).toContainText("Base score 5.4 (medium)");
  await page.getByLabel("Title").fill(text.title);
  await page.getByLabel("Description").fill(text.description);
  await page.getByLabel("Steps to reproduce").fill(text.steps);
  await page.getByLabel("Proof of concept").fill(text.proofOfConcept);
  if (text.suggestedFix) await page.getByLabel("Suggested fix").fill(text.suggestedFix);
}

/** A signed-in researcher with a confirmed address (a report needs it), through the mailed link. */
async function signUpVerifiedResearcher(page: Page, context: BrowserContext) {
  const account = await signUpThroughApi(context, ["researcher"]);
  await context.request.get(await mailedLink(page, account.email, /https?:\/\/\S+\/api\/email\/verify\/\S+/));
  expect((await (await context.request.get("/api/user")).json()).email_verified).toBe(true);
  return account;
}

/** The sign-in link mailed to `email`. */
function mailedMagicLink(page: Page, email: string): Promise<string> {
  return mailedLink(page, email, /https?:\/\/\S+\/login\/magic-link\/[0-9a-f-]{36}/);
}

test("a signed-out visitor reports a real plugin, solves the captcha, signs in from the mail and finds the report", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const email = uniqueEmail("reporter");
  const title = `Stored XSS in the form name ${Date.now()}`;

  await gotoHydrated(page, "/database/report");
  await expect(page.locator("h1")).toHaveText("Report a vulnerability");
  await pickContactForm7(page);
  // Before submitting, the product's known vulnerabilities are offered.
  const known = page.getByRole("region", { name: "Is it already known?" });
  await expect(known).toContainText(/Contact Form 7 has \d+ known vulnerabilit/);
  await expect(
    known.getByRole("link", { name: "Search all known vulnerabilities of Contact Form 7" }),
  ).toHaveAttribute("href", "/database/existing?q=contact-form-7&kind=plugin");

  await fillReport(page, {
    title,
    description: "The form name is printed on the admin list screen **without escaping**.",
    steps:
      "1. Log in as a contributor.\n2. Create a form named with a script tag.\n3. An admin opens the list.",
    proofOfConcept: "```\n<script>alert(document.domain)</script>\n```\nas the form name.",
    suggestedFix: "Escape the name with `esc_html()` when printing it.",
  });
  await page.getByLabel("Your e-mail address").fill(email);

  // The real ALTCHA proof of work: it starts when the form is focused; the checkbox starts it too.
  const captchaState = page.locator("altcha-widget [data-state]");
  await expect(captchaState).toHaveAttribute("data-state", /.+/);
  if ((await captchaState.getAttribute("data-state")) === "unverified") {
    await page.getByRole("checkbox", { name: "I'm not a robot" }).check();
  }
  await expect(captchaState).toHaveAttribute("data-state", "verified", { timeout: 60_000 });

  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `${SCREENSHOTS}/report-form-xl.png`, fullPage: true });
  await page.setViewportSize({ width: 640, height: 900 });
  await page.screenshot({ path: `${SCREENSHOTS}/report-form-sm.png`, fullPage: true });

  await page.getByRole("button", { name: "Submit report" }).click();
  await expect(page).toHaveURL(/\/database\/preview-email$/);
  await expect(page.locator("h1")).toHaveText("Check your inbox");
  await expect(page.getByText(email).first()).toBeVisible();
  await expect(page.getByTestId("submitted-title")).toHaveText(title);

  // The mailed sign-in link, opened as a user would: the root sends a new researcher to the profile
  // set-up first (issue 19), then to their reports.
  await page.goto(await mailedMagicLink(page, email));
  await saveNewResearcherProfile(page);
  await expect(page.locator("h1")).toHaveText("My reports — In review");
  await page.screenshot({ path: `${SCREENSHOTS}/researcher-in-review-sm.png`, fullPage: true });
  await page.getByRole("link", { name: title }).click();

  await expect(page).toHaveURL(/\/researchers\/reports\/[0-9a-f-]{36}\/preview$/);
  await expect(page.locator("h1")).toHaveText(title);
  await expect(page.getByTestId("report-status")).toHaveText("Submitted");
  const details = page.getByRole("region", { name: "Details" });
  for (const value of [
    "Contact Form 7",
    "<= 5.9.5",
    "Cross-Site Scripting (XSS)",
    "A3 Injection",
    "Contributor",
    CVSS,
  ]) {
    await expect(details).toContainText(value);
  }
  await expect(page.getByRole("region", { name: "Description" }).locator("strong")).toHaveText(
    "without escaping",
  );
  await expect(page.getByRole("region", { name: "Suggested fix" })).toContainText("esc_html()");
  await expect(page.getByRole("region", { name: "Timeline" })).toContainText("Report submitted");

  await gotoHydrated(page, page.url());
  await page.getByLabel("Add a comment").fill("Tested on **5.9.5** with WordPress 6.7.");
  await page.getByRole("button", { name: "Send comment" }).click();
  await expect(page.getByRole("region", { name: "Comments" }).locator("strong")).toHaveText("5.9.5");
  await page.screenshot({ path: `${SCREENSHOTS}/report-preview-sm.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `${SCREENSHOTS}/report-preview-xl.png`, fullPage: true });
});

test("after a refused empty submit, the captcha is solved once, stays solved when its box is clicked, and the report goes", async ({
  page,
}) => {
  test.setTimeout(120_000);
  // Every ALTCHA widget the page creates, and each state it goes through, in order.
  await page.addInitScript(() => {
    const log: string[] = [];
    Object.assign(window, { captchaLog: log });
    let widgets = 0;
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes) {
          if (!(node instanceof HTMLElement) || node.localName !== "altcha-widget") continue;
          widgets += 1;
          const widget = widgets;
          log.push(`widget ${widget} created`);
          node.addEventListener("statechange", (event) =>
            log.push(`widget ${widget} ${(event as CustomEvent<{ state?: string }>).detail?.state}`),
          );
        }
    }).observe(document, { childList: true, subtree: true });
  });
  await gotoHydrated(page, "/database/report");
  await page.getByRole("button", { name: "Submit report" }).click();
  await expect(page.getByText("Solve the captcha to submit a report without signing in.")).toBeVisible();

  await pickContactForm7(page);
  await fillReport(page, {
    title: `Stored XSS after a refused submit ${Date.now()}`,
    description: "The form name is printed on the admin list screen without escaping.",
    steps: "Log in as a contributor, name a form with a script tag, open the list as an admin.",
    proofOfConcept: "<script>alert(document.domain)</script> as the form name.",
  });
  await page.getByLabel("Your e-mail address").fill(uniqueEmail("captcha"));

  const captchaState = page.locator("altcha-widget [data-state]");
  const checkbox = page.locator("altcha-widget input[type=checkbox]");
  await expect(captchaState).toHaveAttribute("data-state", /.+/);
  if ((await captchaState.getAttribute("data-state")) === "unverified") await checkbox.click();
  await expect(captchaState).toHaveAttribute("data-state", "verified", { timeout: 60_000 });
  await expect(page.getByText("Solve the captcha to submit a report without signing in.")).toHaveCount(0);
  // Once solved, the widget is kept: not re-created, nor back to unverified, when the message goes.
  await page.waitForTimeout(1_000);
  const log = await page.evaluate(() => (window as unknown as { captchaLog: string[] }).captchaLog);
  const afterSolved = log.slice(log.findIndex((entry) => entry.endsWith(" verified")) + 1);
  expect(
    afterSolved.filter((entry) => !entry.endsWith(" verified")),
    log.join(", "),
  ).toEqual([]);

  // Clicking the solved box (its tick mark covers the input: the label is what takes the click), or
  // pressing Space on it, leaves it solved.
  await page.locator("altcha-widget label").click();
  await expect(captchaState).toHaveAttribute("data-state", "verified");
  await expect(checkbox).toBeChecked();
  await checkbox.focus();
  await page.keyboard.press("Space");
  await expect(captchaState).toHaveAttribute("data-state", "verified");
  await expect(checkbox).toBeChecked();

  await page.getByRole("button", { name: "Submit report" }).click();
  await expect(page).toHaveURL(/\/database\/preview-email$/);
  await expect(page.locator("h1")).toHaveText("Check your inbox");
});

test("a signed-in researcher reports from the product's own link and lands on report-submitted", async ({
  page,
  context,
}) => {
  await signUpVerifiedResearcher(page, context);
  const title = `Reflected XSS in the form preview ${Date.now()}`;
  await gotoHydrated(page, "/database/report/wordpress/plugin/contact-form-7");
  await expect(page.locator("h1")).toHaveText("Report a vulnerability in Contact Form 7");
  await expect(page.getByTestId("chosen-product")).toHaveText("Contact Form 7");
  // Signed in: the account reports, so neither the e-mail nor the captcha is asked.
  await expect(page.getByLabel("Your e-mail address")).toHaveCount(0);
  await expect(page.getByTestId("captcha")).toHaveCount(0);
  // And it says whose report this will be (issue 19).
  await expect(page.getByRole("note").filter({ hasText: "You are signed in as" })).toContainText(
    "the report is filed under your researcher account",
  );

  await fillReport(page, {
    title,
    description: "The preview parameter is echoed back into the page without escaping.",
    steps: "Open the form preview with the payload in the preview parameter as a subscriber.",
    proofOfConcept: "/?cf7-preview=<svg/onload=alert(1)> shows the alert in the browser.",
  });
  // A proof-of-concept file goes up with the report, and downloads from the report's page.
  await page.getByLabel("Attachments").setInputFiles({
    name: "preview-request.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("GET /?cf7-preview=<svg/onload=alert(1)>"),
  });
  await expect(page.getByRole("list", { name: "Attached files" })).toContainText("preview-request.txt");
  await page.getByRole("button", { name: "Submit report" }).click();
  await expect(page).toHaveURL(/\/database\/report-submitted\?report=[0-9a-f-]{36}$/);
  await expect(page.locator("h1")).toHaveText("Report submitted");
  await expect(page.getByTestId("submitted-title")).toHaveText(title);
  await page.getByRole("link", { name: "Open the report" }).click();
  await expect(page.locator("h1")).toHaveText(title);
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "preview-request.txt" }).click();
  expect((await downloading).suggestedFilename()).toBe("preview-request.txt");
});

test("a product the database does not know is typed in, and the report is about it", async ({
  page,
  context,
}) => {
  await signUpVerifiedResearcher(page, context);
  const name = `Brand New Gallery ${Date.now()}`;
  await gotoHydrated(page, "/database/report");
  await page.getByLabel("Software kind").selectOption({ label: "WordPress theme" });
  await page.getByLabel("Affected software").fill(name);
  await expect(page.getByText(`No theme in the database matches “${name}”.`)).toBeVisible();
  await page.getByRole("button", { name: "Type the product in" }).click();
  // The slug follows the name until it is typed by hand.
  await expect(page.getByLabel("Software name")).toHaveValue(name);
  await expect(page.getByLabel("Software slug")).toHaveValue(name.toLowerCase().replaceAll(" ", "-"));
  await fillReport(page, {
    title: "Unauthenticated options update in the theme",
    description: "An AJAX action updates any option without a capability check.",
    steps: "Send the admin-ajax request below without being logged in.",
    proofOfConcept: "curl -d 'action=bng_save&option=users_can_register&value=1' /wp-admin/admin-ajax.php",
  });
  await page.getByRole("button", { name: "Submit report" }).click();
  await expect(page).toHaveURL(/\/database\/report-submitted\?report=/);
  await page.getByRole("link", { name: "Open the report" }).click();
  await expect(page.getByRole("region", { name: "Details" })).toContainText(`${name} (WordPress theme,`);
});

test("a field left empty shows its message, and the server's 422 messages show by their fields", async ({
  page,
  context,
}) => {
  // The captcha solves itself as soon as the visitor is in the form, which would take its message
  // away: its challenge is refused here, so it stays unsolved.
  await page.route("**/api/captcha/challenge", (route) => route.abort());
  await gotoHydrated(page, "/database/report");
  await page.getByRole("button", { name: "Submit report" }).click();
  // The product search says what to do after the schema's own message.
  await expect(
    page.getByText("The software slug is required. Pick the product from the matches, or type it in."),
  ).toBeVisible();
  for (const message of [
    "The affected version is required.",
    "Choose the vulnerability type.",
    "Choose the OWASP category.",
    "Choose the role an attacker needs.",
    "The title is required.",
    "The description is required.",
    "The steps to reproduce are required.",
    "The proof of concept is required.",
    "Your e-mail address is required when you are not signed in.",
    "Solve the captcha to submit a report without signing in.",
  ]) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }
  // The first field in error gets the focus; a fixed field loses its message.
  await expect(page.getByLabel("Affected software")).toBeFocused();
  await page.getByLabel("Title").fill("Too short");
  await page.getByRole("button", { name: "Submit report" }).click();
  await expect(page.getByText("The title must be 10 to 200 characters long.")).toBeVisible();
  await expect(page.getByText("The title is required.")).toHaveCount(0);

  // The server has the last word: its field messages show by the fields.
  await signUpVerifiedResearcher(page, context);
  await gotoHydrated(page, "/database/report/wordpress/plugin/contact-form-7");
  await fillReport(page, {
    title: "A title the server refuses",
    description: "Long enough description of the vulnerability.",
    steps: "Long enough steps to reproduce the vulnerability.",
    proofOfConcept: "Long enough proof of concept of the vulnerability.",
  });
  await page.route("**/api/reports", (route) =>
    route.fulfill({
      status: 422,
      contentType: "application/json",
      body: JSON.stringify({
        status: "error",
        message: "The given data was invalid.",
        errors: { title: ["The server refused this title."], attachment: ["Too large."] },
      }),
    }),
  );
  await page.getByRole("button", { name: "Submit report" }).click();
  await expect(page.getByText("The server refused this title.")).toBeVisible();
  await expect(page.getByRole("alert")).toContainText("attachment: Too large.");
  await expect(page).toHaveURL(/\/database\/report\/wordpress\/plugin\/contact-form-7$/);
});

const XSS = [
  "<script>window.__xss=1</script>",
  '<img src=x onerror="window.__xss=1">',
  "[x](javascript:window.__xss=1)",
  '<svg onload="window.__xss=1">',
];

test("script tags, event handlers, javascript: links and SVG in a report execute nothing on its pages", async ({
  page,
  context,
}) => {
  await signUpVerifiedResearcher(page, context);
  const corpus = XSS.join("\n\n");
  const title = `${XSS[0]} ${XSS[1]} ${XSS[3]}`.slice(0, 200);
  await gotoHydrated(page, "/database/report/wordpress/plugin/contact-form-7");
  await fillReport(page, {
    title,
    description: `Description ${corpus}`,
    steps: `Steps ${corpus}`,
    proofOfConcept: `Proof ${corpus}`,
    suggestedFix: `Fix ${corpus}`,
  });
  await page.getByRole("button", { name: "Submit report" }).click();
  await expect(page).toHaveURL(/\/database\/report-submitted\?report=/);
  await expect(page.getByTestId("submitted-title")).toHaveText(title);

  const inert = async () => {
    expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
    const main = page.locator("main");
    await expect(main.locator("script")).toHaveCount(0);
    await expect(main.locator("img")).toHaveCount(0);
    await expect(main.locator("svg[onload], [onerror], [onload]")).toHaveCount(0);
    await expect(main.locator('a[href^="javascript:" i]')).toHaveCount(0);
  };

  await page.getByRole("link", { name: "Open the report" }).click();
  await expect(page.locator("h1")).toHaveText(title);
  // A comment carries the corpus too (Markdown).
  await page.getByLabel("Add a comment").fill(`Comment ${corpus}`);
  await page.getByRole("button", { name: "Send comment" }).click();
  await expect(page.getByRole("region", { name: "Comments" })).toContainText("Comment");
  await inert();
  // The server-rendered page, loaded afresh, is inert too.
  await page.reload();
  await expect(page.locator("h1")).toHaveText(title);
  await expect(page.getByRole("region", { name: "Description" })).toContainText("Description");
  await inert();
  // The researcher's list shows the title as text.
  await page.getByRole("link", { name: "← My reports" }).click();
  await expect(page.getByRole("link", { name: title })).toBeVisible();
  await inert();
});
