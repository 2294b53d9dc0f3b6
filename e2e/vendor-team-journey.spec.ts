import { expect, test } from "@playwright/test";
import {
  currentUser,
  gotoHydrated,
  mailedLink,
  signUpThroughApi,
  uniqueEmail,
  userHeaders,
} from "./auth-helpers.ts";
import { startWebhookReceiver } from "./webhook-receiver.ts";

/**
 * Issue 8 in one journey, as the vendor's people do it in Chromium: the owner invites a colleague
 * (who joins from the mailed link), upgrades to Paid, adds a signed webhook, sends a test event and
 * finds it delivered in the log; the colleague, a member, cannot open the seats page, and leaves.
 */
test("an owner builds the team, upgrades, forwards to a webhook; the member stays out of seats", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  let secret = "";
  const receiver = await startWebhookReceiver(() => secret);
  const memberContext = await browser.newContext();
  try {
    await signUpThroughApi(page.context(), ["vendor"]);

    // Seats: invite a member.
    await gotoHydrated(page, "/vdp/account/seats");
    const invitee = uniqueEmail("journey-member");
    await page.getByLabel("E-mail address").fill(invitee);
    await page.getByLabel("Role", { exact: true }).selectOption("member");
    await page.getByRole("button", { name: "Send invitation" }).click();
    await expect(page.getByText(`Invitation sent to ${invitee}.`)).toBeVisible();

    // The colleague joins from the mailbox, in a browser of their own.
    const link = await mailedLink(page, invitee, /https?:\/\/\S+\/vdp\/invitations\/[A-Za-z0-9_-]+/);
    const memberPage = await memberContext.newPage();
    await gotoHydrated(memberPage, new URL(link).pathname);
    await memberPage.getByLabel("Your name").fill("Morgan Member");
    await memberPage.getByLabel("Password").fill("correct horse battery");
    await memberPage.getByRole("button", { name: "Create account and join" }).click();
    await memberPage.waitForURL("**/vdp/reports/awaiting_fix");
    // Signed in the way the auth mode signs in (a token in token mode): the page is theirs.
    await expect(memberPage.getByRole("heading", { level: 1 })).toBeVisible();
    expect((await (await currentUser(memberPage)).json()).vendor).toMatchObject({ role: "member" });

    // Subscription: upgrade to Paid through the confirm step.
    await gotoHydrated(page, "/vdp/account/subscription");
    const paid = page
      .getByRole("list", { name: "Plans" })
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: "Paid" }) });
    await expect(paid).toContainText("75.00");
    await paid.getByRole("button", { name: "Upgrade to Paid" }).click();
    await page
      .getByRole("dialog", { name: "Upgrade to Paid?" })
      .getByRole("button", { name: "Confirm: upgrade for 75.00 USD" })
      .click();
    await expect(page.getByText(/You are now on the Paid plan\./)).toBeVisible();

    // Forwarding: a webhook, its secret shown once, a test event, the delivery log.
    await gotoHydrated(page, "/vdp/account/forward-reports");
    await page.getByLabel("Webhook URL").fill(receiver.url);
    await page.getByRole("button", { name: "Add webhook" }).click();
    secret = (await page.getByTestId("forward-secret").textContent()) ?? "";
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole("button", { name: "I have stored it" }).click();
    const target = page.getByTestId("forward-target");
    await target.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByText("Test event sent.")).toBeVisible();
    await target.getByRole("button", { name: "Delivery log" }).click();
    const log = target.getByRole("table", { name: "Delivery log" });
    await expect(log).toContainText("Test event");
    await expect(log.getByTestId("delivery-status-code").first()).toHaveText("200", { timeout: 15_000 });
    expect(receiver.received.map(({ event, valid }) => ({ event, valid }))).toEqual([
      { event: "report.test", valid: true },
    ]);

    // The member handles reports but cannot open seats.
    await gotoHydrated(memberPage, "/vdp/account/seats");
    await expect(memberPage).toHaveURL(/\/vdp\/account\/settings$/);
    const refused = await memberPage.request.get("/api/vendor/members", {
      headers: await userHeaders(memberPage),
    });
    expect(refused.status()).toBe(403);

    // The member leaves from the account settings; the owner's seats list no longer shows them.
    memberPage.once("dialog", (dialog) => void dialog.accept());
    await memberPage.getByRole("button", { name: /^Leave / }).click();
    // With no role left, their home is the watchlists (issue 20), where any signed-in user may go.
    await memberPage.waitForURL("**/watchlists");
    expect((await (await currentUser(memberPage)).json()).vendor).toBeNull();
    await gotoHydrated(page, "/vdp/account/seats");
    await expect(page.getByRole("list", { name: "Members" }).getByText("Morgan Member")).toHaveCount(0);
  } finally {
    await memberContext.close();
    await receiver.close();
  }
});
