import { expect, test } from "@playwright/test";
import { gotoHydrated, signUpThroughApi } from "./auth-helpers.ts";

/**
 * Issue 38: a site owner (an account with neither vendor nor researcher role) had no account page:
 * the API page told them to make a watchlists key "on your account page", and the only such pages,
 * the vendor and researcher settings, send them away. They now find /account from their menu and the
 * API page, make a key of the watchlists scope there, and a script uses it.
 */
test("a site owner finds the account page and makes a watchlists API key a script can use", async ({
  page,
  context,
  request,
}) => {
  await signUpThroughApi(context, []);

  // The settings pages of the two roles are not theirs…
  await page.goto("/vdp/account/settings");
  await expect(page).toHaveURL(/\/watchlists$/);
  // …but their menu leads to their account page.
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await page.getByRole("navigation", { name: "Watchlists" }).getByRole("link", { name: "Account" }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Signed-in sessions" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Two-factor authentication" })).toBeVisible();

  // The API page's "your account page" is that page.
  await page.goto("/database/api");
  await page.getByRole("link", { name: "your account page" }).click();
  await expect(page).toHaveURL(/\/account$/);

  await gotoHydrated(page, "/account");
  const section = page.getByRole("region", { name: "API keys" });
  await expect(section.getByText("No API keys.")).toBeVisible();
  // A site owner may grant read and watchlists, not the roles they do not hold.
  await expect(section.getByLabel(/^vendor:/)).toHaveCount(0);
  await expect(section.getByLabel(/^researcher:/)).toHaveCount(0);
  await section.getByLabel("Name").fill("Site monitor");
  await section.getByLabel(/^watchlists:/).check();
  await section.getByRole("button", { name: "Create key" }).click();
  const secret = section.getByTestId("new-api-key");
  await expect(secret).toHaveText(/^pgk_[A-Za-z0-9_-]{43}$/);
  const key = (await secret.textContent()) ?? "";
  await expect(section.getByRole("list", { name: "API keys" })).toContainText("(read, watchlists)");

  // A script with the key alone keeps a watchlist, as the API page says.
  const asScript = { headers: { Authorization: `Bearer ${key}` } };
  const created = await request.post("/api/watchlists", {
    ...asScript,
    data: { name: "Shop", entries: [{ kind: "plugin", slug: "contact-form-7", version: "5.3.1" }] },
  });
  expect(created.status(), await created.text()).toBe(201);
  const listed = await request.get("/api/watchlists", asScript);
  expect(listed.status()).toBe(200);
  expect(JSON.stringify(await listed.json())).toContain("Shop");
});
