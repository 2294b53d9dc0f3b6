import { type APIRequestContext, expect, test } from "@playwright/test";
import { gotoHydrated, mailedLink, signUpThroughApi, uniqueEmail } from "./auth-helpers.ts";
import { expectNoSeriousViolations } from "./axe.ts";
import { screenshotAtBreakpoints } from "./screenshots.ts";

/**
 * Seats (issue 8, PRODUCT.md §4): an owner invites a colleague as a member; the colleague opens the
 * mailed link in another browser, creates the account there and lands in the vendor area; a member
 * handles reports but never reaches seats, subscription or report forwarding.
 */

/** Where a document request for `path` goes: its status, or `302 → /location`. */
async function answerOf(request: APIRequestContext, path: string): Promise<string> {
  const response = await request.get(path, { maxRedirects: 0, headers: { accept: "text/html" } });
  const location = response.headers().location;
  return location
    ? `${response.status()} → ${new URL(location, "http://x").pathname}`
    : String(response.status());
}

test("an owner invites a member, who joins by the mailed link and stays out of the owner pages", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const consoleErrors: string[] = [];
  page.on("pageerror", (error) => consoleErrors.push(error.message));
  await signUpThroughApi(page.context(), ["vendor"]);

  // The owner: 1 of 2 seats on the free plan, then invites a member.
  await gotoHydrated(page, "/vdp/account/seats");
  await expect(page.getByRole("heading", { name: "Seats", level: 1 })).toBeVisible();
  await expect(page.getByText("1 of 2 seats")).toBeVisible();
  const invitee = uniqueEmail("colleague");
  await page.getByLabel("E-mail address").fill(invitee);
  await page.getByLabel("Role", { exact: true }).selectOption("member");
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText(`Invitation sent to ${invitee}.`)).toBeVisible();
  await expect(page.getByText("2 of 2 seats")).toBeVisible();
  await expect(page.getByRole("list", { name: "Open invitations" }).getByText(invitee)).toBeVisible();
  // The plan is full: inviting a third person is refused, with what to do.
  await expect(page.getByText("All seats are taken.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Send invitation" })).toBeDisabled();
  await screenshotAtBreakpoints(page, "vendor-seats", "/vdp/account/seats");
  await expectNoSeriousViolations(page);

  // The invitee, in a browser of their own, opens the mailed link and creates the account.
  const link = await mailedLink(page, invitee, /https?:\/\/\S+\/vdp\/invitations\/[A-Za-z0-9_-]+/);
  const inviteeContext = await browser.newContext();
  const inviteePage = await inviteeContext.newPage();
  try {
    const path = new URL(link).pathname;
    await gotoHydrated(inviteePage, path);
    await expect(inviteePage.getByRole("heading", { name: /^Join .+ as a member$/ })).toBeVisible();
    await screenshotAtBreakpoints(inviteePage, "vendor-seats-invitation", path);
    await expectNoSeriousViolations(inviteePage);
    await inviteePage.getByLabel("Your name").fill("Casey Colleague");
    await inviteePage.getByLabel("Password").fill("correct horse battery");
    await inviteePage.getByRole("button", { name: "Create account and join" }).click();
    await inviteePage.waitForURL("**/vdp/reports/awaiting_fix");
    const me = await (await inviteePage.request.get("/api/user")).json();
    expect(me).toMatchObject({ email: invitee, email_verified: true, vendor: { role: "member" } });

    // A member sees neither the owner tabs nor the forwarding menu entry, and the seats page sends them back.
    const vendorMenu = inviteePage.getByRole("navigation", { name: "Vendor" });
    await expect(vendorMenu.getByRole("link", { name: "Reports" })).toBeVisible();
    await expect(vendorMenu.getByRole("link", { name: /Report forwarding/ })).toHaveCount(0);
    await gotoHydrated(inviteePage, "/vdp/account/seats");
    await expect(inviteePage).toHaveURL(/\/vdp\/account\/settings$/);
    const tabs = inviteePage.getByRole("navigation", { name: "Account" });
    await expect(tabs.getByRole("link", { name: "Settings" })).toBeVisible();
    await expect(tabs.getByRole("link", { name: "Seats" })).toHaveCount(0);
    await expect(tabs.getByRole("link", { name: "Subscription" })).toHaveCount(0);
    await expect(tabs.getByRole("link", { name: /Report forwarding/ })).toHaveCount(0);
    for (const owned of ["/vdp/account/seats", "/vdp/account/subscription", "/vdp/account/forward-reports"])
      expect(await answerOf(inviteePage.request, owned), owned).toBe("302 → /vdp/account/settings");
    expect(await answerOf(inviteePage.request, "/vdp/account/settings")).toBe("200");

    // The link worked once.
    await gotoHydrated(inviteePage, path);
    await expect(
      inviteePage.getByText("This invitation has already been used.", { exact: false }),
    ).toBeVisible();
  } finally {
    await inviteeContext.close();
  }

  // The owner sees the new member, active, and the seat no longer as an invitation.
  await gotoHydrated(page, "/vdp/account/seats");
  const members = page.getByRole("list", { name: "Members" });
  await expect(members.getByText("Casey Colleague", { exact: true })).toBeVisible();
  await expect(members.getByLabel("Role of Casey Colleague")).toHaveValue("member");
  await expect(page.getByText("No open invitations.")).toBeVisible();
  expect(consoleErrors).toEqual([]);
});

