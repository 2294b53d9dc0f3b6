import { expect, test } from "@playwright/test";
import { csrfHeaderOf, gotoHydrated, mailedLink, signUpThroughApi } from "./auth-helpers.ts";
import { expectNoSeriousViolations } from "./axe.ts";
import { screenshotAtBreakpoints } from "./screenshots.ts";
import { startWebhookReceiver } from "./webhook-receiver.ts";

/**
 * Issue 8, report forwarding: an owner on the premium plan adds a signed webhook pointing at a
 * receiver started here (127.0.0.1; the e2e server runs with FORWARDING_ALLOW_LOOPBACK), sees the
 * secret once, sends a test event and finds it in the delivery log with status 200.
 */

test("an owner on premium adds a webhook, sees the secret once and delivers a signed test event", async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  let secret = "";
  const receiver = await startWebhookReceiver(() => secret);
  try {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await signUpThroughApi(context, ["vendor"]);
    // The subscription API (issue 8, another module) makes the organisation premium.
    const upgraded = await context.request.post("/api/vendor/subscription", {
      headers: await csrfHeaderOf(context.request),
      data: { plan: "premium" },
    });
    expect(upgraded.status(), await upgraded.text()).toBe(200);

    await gotoHydrated(page, "/vdp/account/forward-reports");
    await expect(page.getByText("No targets yet")).toBeVisible();
    await page.getByLabel("Webhook URL").fill(receiver.url);
    await page.getByLabel("Format").selectOption("json");
    await page.getByRole("button", { name: "Add webhook" }).click();

    const shown = page.getByTestId("forward-secret");
    await expect(shown).toHaveText(/^whsec_/);
    secret = (await shown.textContent()) ?? "";
    await page.getByRole("button", { name: "Copy secret" }).click();
    await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
    await expectNoSeriousViolations(page);
    await screenshotAtBreakpoints(page, "report-forwarding-secret");
    await page.getByRole("button", { name: "I have stored it" }).click();
    await expect(page.getByTestId("forward-secret")).toHaveCount(0);

    const target = page.getByTestId("forward-target");
    await expect(target).toContainText(receiver.url);
    await expect(target).toContainText("Active");
    await target.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByText("Test event sent.")).toBeVisible();
    await target.getByRole("button", { name: "Delivery log" }).click();
    const log = target.getByRole("table", { name: "Delivery log" });
    await expect(log).toContainText("Test event");
    await expect(log.getByTestId("delivery-status-code").first()).toHaveText("200", { timeout: 15_000 });
    await expect(log).toContainText("Delivered");
    expect(receiver.received.map(({ event, valid }) => ({ event, valid }))).toEqual([
      { event: "report.test", valid: true },
    ]);

    // The secret is never shown again.
    await gotoHydrated(page, "/vdp/account/forward-reports");
    await expect(page.getByTestId("forward-target")).toContainText(receiver.url);
    expect(await page.content()).not.toContain(secret);
    await page.getByTestId("forward-target").getByRole("button", { name: "Delivery log" }).click();
    await expect(page.getByRole("table", { name: "Delivery log" })).toContainText("200");
    await expectNoSeriousViolations(page);
    await screenshotAtBreakpoints(page, "report-forwarding");
  } finally {
    await receiver.close();
  }
});

test("a free vendor is offered the upgrade instead of the webhook form", async ({ page, context }) => {
  await signUpThroughApi(context, ["vendor"]);
  await gotoHydrated(page, "/vdp/account/forward-reports");
  await expect(page.getByText("Webhooks are part of the premium plan.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Upgrade your subscription" })).toHaveAttribute(
    "href",
    "/vdp/account/subscription",
  );
  await expect(page.getByLabel("Webhook URL")).toHaveCount(0);
  await expect(page.getByRole("textbox", { name: "E-mail address" })).toBeVisible();
  await screenshotAtBreakpoints(page, "report-forwarding-free");
});

test("an e-mail target is confirmed from the mailed link by a button, once", async ({ page, browser }) => {
  await signUpThroughApi(page.context(), ["vendor"]);
  await gotoHydrated(page, "/vdp/account/forward-reports");
  const address = `forward-${Date.now().toString(36)}@example.test`;
  await page.getByRole("textbox", { name: "E-mail address" }).fill(address);
  await page.getByRole("button", { name: "Add e-mail address" }).click();
  await expect(page.getByText(`We sent a confirmation link to ${address}.`)).toBeVisible();
  await expect(page.getByTestId("forward-target")).toContainText("Pending confirmation");

  const link = await mailedLink(page, address, /https?:\/\/\S+\/forwarding\/confirm\/\S+/);
  // The recipient is not signed in; opening the link confirms nothing until the button is pressed.
  const recipient = await browser.newContext();
  const visit = await recipient.newPage();
  await gotoHydrated(visit, new URL(link).pathname);
  await expect(visit.getByRole("heading", { name: "Confirm report forwarding" })).toBeVisible();
  await expectNoSeriousViolations(visit);
  await screenshotAtBreakpoints(visit, "report-forwarding-confirm");
  await page.reload();
  await expect(page.getByTestId("forward-target")).toContainText("Pending confirmation");
  await visit.getByRole("button", { name: "Confirm forwarding" }).click();
  await expect(visit.getByRole("heading", { name: "Forwarding confirmed" })).toBeVisible();
  await gotoHydrated(visit, new URL(link).pathname);
  await visit.getByRole("button", { name: "Confirm forwarding" }).click();
  await expect(visit.getByRole("heading", { name: "Already confirmed" })).toBeVisible();
  await recipient.close();

  await page.reload();
  await expect(page.getByTestId("forward-target")).toContainText("Active");
});
