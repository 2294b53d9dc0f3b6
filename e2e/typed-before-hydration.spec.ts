import { expect, type Route, test } from "@playwright/test";

/**
 * A visitor on a slow link reads a form and types into it before the page's scripts have run. When they
 * run, hydration must keep what was typed: a field reset to its empty state loses the visitor's text
 * without a word (the end-to-end watchlist journey once pressed Create on a name hydration had emptied).
 * The scripts are held back until every text field of the page's forms has been typed into, every box
 * ticked and every list's last option chosen.
 */
/** The public pages whose forms hydrate (the site check is sent without scripts: nothing to lose). */
const FORM_PAGES = ["/vdp/login", "/researchers/login", "/register", "/database/report"];

const TEXT_FIELDS =
  'main form input:not([type]), main form input[type="text"], main form input[type="email"], ' +
  'main form input[type="password"], main form input[type="url"], main form input[type="search"], ' +
  "main form textarea";

for (const path of FORM_PAGES) {
  test(`${path} keeps what was typed before its scripts ran`, async ({ page }) => {
    const held: Route[] = [];
    let holding = true;
    await page.route(/\.js(\?|$)/, (route) => (holding ? held.push(route) : route.continue()));
    await page.goto(path, { waitUntil: "commit" });
    const fields = page.locator(TEXT_FIELDS);
    await expect(fields.first()).toBeVisible();
    const typed: string[] = [];
    for (const [index, field] of (await fields.all()).entries()) {
      if (!(await field.isVisible()) || !(await field.isEditable())) continue;
      const type = await field.getAttribute("type");
      const text =
        type === "email"
          ? `typed${index}@example.test`
          : type === "url"
            ? "https://example.test/"
            : `typed ${index}`;
      await field.fill(text);
      typed[index] = text;
    }
    expect(typed.filter(Boolean).length).toBeGreaterThan(0);
    // Boxes ticked and options chosen count as much as text.
    const boxes = page.locator('main form input[type="checkbox"]:not(:checked):visible');
    const ticked = await boxes.count();
    for (let index = 0; index < ticked; index++) await boxes.first().check();
    const selects = page.locator("main form select:visible");
    const chosen: string[] = [];
    for (const select of await selects.all()) {
      const last = await select.locator("option").last().getAttribute("value");
      await select.selectOption(last ?? "");
      chosen.push(last ?? "");
    }
    await expect(page.locator("html")).not.toHaveAttribute("data-hydrated", "true");
    holding = false;
    for (const route of held.splice(0)) await route.continue();
    await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true", { timeout: 15_000 });
    // The visitor goes on typing once the scripts run: the form renders again, every field from its state.
    const last = typed.length - 1;
    await fields.nth(last).press("End");
    await fields.nth(last).pressSequentially("!");
    typed[last] = `${typed[last]}!`;
    for (const [index, text] of typed.entries()) {
      if (text !== undefined) await expect(fields.nth(index), `field ${index} of ${path}`).toHaveValue(text);
    }
    await expect(page.locator('main form input[type="checkbox"]:checked')).toHaveCount(ticked);
    for (const [index, value] of chosen.entries()) await expect(selects.nth(index)).toHaveValue(value);
  });
}
