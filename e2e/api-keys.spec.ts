import { expect, test } from "@playwright/test";
import { gotoHydrated, signUpThroughApi } from "./auth-helpers.ts";

/**
 * Issue 18 (decision 028): a vendor makes an API key on the account page, a script uses it on the
 * API, the list shows its last use, and once revoked there it answers 401.
 */
test("a vendor creates an API key, a script uses it, and it stops working once revoked", async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signUpThroughApi(context, ["vendor"]);
  await gotoHydrated(page, "/vdp/account/settings");
  const section = page.getByRole("region", { name: "API keys" });
  await expect(section.getByText("No API keys.")).toBeVisible();

  await section.getByLabel("Name").fill("Release pipeline");
  await section.getByLabel(/^vendor:/).check();
  await section.getByLabel("Expires after").selectOption("30");
  await section.getByRole("button", { name: "Create key" }).click();
  const secret = section.getByTestId("new-api-key");
  await expect(secret).toHaveText(/^pgk_[A-Za-z0-9_-]{43}$/);
  const key = (await secret.textContent()) ?? "";
  await section.getByRole("button", { name: "Copy" }).click();
  await expect(section.getByRole("button", { name: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

  const keys = section.getByRole("list", { name: "API keys" });
  await expect(keys.getByRole("listitem")).toHaveCount(1);
  await expect(keys).toContainText("Release pipeline");
  await expect(keys).toContainText("(read, vendor)");
  await expect(keys.getByTestId("api-key-last-used")).toHaveText("never");

  // A script with the key: no cookies, only the Bearer header.
  const asScript = { headers: { Authorization: `Bearer ${key}` } };
  const reports = await request.get("/api/vendor/reports", asScript);
  expect(reports.status()).toBe(200);
  const publicRead = await request.get("/api/v1/statistics/counts", asScript);
  expect(publicRead.status()).toBe(200);
  expect(publicRead.headers()["ratelimit-limit"]).toBeDefined();

  // The secret is shown once: after a reload the page lists the key, used, without its secret.
  await gotoHydrated(page, "/vdp/account/settings");
  const reloaded = page.getByRole("region", { name: "API keys" });
  await expect(reloaded.getByTestId("new-api-key")).toHaveCount(0);
  await expect(reloaded).not.toContainText(key);
  await expect(reloaded.getByTestId("api-key-last-used")).not.toHaveText("never");

  await reloaded.getByRole("button", { name: "Revoke" }).click();
  await expect(reloaded.getByText("No API keys.")).toBeVisible();
  expect((await request.get("/api/vendor/reports", asScript)).status()).toBe(401);
});
