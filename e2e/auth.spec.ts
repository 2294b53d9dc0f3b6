import { expect, type Page, test } from "@playwright/test";
import {
  authModeOf,
  currentUser,
  forgetSignIn,
  gotoHydrated,
  mailedLink,
  postAsUser,
  saveNewResearcherProfile,
  saveNewVendorAccount,
  signUpThroughApi,
  uniqueEmail,
} from "./auth-helpers.ts";

const PASSWORD = "correct horse battery";

async function registerThroughForm(page: Page, role: "vendor" | "researcher", email: string) {
  // Registration, then sign-in: two form journeys in one test.
  test.slow();
  await gotoHydrated(page, "/register");
  await page
    .getByLabel(role === "vendor" ? "Vendor (plugin or theme author)" : "Security researcher")
    .check();
  await page.getByLabel("Name").fill(`Journey ${role}`);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  // The same answer for a new and a known address: check the e-mail, then sign in.
  await expect(page.getByRole("status")).toContainText("Check your e-mail");
  await page.getByRole("link", { name: "sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`/${role === "vendor" ? "vdp" : "researchers"}/login`));
  await signInThroughForm(page, new URL(page.url()).pathname, email);
}

async function signInThroughForm(page: Page, loginPath: string, email: string, password = PASSWORD) {
  if (new URL(page.url()).pathname !== loginPath) await gotoHydrated(page, loginPath);
  else await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

test("a researcher registers, verifies the address, signs out and signs in again", async ({ page }) => {
  const email = uniqueEmail("researcher");
  await registerThroughForm(page, "researcher", email);
  // Issue 19: the first sign-in leads to the public profile's set-up, then to the reports.
  await saveNewResearcherProfile(page);
  const home = new URL(page.url()).pathname;
  // Their standing heads their reports (issue 19: researchers did not see their points).
  await expect(page.getByTestId("researcher-standing")).toContainText(
    "0 points · not on the leaderboard yet · 0 published vulnerabilities",
  );
  const notice = page.getByText("Please confirm your e-mail address with the link we sent you.");
  await expect(notice).toBeVisible();

  const verify = await mailedLink(page, email, /https?:\/\/\S+\/api\/email\/verify\/\S+/);
  await page.goto(verify);
  const user = await (await currentUser(page)).json();
  expect(user.email_verified).toBe(true);

  await gotoHydrated(page, home);
  await expect(notice).toHaveCount(0);
  // The public database's header knows them (issue 19: it said "Login"), where the server can tell:
  // not with the token in localStorage, whose reading pages carry no JavaScript (decision 021).
  await page.goto("/database");
  const auth = authModeOf();
  const header = page.getByRole("navigation", { name: "Main" });
  if (auth.mode === "token" && auth.tokenStorage === "localStorage") {
    await expect(header.getByRole("link", { name: "Login" })).toBeVisible();
  } else {
    await expect(header.getByRole("link", { name: "Login" })).toHaveCount(0);
    await header.getByRole("link", { name: "Your account" }).click();
    await expect(page).toHaveURL(new RegExp(`${home}$`));
  }
  // The public database is not answered from its store with their menu to anyone else.
  const anonymous = await page.context().browser()!.newContext();
  const stranger = await anonymous.newPage();
  await stranger.goto(`${new URL(page.url()).origin}/database`);
  await expect(
    stranger.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Login" }),
  ).toBeVisible();
  await anonymous.close();
  await gotoHydrated(page, home);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/vdp\/login$/);
  expect((await currentUser(page)).status()).toBe(401);

  await signInThroughForm(page, "/researchers/login", email);
  await expect(page).toHaveURL(new RegExp(`${home}$`));
});

test("a new vendor sets up the account first, then the root sends them to the pending programs", async ({
  page,
}) => {
  const email = uniqueEmail("vendor");
  await registerThroughForm(page, "vendor", email);
  await expect(page).toHaveURL(/\/vdp\/create-account$/);
  // Issue 19: the set-up cannot be skipped: the root, the mailed verification link and the vendor
  // area lead back to it until it is saved; the account page stays open.
  await page.goto("/");
  await expect(page).toHaveURL(/\/vdp\/create-account$/);
  await page.goto(await mailedLink(page, email, /https?:\/\/\S+\/api\/email\/verify\/\S+/));
  await expect(page).toHaveURL(/\/vdp\/create-account$/);
  for (const path of ["/vdp/programs/pending", "/vdp/reports/awaiting_fix", "/vdp/start-program"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/vdp\/create-account$/);
  }
  await page.goto("/vdp/account/settings");
  await expect(page).toHaveURL(/\/vdp\/account\/settings$/);
  await gotoHydrated(page, "/vdp/create-account");
  await saveNewVendorAccount(page, email);
  await page.goto("/");
  await expect(page).toHaveURL(/\/vdp\/programs\/pending$/);
  const menu = page.getByRole("navigation", { name: "Vendor" });
  await expect(menu.getByRole("link", { name: "Programs" })).toHaveAttribute("href", "/vdp/programs/pending");
  await expect(menu.getByRole("link", { name: /Report forwarding/ })).toContainText("New");
});

test("a vendor with an active program signs in and lands on all programs", async ({ page, context }) => {
  const email = uniqueEmail("vendor-active");
  await registerThroughForm(page, "vendor", email);
  await saveNewVendorAccount(page, email);
  await page.goto(await mailedLink(page, email, /https?:\/\/\S+\/api\/email\/verify\/\S+/));
  const slug = `journey-${Date.now()}`;
  const created = await postAsUser(context, "/api/products", {
    kind: "plugin",
    name: "Journey Plugin",
    product_url: "https://journey.example/plugin",
    slug,
    vendor_website_url: "https://journey.example",
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  const activated = await postAsUser(context, `/api/products/${id}/activate-product`, {
    is_lobby_product: false,
  });
  expect((await activated.json()).status).toBe("success");
  // Leave the app first: a page left open would see its session go, answer the 401 by sending itself
  // to the login page (spec §7) and abort the navigation below.
  await page.goto("about:blank");
  await forgetSignIn(context);

  await signInThroughForm(page, "/vdp/login", email);
  await expect(page).toHaveURL(/\/vdp\/programs\/all$/);
  const menu = page.getByRole("navigation", { name: "Vendor" });
  await expect(menu.getByRole("link", { name: "Programs" })).toHaveAttribute("href", "/vdp/programs/all");
  await expect(page.getByRole("link", { name: "Journey Plugin" })).toBeVisible();
});

test("a user with both roles is treated as a vendor by the root redirect", async ({ page, context }) => {
  await signUpThroughApi(context, ["researcher", "vendor"]);
  await page.goto("/");
  await expect(page).toHaveURL(/\/vdp\/programs\/pending$/);
  // The vendor menu leads to the researcher area too (issue 19: nothing did).
  await page
    .getByRole("navigation", { name: "Vendor" })
    .getByRole("link", { name: "Researcher area" })
    .click();
  await expect(page).toHaveURL(/\/researchers\/[0-9a-f-]{36}\/in-review$/);
});

test("a wrong password shows the generic message inline", async ({ page, context }) => {
  const { email } = await signUpThroughApi(context, ["vendor"]);
  await forgetSignIn(context);
  await signInThroughForm(page, "/vdp/login", email, "not the password");
  await expect(page.getByRole("alert")).toHaveText("These credentials do not match our records.");
  await expect(page).toHaveURL(/\/vdp\/login$/);
});

test("a deep link to a guarded page returns to it after sign-in", async ({ page, context }) => {
  const { email } = await signUpThroughApi(context, ["vendor"]);
  await forgetSignIn(context);
  await page.goto("/vdp/reports/fixed?page=2");
  await expect(page).toHaveURL(/\/vdp\/login\?redirect=%2Fvdp%2Freports%2Ffixed%3Fpage%3D2$/);
  await signInThroughForm(page, "/vdp/login", email);
  await expect(page).toHaveURL(/\/vdp\/reports\/fixed\?page=2$/);
});

test("a magic link read from the captured mail signs in once", async ({ page, context }) => {
  const { email } = await signUpThroughApi(context, ["vendor"]);
  await forgetSignIn(context);
  await gotoHydrated(page, "/vdp/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.getByRole("status")).toContainText("If an account exists for this address");

  const link = await mailedLink(page, email, /https?:\/\/\S+\/login\/magic-link\/[0-9a-f-]{36}/);
  await page.goto(link);
  await expect(page).toHaveURL(/\/vdp\/programs\/pending$/);

  await page.goto(link);
  await expect(page.getByRole("alert")).toHaveText(
    "This sign-in link has already been used. Ask for a new one.",
  );
  await expect(page.getByRole("link", { name: "vendor login" })).toBeVisible();
});

test("the development mailbox page lists the mail, newest first", async ({ page, context }) => {
  const { email } = await signUpThroughApi(context, ["researcher"]);
  await page.goto("/dev/mail");
  await expect(page.locator("h1")).toHaveText("Development mailbox");
  await expect(page.getByText(`To ${email}`).first()).toBeVisible();
});

test("a forgotten password is reset through the mailed link", async ({ page, context }) => {
  const { email } = await signUpThroughApi(context, ["researcher"]);
  await forgetSignIn(context);
  await gotoHydrated(page, "/researchers/login");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page.locator("h1")).toHaveText("Forgot your password?");
  await page.getByLabel("E-mail").fill(email);
  await page.getByRole("button", { name: "Email me a reset link" }).click();
  await expect(page.getByRole("status")).toContainText("If an account exists for this address");

  const link = await mailedLink(page, email, /https?:\/\/\S+\/reset-password\/[A-Za-z0-9_-]+/);
  await gotoHydrated(page, new URL(link).pathname);
  await page.getByLabel("New password").fill("a brand new password");
  await page.getByRole("button", { name: "Set the new password" }).click();
  await expect(page.getByRole("status")).toHaveText("Your password has been reset. Please sign in.");

  await signInThroughForm(page, "/researchers/login", email, "a brand new password");
  await expect(page).toHaveURL(/\/researchers\/[0-9a-f-]{36}\/in-review$/);
});

test("a signed-in user without the area's role is sent to their own start page", async ({
  page,
  context,
}) => {
  await signUpThroughApi(context, ["researcher"]);
  await page.goto("/vdp/programs/all");
  await expect(page).toHaveURL(/\/researchers\/[0-9a-f-]{36}\/in-review$/);
  await forgetSignIn(context);
  await signUpThroughApi(context, ["vendor"]);
  await page.goto("/researchers/settings");
  await expect(page).toHaveURL(/\/vdp\/programs\/pending$/);
});
