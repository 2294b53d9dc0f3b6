import { expect, type Page, test } from "@playwright/test";
import { currentCode } from "../apps/server/src/modules/auth/two-factor.ts";
import {
  currentUser,
  forgetSignIn,
  signInThroughApi,
  signUpThroughApi,
  userHeaders,
} from "./auth-helpers.ts";

async function gotoHydrated(page: Page, path: string) {
  await page.goto(path);
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
}

test("a session is signed out from the settings page of another browser", async ({
  page,
  context,
  browser,
}) => {
  const { email, password } = await signUpThroughApi(context, ["researcher"]);
  const laptop = await browser.newContext();
  try {
    await signInThroughApi(laptop, email, password);
    const laptopHeaders = await userHeaders(laptop);
    expect((await laptop.request.get("/api/user", { headers: laptopHeaders })).status()).toBe(200);

    await gotoHydrated(page, "/researchers/settings");
    const sessions = page.getByRole("region", { name: "Signed-in sessions" });
    await expect(sessions.getByRole("listitem")).toHaveCount(2);
    await expect(sessions.getByText("This browser")).toBeVisible();
    await sessions.getByRole("button", { name: "Sign out this session" }).click();
    await expect(sessions.getByRole("listitem")).toHaveCount(1);
    expect((await laptop.request.get("/api/user", { headers: laptopHeaders })).status()).toBe(401);
  } finally {
    await laptop.close();
  }
});

test("a researcher changes the password in the settings; another browser is signed out", async ({
  page,
  context,
  browser,
}) => {
  const { email, password } = await signUpThroughApi(context, ["researcher"]);
  const laptop = await browser.newContext();
  try {
    await signInThroughApi(laptop, email, password);
    await gotoHydrated(page, "/researchers/settings");
    const section = page.getByRole("region", { name: "Password" });
    await section.getByLabel("Current password").fill("not my password");
    await section.getByLabel("New password").fill("a brand new password");
    await section.getByRole("button", { name: "Change password" }).click();
    await expect(section.getByText("The current password is not correct.")).toBeVisible();
    await section.getByLabel("Current password").fill(password);
    await section.getByRole("button", { name: "Change password" }).click();
    await expect(section.getByRole("status")).toContainText("Your password has been changed.");
    // This browser stays signed in (its session, or its token in token mode); the other is out.
    expect((await currentUser(page)).status()).toBe(200);
    expect((await laptop.request.get("/api/user", { headers: await userHeaders(laptop) })).status()).toBe(
      401,
    );
    // After a full page load too; then this browser signs out from the account page.
    await gotoHydrated(page, "/researchers/settings");
    await expect(page.getByRole("region", { name: "Password" })).toBeVisible();
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/vdp\/login$/);
    expect((await currentUser(page)).status()).toBe(401);
  } finally {
    await laptop.close();
  }
});

test("a vendor turns on two-factor authentication and then signs in with a code", async ({
  page,
  context,
}) => {
  const { email, password } = await signUpThroughApi(context, ["vendor"]);
  await gotoHydrated(page, "/vdp/account/settings");
  const section = page.getByRole("region", { name: "Two-factor authentication" });
  await section.getByRole("button", { name: "Set up two-factor authentication" }).click();
  const secret = (await section.locator("code").textContent()) ?? "";
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await section.getByLabel("Authentication code").fill(currentCode(secret));
  await section.getByRole("button", { name: "Confirm" }).click();
  await expect(section.getByRole("status")).toHaveText("Two-factor authentication is on.");

  await forgetSignIn(context);
  await gotoHydrated(page, "/vdp/login");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText("Enter the 6-digit code from your authenticator app.");
  // The confirmation spent the current step: the next one is accepted (one step of drift).
  await page.getByLabel("Authentication code").fill(currentCode(secret, Date.now() + 30_000));
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/vdp\/programs\/pending$/);
});

test("a researcher adds a vendor organisation from the settings page", async ({ page, context }) => {
  await signUpThroughApi(context, ["researcher"]);
  await gotoHydrated(page, "/researchers/settings");
  await page.getByRole("button", { name: "Add a vendor organisation" }).click();
  // The new organisation is set up first (issue 19).
  await expect(page).toHaveURL(/\/vdp\/create-account$/);
  const user = await (await currentUser(page)).json();
  expect(user.roles).toEqual(["researcher", "vendor"]);
});
