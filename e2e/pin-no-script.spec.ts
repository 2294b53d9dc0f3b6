import { type Browser, expect, type Page, type Request, test } from "@playwright/test";
import { PIN_PREVIEW_COOKIE } from "@pressguard/domain";
import { fromMailbox, mailedLink, postAsUser, signUpThroughApi, uniqueEmail } from "./auth-helpers.ts";
import { staffRequestContext } from "./staff-session.ts";

/**
 * Issue 38: the PIN page without JavaScript. Its form had no method: the browser loaded
 * `…/pin?pin=822711`, opened nothing, said nothing of a wrong PIN, and left the PIN in the address
 * bar, the history and Referers. It now posts to the page's action, which sets the API's HttpOnly
 * preview cookie (and a copy scoped to the report's pages) and sends the browser to the preview, which
 * the server renders with the report; a refusal is the page with its message.
 * (e2e/pin-preview.spec.ts walks the same page with JavaScript.)
 */
test.use({ javaScriptEnabled: false });

const CVSS = "CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N";

/** A validated report on a product with no active program, its vendor notified: the PIN link and PIN. */
async function reportWithPin(browser: Browser, baseURL: string | undefined) {
  const contact = uniqueEmail("pin-noscript");
  const slug = `pin-noscript-${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;
  const vendor = await browser.newContext();
  await signUpThroughApi(vendor, ["vendor"]);
  const product = await postAsUser(vendor, "/api/products", {
    kind: "plugin",
    name: "No Script Gallery",
    product_url: "https://noscript.example/gallery",
    slug,
    vendor_website_url: "https://noscript.example",
    vendor_contact_email: contact,
  });
  expect(product.status(), await product.text()).toBe(201);
  await vendor.close();

  const researcher = await browser.newContext();
  const { email } = await signUpThroughApi(researcher, ["researcher"]);
  await researcher.request.get(
    await mailedLink(researcher, email, /https?:\/\/\S+\/api\/email\/verify\/\S+/),
  );
  const title = `Stored XSS without scripts ${Date.now()}`;
  const submitted = await postAsUser(researcher, "/api/reports", {
    kind: "plugin",
    product_slug: slug,
    product_name: "No Script Gallery",
    affected_version_prefix: "<=",
    affected_version: "2.0.0",
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
  await researcher.close();

  const { request: staff, headers } = await staffRequestContext(baseURL ?? "");
  const transitions = `/api/staff/reports/${reportId}/transitions`;
  for (const body of [
    { action: "take_into_review" },
    {
      action: "validate",
      vulnerability_type: 2,
      owasp_category: 43,
      required_privilege: 3,
      affected_version_prefix: "<=",
      affected_version: "2.0.0",
      cvss_vector: CVSS,
    },
    { action: "notify_vendor" },
  ]) {
    const response = await staff.post(transitions, { headers, data: body });
    expect(response.status(), await response.text()).toBe(200);
  }
  await staff.dispose();
  return { contact, reportId, title };
}

async function mailText(page: Page, to: string, subject: RegExp): Promise<string> {
  return fromMailbox(page, to, (mail) => (subject.test(mail.subject) ? mail.text : undefined));
}

/** Submits the PIN as a browser without scripts does, and answers the page's response. */
async function enterPin(page: Page, pin: string) {
  await page.getByLabel("PIN", { exact: true }).fill(pin);
  const answered = page.waitForResponse(
    (response) => response.request().method() === "POST" && response.url().endsWith("/pin"),
  );
  await page.getByRole("button", { name: "Open the report" }).click();
  return answered;
}

test("the PIN page works without JavaScript and keeps the PIN out of every URL", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const { contact, reportId, title } = await reportWithPin(browser, baseURL);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const notice = await mailText(page, contact, /^Vulnerability report for No Script Gallery/);
  const link = /https?:\/\/\S+\/database\/report-preview\/\S+\/pin/.exec(notice)?.[0] ?? "";
  const pin = /is: ([0-9]{6})/.exec(await mailText(page, contact, /^Your PIN/))?.[1] ?? "";
  expect(pin).toMatch(/^[0-9]{6}$/);
  const wrongPin = pin === "000000" ? "111111" : "000000";

  // Every request the page makes, and its Referer, is watched for the PINs.
  const sent: Promise<string>[] = [];
  const watch = (request: Request) => {
    sent.push(
      Promise.resolve(request.url()),
      request.headerValue("referer").then((value) => value ?? ""),
    );
  };
  page.on("request", watch);

  const pinPath = new URL(link).pathname;
  await page.goto(pinPath);
  await expect(page.locator("h1")).toHaveText("Enter the report PIN");

  // A wrong PIN: the page again, with the tries left, the field empty and the address unchanged.
  const wrong = await enterPin(page, wrongPin);
  expect(wrong.status()).toBe(422);
  await expect(page.getByText(/The PIN is not correct\. 4 tries left/)).toBeVisible();
  await expect(page.getByLabel("PIN", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("PIN", { exact: true })).toHaveValue("");
  await expect(page).toHaveURL(new RegExp(`${pinPath}$`));

  // The right PIN (pasted with the e-mail's space): on to the preview, holding the API's cookie.
  const right = await enterPin(page, `${pin.slice(0, 3)} ${pin.slice(3)}`);
  expect(right.status()).toBe(303);
  await expect(page).toHaveURL(new RegExp(`/database/report-preview/${reportId}/preview$`));
  const cookie = (await context.cookies()).find(
    (entry) => entry.name === PIN_PREVIEW_COOKIE && entry.path === `/api/report-previews/${reportId}`,
  );
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict" });
  // The cookie opens the report's preview API (which the page reads once scripts run).
  const preview = await context.request.get(`/api/report-previews/${reportId}`);
  expect(preview.status(), await preview.text()).toBe(200);
  // Its copy for the report's pages: the server renders the report itself, with no scripts to run.
  const pageCookie = (await context.cookies()).find(
    (entry) => entry.name === PIN_PREVIEW_COOKIE && entry.path === `/database/report-preview/${reportId}`,
  );
  expect(pageCookie).toMatchObject({ httpOnly: true, sameSite: "Strict" });
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
  await expect(page.getByText("Caption: <img src=x onerror=alert(1)>")).toBeVisible();
  const rendered = await context.request.get(`/database/report-preview/${reportId}/preview`);
  expect(rendered.headers()["cache-control"]).toBe("private, no-store");
  expect(await rendered.text()).toContain(title);

  page.off("request", watch);
  const texts = await Promise.all(sent);
  expect(texts.filter((text) => text.includes(pin) || text.includes(wrongPin))).toEqual([]);
  await context.close();
});

test("without JavaScript a locked report and an unknown link say so", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const { contact, reportId } = await reportWithPin(browser, baseURL);
  const page = await browser.newPage({ javaScriptEnabled: false });
  const pin = /is: ([0-9]{6})/.exec(await mailText(page, contact, /^Your PIN/))?.[1] ?? "";
  const wrongPin = pin === "000000" ? "111111" : "000000";
  await page.goto(`/database/report-preview/${reportId}/pin`);
  for (let attempt = 1; attempt <= 4; attempt += 1) {
    expect((await enterPin(page, wrongPin)).status()).toBe(422);
    await expect(page.getByText(`The PIN is not correct. ${5 - attempt}`, { exact: false })).toBeVisible();
  }
  // The fifth wrong try locks it: 429 with the API's Retry-After, and the page says until when.
  const locked = await enterPin(page, wrongPin);
  expect(locked.status()).toBe(429);
  expect(Number(locked.headers()["retry-after"])).toBeGreaterThan(800);
  await expect(
    page.getByText(
      /^Too many wrong PINs: the report is locked until \d\d:\d\d UTC\. Try again in 15 minutes\.$/,
    ),
  ).toBeVisible();
  // Even the right PIN is refused while it is locked.
  expect((await enterPin(page, pin)).status()).toBe(429);
  await expect(page).toHaveURL(new RegExp(`/database/report-preview/${reportId}/pin$`));

  await page.goto("/database/report-preview/00000000-0000-4000-8000-0000000000aa/pin");
  expect((await enterPin(page, "123456")).status()).toBe(404);
  await expect(
    page.getByText("This link does not open a report. Check that you copied the whole link from the e-mail."),
  ).toBeVisible();
  await page.close();
});
