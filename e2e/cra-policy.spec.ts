import { expect, test } from "@playwright/test";
import { authModeOf, gotoHydrated, mailedLink, postAsUser, signUpThroughApi } from "./auth-helpers.ts";
import { screenshotBothWidths, vendorProgram } from "./program-helpers.ts";

/**
 * Issue 20, the Cyber Resilience Act for vendors: a vendor edits the program's disclosure policy
 * from the template, sets the single point of contact and the support period, and sees them on the
 * public policy page and in the program's security.txt; then sends a notice to the product's users
 * (Art. 14(8)), which a user watching the product receives by e-mail.
 */

test("a vendor publishes its policy, contact and support period, and notifies the product's watchers", async ({
  browser,
}) => {
  test.setTimeout(authModeOf().mode === "token" ? 180_000 : 120_000);
  const stamp = Date.now().toString(36);
  const slug = `cra-policy-${stamp}`;
  const contact = `psirt-${stamp}@example.test`;

  const vendorContext = await browser.newContext();
  const watcherContext = await browser.newContext();
  const [productId, watcher] = await Promise.all([
    vendorProgram(vendorContext, slug, { name: `Cra Policy ${slug}`, version: "3.2.0" }),
    signUpThroughApi(watcherContext, ["researcher"]),
  ]);
  // The watcher keeps the product on a watchlist, its slug in capitals as an inventory may give it.
  const watchlist = await postAsUser(watcherContext, "/api/watchlists", {
    name: "Client site",
    entries: [{ kind: "plugin", slug: slug.toUpperCase(), version: "3.1.0" }],
  });
  expect(watchlist.status(), await watchlist.text()).toBe(201);

  // The vendor edits the policy, starting from the template.
  const page = await vendorContext.newPage();
  await gotoHydrated(page, `/vdp/programs/${productId}/edit`);
  const editor = page.getByRole("region", { name: "Disclosure policy and contact" });
  const policy = editor.getByLabel("Policy (Markdown)");
  await expect(policy).toHaveValue(/^## Scope\n\nThe WordPress plugin \*\*Cra Policy/);
  await expect(editor.getByRole("button", { name: "Reset to the template" })).toBeDisabled();
  const template = await policy.inputValue();
  await policy.fill(
    template.replace(
      "## Safe harbour",
      "## Bounty\n\nWe thank each reporter in our changelog.\n\n## Safe harbour",
    ),
  );
  await editor.getByRole("button", { name: "Reset to the template" }).click();
  await expect(policy).toHaveValue(template);
  await policy.fill(
    template.replace(
      "## Safe harbour",
      "## Bounty\n\nWe thank each reporter in our changelog.\n\n## Safe harbour",
    ),
  );
  await editor.getByLabel("Single point of contact").fill("not an e-mail");
  await editor.getByRole("button", { name: "Save policy" }).click();
  await expect(editor.getByText("Must be a valid email address.")).toBeVisible();
  await editor.getByLabel("Single point of contact").fill(contact);
  await editor.getByLabel("Security updates until").fill("2028-12-31");
  await editor.getByRole("button", { name: "Save policy" }).click();
  await expect(page.getByText("Your policy is saved.")).toBeVisible();
  await editor.getByText("Preview").click();
  await screenshotBothWidths(page, "cra-policy-edit");

  // The public policy page shows them.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await gotoHydrated(visitor, `/database/wordpress/plugin/${slug}/security-policy/vdp`);
  await expect(visitor.getByRole("heading", { name: "Bounty" })).toBeVisible();
  await expect(visitor.getByText("We thank each reporter in our changelog.")).toBeVisible();
  await expect(visitor.getByRole("heading", { name: "Safe harbour" })).toBeVisible();
  await expect(visitor.getByRole("link", { name: contact })).toHaveAttribute("href", `mailto:${contact}`);
  await expect(visitor.getByText("Security updates until 31 December 2028.")).toBeVisible();
  await screenshotBothWidths(visitor, "cra-policy-public");

  // The program's security.txt names the point of contact and the policy page, and stays valid.
  const securityTxt = await visitor.request.get(`/database/wordpress/plugin/${slug}/security.txt`);
  expect(securityTxt.status()).toBe(200);
  const fields = await securityTxt.text();
  expect(fields.split("\n").filter((line) => line.startsWith("Contact: "))[0]).toBe(
    `Contact: mailto:${contact}`,
  );
  expect(fields).toMatch(
    new RegExp(`^Policy: https?://\\S+/database/wordpress/plugin/${slug}/security-policy/vdp/?$`, "m"),
  );
  const expires = Date.parse(/^Expires: (\S+)$/m.exec(fields)?.[1] ?? "");
  expect(expires - Date.now()).toBeGreaterThan(0);
  expect(expires - Date.now()).toBeLessThan(365 * 86_400_000);
  expect(fields).toContain("# Security updates until 31 December 2028.");

  // The vendor notifies the product's users from the program page.
  await gotoHydrated(page, `/vdp/programs/${productId}`);
  const notices = page.getByRole("region", { name: "Notify your users" });
  await expect(notices).toContainText("1 user watches this product.");
  const message = `Versions up to 3.1.0 of ${slug} let anyone change settings.\n\nUpdate to 3.2.0 now.`;
  await notices.getByLabel("Message").fill(message);
  await notices.getByRole("button", { name: "Send the notice" }).click();
  await expect(page.getByText("Your notice was sent to 1 user.")).toBeVisible();
  await expect(notices.getByRole("listitem").filter({ hasText: "Update to 3.2.0 now." })).toContainText(
    "to 1 user",
  );
  await screenshotBothWidths(page, "cra-policy-notices");

  // The watcher receives it once, with the vendor, the product, the message and the product's page.
  const mail = await mailedLink(
    watcherContext,
    watcher.email,
    new RegExp(`https?://\\S+/database/wordpress/plugin/${slug}/vulnerabilities/vdp`),
  );
  expect(mail).toContain(slug);
  const inbox = (await (
    await watcherContext.request.get(`/api/dev/mail?limit=50&to=${encodeURIComponent(watcher.email)}`)
  ).json()) as { data: { subject: string; text: string }[] };
  const received = inbox.data.filter((entry) => entry.subject.startsWith("Security notice from"));
  expect(received).toHaveLength(1);
  expect(received[0]?.subject).toBe(`Security notice from E2E Vendor about Cra Policy ${slug}`);
  expect(received[0]?.text).toContain("Update to 3.2.0 now.");

  for (const context of [vendorContext, watcherContext, visitorContext]) await context.close();
});
