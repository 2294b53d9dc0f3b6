import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { csrfHeaderOf, gotoHydrated, signUpThroughApi } from "./auth-helpers.ts";
import { expectNoSeriousViolations } from "./axe.ts";
import { screenshotAtBreakpoints } from "./screenshots.ts";
import { signInStaffInBrowser } from "./staff-session.ts";

/**
 * Issue 8, subscription (PRODUCT.md §4, decision 011): a vendor owner upgrades to the Paid plan
 * through the confirm step and opens the printable invoice; staff find another vendor on
 * /staff/vendors and change its plan by hand with a note.
 */

const INVOICE_NUMBER = /PG-\d{4}-\d{6}/;

/** A vendor owner with its account fields saved, signed in in `context`. */
async function vendorWithAccount(context: BrowserContext, vendorName: string) {
  const { email } = await signUpThroughApi(context, ["vendor"]);
  const saved = await context.request.put("/api/vendor/account", {
    headers: await csrfHeaderOf(context.request),
    data: {
      vendor_name: vendorName,
      contact_email: email,
      contact_person: "Sam Subscriber",
      timezone: "UTC",
      country: "FI",
    },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  return email;
}

function watchErrors(page: Page) {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource"))
      errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return errors;
}

test("an owner upgrades to Paid and opens the printable invoice", async ({ page }) => {
  test.setTimeout(90_000);
  const errors = watchErrors(page);
  const vendorName = `Subscription E2E ${Date.now().toString(36)}`;
  await vendorWithAccount(page.context(), vendorName);

  await gotoHydrated(page, "/vdp/account/subscription");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Subscription");
  const plans = page.getByRole("list", { name: "Plans" });
  const free = plans.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Free" }) });
  const paid = plans.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Paid" }) });
  await expect(free).toContainText("0.00");
  await expect(free).toContainText("Current plan");
  await expect(paid).toContainText("75.00");
  await expect(paid).toContainText("USD a month");
  await expect(paid).toContainText("20 seats");
  await expect(page.getByText("No invoices yet.")).toBeVisible();
  await expectNoSeriousViolations(page);
  await screenshotAtBreakpoints(page, "subscription-free");

  // The confirm step can be left without a change.
  await paid.getByRole("button", { name: "Upgrade to Paid" }).click();
  const dialog = page.getByRole("dialog", { name: "Upgrade to Paid?" });
  await expect(dialog).toContainText("75.00 USD");
  await expectNoSeriousViolations(page);
  await page.screenshot({ path: "reports/screenshots/subscription-confirm-xl.png" });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(free).toContainText("Current plan");

  await paid.getByRole("button", { name: "Upgrade to Paid" }).click();
  await dialog.getByRole("button", { name: "Confirm: upgrade for 75.00 USD" }).click();
  await expect(page.getByText(/You are now on the Paid plan\. Invoice PG-\d{4}-\d{6}/)).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(paid).toContainText("Current plan");
  await expect(free.getByRole("button", { name: "Downgrade to Free" })).toBeVisible();
  const invoices = page.getByRole("table");
  const row = invoices.getByRole("row").nth(1);
  await expect(row).toContainText("75.00");
  await expect(row).toContainText("USD");
  await expect(row).toContainText("Paid");
  const invoiceLink = row.getByRole("link", { name: INVOICE_NUMBER });
  const invoiceNumber = (await invoiceLink.textContent()) ?? "";
  expect(invoiceNumber).toMatch(INVOICE_NUMBER);
  await screenshotAtBreakpoints(page, "subscription-paid");

  await invoiceLink.click();
  await expect(page).toHaveURL(new RegExp(`/vdp/account/invoices/${invoiceNumber}$`));
  const invoice = page.getByRole("article", { name: "Invoice" });
  await expect(invoice).toContainText(invoiceNumber);
  await expect(invoice).toContainText("75.00 USD");
  await expect(invoice).toContainText(vendorName);
  await expect(invoice).toContainText("Sam Subscriber");
  await expect(invoice).toContainText("Finland");
  await expect(invoice).toContainText("Pressguard Paid plan, 1 month");
  // The period: one month from today, e.g. "23 November 2026 – 23 December 2026".
  const today = new Date().toLocaleDateString("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
  await expect(invoice.getByText(new RegExp(`^${today} – \\d{1,2} \\w+ \\d{4}$`)).first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Print" })).toBeVisible();
  await expectNoSeriousViolations(page);
  await screenshotAtBreakpoints(page, "invoice");
  // Printed, the buttons and the frame go: the invoice alone on the page.
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
  await page.screenshot({ path: "reports/screenshots/invoice-print.png", fullPage: true });
  await page.emulateMedia({ media: "screen" });

  // Another vendor cannot open it: "Page not found".
  const other = await page.context().browser()?.newContext();
  if (!other) throw new Error("no browser");
  await signUpThroughApi(other, ["vendor"]);
  const answer = await other.request.get(`/vdp/account/invoices/${invoiceNumber}`, {
    headers: { accept: "text/html" },
  });
  expect(answer.status()).toBe(404);
  await other.close();
  expect(errors).toEqual([]);
});

test("staff change a vendor's plan by hand on /staff/vendors", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const vendorContext = await browser.newContext();
  const vendorName = `Staff Plan E2E ${Date.now().toString(36)}`;
  const vendorEmail = await vendorWithAccount(vendorContext, vendorName);

  const staffContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const staff = await staffContext.newPage();
  const errors = watchErrors(staff);
  await signInStaffInBrowser(staffContext, baseURL ?? "");
  await gotoHydrated(staff, "/staff/reports");
  await staff.getByRole("link", { name: "Vendors" }).click();
  await expect(staff).toHaveURL(/\/staff\/vendors$/);
  await expect(staff.getByRole("heading", { level: 1 })).toHaveText("Vendors");

  await staff.getByLabel("Vendor name or contact e-mail").fill(vendorEmail);
  await staff.getByRole("button", { name: "Search" }).click();
  await expect(staff).toHaveURL(/\/staff\/vendors\?q=/);
  const card = staff.getByRole("listitem", { name: vendorName });
  await expect(card).toContainText("Free plan");
  await expect(card).toContainText("1 of 2 seats used");
  await expectNoSeriousViolations(staff);

  await card.getByRole("button", { name: "Change plan…" }).click();
  const form = card.getByRole("form", { name: `Change the plan of ${vendorName}` });
  await expect(form.getByLabel("New plan")).toHaveValue("premium");
  // A note is required.
  await form.getByRole("button", { name: "Change plan" }).click();
  await expect(form.getByText("Say why the plan changes (for example the vendor's request).")).toBeVisible();
  await form.getByLabel("Note for the record").fill("Paid by bank transfer, e2e.");
  await expectNoSeriousViolations(staff);
  await screenshotAtBreakpoints(staff, "staff-vendors");
  await form.getByRole("button", { name: "Change plan" }).click();
  await expect(staff.getByText(new RegExp(`${vendorName} is on the Paid plan; invoice PG-`))).toBeVisible();
  await expect(card).toContainText("Paid plan");
  await expect(card).toContainText("1 of 20 seats used");

  // The vendor sees the new plan and the invoice staff recorded.
  const subscription = await (await vendorContext.request.get("/api/vendor/subscription")).json();
  expect(subscription).toMatchObject({ plan: "premium" });
  expect(subscription.invoices).toEqual([expect.objectContaining({ amount: "75.00", provider: "staff" })]);
  expect(errors).toEqual([]);
  await vendorContext.close();
  await staffContext.close();
});