test("an invited address with an account signs in from the link, comes back and accepts as admin", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await signUpThroughApi(page.context(), ["vendor"]);
  const inviteeContext = await browser.newContext();
  try {
    // The invitee already has a researcher account, signed out in its own browser.
    const invitee = await signUpThroughApi(inviteeContext, ["researcher"]);
    await inviteeContext.clearCookies();

    await gotoHydrated(page, "/vdp/account/seats");
    await page.getByLabel("E-mail address").fill(invitee.email);
    await page.getByLabel("Role", { exact: true }).selectOption("admin");
    await page.getByRole("button", { name: "Send invitation" }).click();
    await expect(page.getByText(`Invitation sent to ${invitee.email}.`)).toBeVisible();

    const link = await mailedLink(page, invitee.email, /https?:\/\/\S+\/vdp\/invitations\/[A-Za-z0-9_-]+/);
    const path = new URL(link).pathname;
    const inviteePage = await inviteeContext.newPage();
    await gotoHydrated(inviteePage, path);
    await expect(inviteePage.getByRole("heading", { name: /^Join .+ as an admin$/ })).toBeVisible();
    await inviteePage.getByRole("link", { name: "Sign in to accept" }).click();
    await inviteePage.waitForURL("**/vdp/login?redirect=*");
    await expect(inviteePage.locator("html")).toHaveAttribute("data-hydrated", "true");
    await inviteePage.getByLabel("E-mail").fill(invitee.email);
    await inviteePage.getByLabel("Password").fill(invitee.password);
    await inviteePage.getByRole("button", { name: "Sign in", exact: true }).click();
    await inviteePage.waitForURL(`**${path}`);
    await expect(inviteePage.locator("html")).toHaveAttribute("data-hydrated", "true");
    await expect(inviteePage.getByText(`You are signed in as ${invitee.email}.`)).toBeVisible();
    await inviteePage.getByRole("button", { name: "Accept invitation" }).click();
    await inviteePage.waitForURL("**/vdp/reports/awaiting_fix");
    const me = await (await inviteePage.request.get("/api/user")).json();
    expect(me.vendor).toMatchObject({ role: "admin" });

    // An admin manages seats: the tab and the page are theirs.
    await gotoHydrated(inviteePage, "/vdp/account/seats");
    await expect(
      inviteePage.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Seats" }),
    ).toBeVisible();
    await expect(inviteePage.getByRole("list", { name: "Members" }).getByText(invitee.email)).toBeVisible();
  } finally {
    await inviteeContext.close();
  }
});
