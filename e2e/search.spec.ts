import { expect, test } from "@playwright/test";

/**
 * Issue 17, in the browser on the bundled data: a search that names a product shows the product
 * first (its state and counts) and its records before the other matches; a misspelling is answered
 * with "did you mean"; the search box suggests products as one types, operable by keyboard and
 * announced to screen readers.
 */
const SEARCH_BOX = "Search a plugin, theme, vulnerability, CVE id or researcher";

test("a search naming a product lists the product, then its records", async ({ page }) => {
  await page.goto("/database?q=contact%20form%207");
  const products = page.getByRole("region", { name: "Products" });
  await expect(products.getByRole("link", { name: "Contact Form 7", exact: true })).toBeVisible();
  await expect(products.getByText(/\d+ known vulnerabilities/).first()).toBeVisible();
  await expect(
    page.getByRole("heading", { name: "Vulnerabilities: Contact Form 7 first, then other matches" }),
  ).toBeVisible();
  const firstRecord = page
    .getByRole("region", { name: /^Vulnerabilities/ })
    .getByRole("listitem")
    .first();
  await expect(firstRecord).toContainText("Contact Form 7 <=");
});

test("a misspelt product is answered with did you mean", async ({ page }) => {
  await page.goto("/database?q=elementr");
  await expect(page.getByText("No product is named “elementr”. Did you mean")).toBeVisible();
  await page.getByRole("link", { name: "elementor", exact: true }).click();
  await expect(page).toHaveURL(/\?q=elementor$/);
  await expect(
    page.getByRole("heading", { name: /^Vulnerabilities: Elementor Website Builder/ }),
  ).toBeVisible();
});

test("the search box suggests products, chosen with the keyboard", async ({ page }) => {
  await page.goto("/database");
  const box = page.getByRole("combobox", { name: SEARCH_BOX });
  await box.pressSequentially("woocom", { delay: 40 });
  const list = page.getByRole("listbox", { name: "Suggested products" });
  await expect(list).toBeVisible();
  await expect(box).toHaveAttribute("aria-expanded", "true");
  await expect(page.locator("#search-suggestions-status")).toHaveText(/products? suggested/);
  await expect(list.getByRole("option").first()).toContainText("WooCommerce");
  await box.press("ArrowDown");
  await expect(box).toHaveAttribute("aria-activedescendant", "search-suggestions-0");
  await expect(list.getByRole("option").first()).toHaveAttribute("aria-selected", "true");
  await box.press("Escape");
  await expect(list).toBeHidden();
  await box.press("ArrowDown");
  await expect(list).toBeVisible();
  await box.press("Enter");
  await expect(page).toHaveURL(/\/database\/wordpress\/plugin\/woocommerce\/vulnerabilities\/vdp$/);
});

test("without JavaScript the box is a plain search form", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  await page.goto("/database");
  await page.getByLabel(SEARCH_BOX).fill("woocommerce sql injection");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/q=woocommerce\+sql\+injection/);
  await expect(
    page.getByRole("heading", { name: "Vulnerabilities: WooCommerce first, then other matches" }),
  ).toBeVisible();
  await context.close();
});
