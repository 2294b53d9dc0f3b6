import { type BrowserContext, expect, type Page } from "@playwright/test";
import { authModeOf, mailedLink, postAsUser, signUpThroughApi } from "./auth-helpers.ts";
import { expectNoSeriousViolations } from "./axe.ts";

/** A new account of `role` whose e-mail address is confirmed from the mailed link. */
export async function verifiedAccount(context: BrowserContext, role: "vendor" | "researcher") {
  const account = await signUpThroughApi(context, [role]);
  await context.request.get(
    await mailedLink(context, account.email, /https?:\/\/\S+\/api\/email\/verify\/\S+/),
  );
  return account;
}

/** A new vendor with an active program for `slug`; answers the program's id. */
export async function vendorProgram(
  context: BrowserContext,
  slug: string,
  fields: { name: string; version?: string },
): Promise<number> {
  await verifiedAccount(context, "vendor");
  const created = await postAsUser(context, "/api/products", {
    kind: "plugin",
    slug,
    product_url: `https://${slug}.example.test/plugin`,
    vendor_website_url: `https://${slug}.example.test`,
    plan: "free",
    ...fields,
  });
  expect(created.status(), await created.text()).toBeLessThan(300);
  const { id } = (await created.json()) as { id: number };
  const activated = await postAsUser(context, `/api/products/${id}/activate-product`, {
    is_lobby_product: false,
  });
  expect(await activated.json()).toMatchObject({ status: "success" });
  return id;
}

/** The page at a phone's width and a desktop's, then no serious or critical axe violation. */
export async function screenshotBothWidths(page: Page, name: string) {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({
      path: `reports/screenshots/${name}-${width}-${authModeOf().mode}.png`,
      fullPage: true,
    });
  }
  await expectNoSeriousViolations(page);
}
