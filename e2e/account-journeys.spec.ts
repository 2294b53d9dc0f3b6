import { type BrowserContext, expect, test } from "@playwright/test";
import { gotoHydrated, mailedLink, postAsUser, signUpThroughApi } from "./auth-helpers.ts";

/**
 * Issue 19, account journeys: the activation modal comes back for the next vendor who signs in, and
 * the password section of the settings (change it, or set a first one).
 */

const PASSWORD = "correct horse battery";
const MODAL = "Activate your disclosure program";

/** A set-up vendor with a confirmed address and one pending program, signed in in `context`. */
async function vendorWithPendingProgram(context: BrowserContext, name: string) {
  const { email } = await signUpThroughApi(context, ["vendor"], PASSWORD);
  await context.request.get(await mailedLink(context, email, /https?:\/\/\S+\/api\/email\/verify\/\S+/));
  const slug = `modal-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  const created = await postAsUser(context, "/api/products", {
    kind: "plugin",
    name,
    product_url: `https://${slug}.example/plugin`,
    slug,
    vendor_website_url: `https://${slug}.example`,
  });
  expect(created.status(), await created.text()).toBe(201);
  return email;
}

test("the activation modal is shown again to the next vendor who signs in on the browser", async ({
  page,
  context,
  browser,
}) => {
  test.slow();
  await vendorWithPendingProgram(context, "First Modal Plugin");
  await gotoHydrated(page, "/vdp/programs/pending");
  const modal = page.getByRole("dialog", { name: MODAL });
  await expect(modal).toBeVisible();
  await modal.getByRole("button", { name: "Activate program" }).click();
  await expect(modal).toHaveCount(0);
  // The success toast shows while the vendor reaches for Sign out. It lay over the button for its 5 s
  // until toasts moved below the header (app.css); a trial click checks that the button itself would
  // take the click, and the toast still showing after it proves it was checked beside the toast.
  const toast = page.getByRole("alert");
  await expect(toast).toContainText("The program is now active");
  await page.getByRole("button", { name: "Sign out" }).click({ trial: true, timeout: 2_000 });
  await expect(toast).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/vdp\/login$/);

  // Another vendor, with a pending program and none active, signs in on the same browser.
  const other = await browser.newContext();
  const email = await vendorWithPendingProgram(other, "Second Modal Plugin");
  await other.close();
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/vdp\/programs\/pending$/);
  await expect(page.getByRole("dialog", { name: MODAL })).toBeVisible();
  await expect(page.getByRole("dialog", { name: MODAL })).toContainText("Second Modal Plugin");
});

test("the registration form shows each message at its own field, and a taken address as any other", async ({
  page,
  browser,
}) => {
  await gotoHydrated(page, "/register");
  const submit = page.getByRole("button", { name: "Create account" });
  const name = page.getByLabel("Name");
  const email = page.getByLabel("E-mail");
  const password = page.getByLabel("Password");
  const formAlert = page.getByRole("alert");

  await submit.click();
  await expect(name).toHaveAccessibleDescription("The name field is required.");
  await expect(email).toHaveAccessibleDescription("Must be a valid email address.");
  await expect(password).toHaveAccessibleDescription("The password must be at least 8 characters.");
  await expect(formAlert).toHaveCount(0);

  await name.fill("Field Errors");
  await email.fill("not an address");
  await password.fill("short");
  await submit.click();
  await expect(name).not.toHaveAttribute("aria-describedby");
  await expect(email).toHaveAccessibleDescription("Must be a valid email address.");
  await expect(password).toHaveAccessibleDescription("The password must be at least 8 characters.");
  await expect(formAlert).toHaveCount(0);

  // An address that has an account gets the same answer as a new one (it is told by e-mail).
  const other = await browser.newContext();
  const taken = (await signUpThroughApi(other, ["researcher"])).email;
  await other.close();
  await email.fill(taken);
  await password.fill(PASSWORD);
  await submit.click();
  await expect(page.getByRole("status")).toContainText("Check your e-mail");
  await expect(formAlert).toHaveCount(0);
});
