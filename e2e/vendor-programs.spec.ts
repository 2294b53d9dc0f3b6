import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { authModeOf, currentUser, gotoHydrated, mailedLink } from "./auth-helpers.ts";
import { expectNoSeriousViolations } from "./axe.ts";
import { screenshotAtBreakpoints } from "./screenshots.ts";

/**
 * The vendor journey of issue 6 (spec §2, §4, §5; decision 006): register, verify the address, set
 * up the vendor account, start a program, activate it through the activation modal, claim a lobby
 * product and import programs from a CSV file.
 */

const PASSWORD = "correct horse battery";
/** A seed plugin whose homepage is on its own domain: a vendor with an e-mail there claims it at once. */
const LOBBY_PRODUCT = { name: "1003 Mortgage Application", domain: "mortgageapplicationplugin.com" };
/** A seed plugin whose homepage is on wordpress.org, a shared host: its claim goes to staff. */
const OTHER_PRODUCT = "1 Click WordPress Migration Plugin";
const URL_MESSAGE = "The URL must be a valid URL including the http(s):// protocol.";
const EMAIL_MESSAGE = "Must be a valid email address.";
const SLUG_MESSAGE = /^Slug must be lowercase letters and digits/;

async function activeProgramCount(page: Page): Promise<number> {
  const response = await page.request.get("/api/public/footer/metrics");
  return ((await response.json()) as { active_vdp_directory_count: number }).active_vdp_directory_count;
}

test("a vendor sets up the account, starts, activates, claims and imports programs", async ({ page }) => {
  test.setTimeout(150_000);
  // Hydration mismatches and crashes show up as console errors (failed API answers are expected).
  const consoleErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) {
      consoleErrors.push(message.text());
    }
  });
  page.on("pageerror", (error) => consoleErrors.push(error.message));
  const stamp = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const email = `e2e-${stamp}@${LOBBY_PRODUCT.domain}`;
  const programName = `E2E Program ${stamp}`;
  const programSlug = `e2e-program-${stamp}`;

  // Register as a vendor: the form lands on the vendor account set-up.
  await gotoHydrated(page, "/register");
  await page.getByLabel("Vendor (plugin or theme author)").check();
  await page.getByLabel("Name").fill("Journey vendor");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("status")).toContainText("Check your e-mail");
  await page.getByRole("link", { name: "sign in" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "true");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/vdp\/create-account$/);

  // Verify the address (claims need it).
  await page.goto(await mailedLink(page, email, /https?:\/\/\S+\/api\/email\/verify\/\S+/));
  expect((await (await currentUser(page)).json()).email_verified).toBe(true);

  // The account: every §5 message on an empty submit, then the URL and e-mail rules.
  await gotoHydrated(page, "/vdp/create-account");
  await expect(page.locator("h1")).toHaveText("Set up your vendor account");
  for (const label of ["Vendor name", "Website", "Vendor e-mail", "Person of contact"]) {
    await page.getByLabel(label).fill("");
  }
  await expect(page.getByLabel("Time zone").locator("option")).not.toHaveCount(1);
  await page.getByLabel("Time zone").selectOption("");
  await page.getByRole("button", { name: "Save and continue" }).click();
  for (const message of [
    "Vendor name is required.",
    "Vendor email is required.",
    "Person of contact is required.",
    "Timezone is required.",
  ]) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }
  await expectNoSeriousViolations(page);
  await page.screenshot({ path: "reports/screenshots/create-account-errors-xl.png", fullPage: true });
  await page.getByLabel("Website").fill("mortgageapplicationplugin.com");
  await page.getByLabel("Vendor e-mail").fill("not an address");
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(page.getByText(URL_MESSAGE, { exact: true })).toBeVisible();
  await expect(page.getByText(EMAIL_MESSAGE, { exact: true })).toBeVisible();

  await page.getByLabel("Vendor name").fill("Journey Vendor Ltd");
  await page.getByLabel("Website").fill(`https://${LOBBY_PRODUCT.domain}`);
  await page.getByLabel("Vendor e-mail").fill(email);
  await page.getByLabel("Person of contact").fill("Jane Journey");
  await page.getByLabel("Time zone").selectOption("Europe/Tallinn");
  await expect(page.getByLabel("Time zone").locator("option:checked")).toHaveText(
    /^\(UTC\+0[23]:00\) Europe\/Tallinn$/,
  );
  await page.getByLabel("Country").selectOption("EE");
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(page).toHaveURL(/\/vdp\/programs\/pending$/);
  await expect(page.getByRole("heading", { name: "No pending program" })).toBeVisible();
  // A complete account is not set up again.
  await page.goto("/vdp/create-account");
  await expect(page).toHaveURL(/\/vdp\/programs\/pending$/);

  // Start a program: every Program message on a bad submit, then a good one.
  await gotoHydrated(page, "/vdp/start-program");
  const form = page.locator("form", { has: page.getByRole("button", { name: "Add program" }) });
  await form.getByRole("button", { name: "Add program" }).click();
  for (const message of [
    "Software name is required.",
    "Software URL is required.",
    "Website URL is required.",
    "Slug is required.",
  ]) {
    await expect(form.getByText(message, { exact: true })).toBeVisible();
  }
  await form.getByLabel("Software name").fill(programName);
  await form.getByLabel("Slug", { exact: true }).fill("Not A Slug");
  await form.getByLabel("Software URL").fill("wordpress.org/plugins/x");
  await form.getByLabel("Website URL").fill("https://example.test");
  await form.getByLabel("Vendor contact e-mail").fill("nope");
  await form.getByRole("button", { name: "Add program" }).click();
  await expect(form.getByText(URL_MESSAGE, { exact: true })).toBeVisible();
  await form.screenshot({ path: "reports/screenshots/program-form-errors-xl.png" });
  await expect(form.getByText(SLUG_MESSAGE)).toBeVisible();
  await expect(form.getByText(EMAIL_MESSAGE, { exact: true })).toBeVisible();

  await form.getByLabel("Slug", { exact: true }).fill(programSlug);
  await form.getByLabel("Software URL").fill(`https://wordpress.org/plugins/${programSlug}/`);
  await form.getByLabel("Vendor contact e-mail").fill(`security@${LOBBY_PRODUCT.domain}`);
  await form.getByLabel("Plan").selectOption({ label: "Paid" });
  await form.getByRole("button", { name: "Add program" }).click();

  // It waits under Pending, and the activation modal offers to activate it.
  await expect(page).toHaveURL(/\/vdp\/programs\/pending$/);
  const list = page.getByRole("list", { name: "Programs" });
  const row = list.getByRole("listitem").filter({ hasText: programName });
  await expect(row).toContainText("Pending");
  await expect(row).toContainText("Paid");
  const activeBefore = await activeProgramCount(page);
  const modal = page.getByRole("dialog", { name: "Activate your disclosure program" });
  await expect(modal).toBeVisible();
  await expect(modal.getByLabel(new RegExp(programName))).toBeChecked();
  await page.screenshot({ path: "reports/screenshots/activation-modal-xl.png" });
  await expectNoSeriousViolations(page);
  await page.setViewportSize({ width: 640, height: 900 });
  await page.screenshot({ path: "reports/screenshots/activation-modal-sm.png" });
  await page.setViewportSize({ width: 1280, height: 900 });
  await modal.getByRole("button", { name: "Activate program" }).click();
  await expect(modal).toHaveCount(0);
  await expect(page.getByRole("alert").filter({ hasText: /./ }).first()).toBeVisible();

  // Now under All, the Programs menu points there, and the public directory lists it.
  await page.getByRole("navigation", { name: "Program lists" }).getByRole("link", { name: "All" }).click();
  await expect(page).toHaveURL(/\/vdp\/programs\/all$/);
  await expect(list.getByRole("listitem").filter({ hasText: programName })).toContainText("Active");
  await expect(
    page.getByRole("navigation", { name: "Vendor" }).getByRole("link", { name: "Programs" }),
  ).toHaveAttribute("href", "/vdp/programs/all");
  expect(await activeProgramCount(page)).toBe(activeBefore + 1);
  await page.goto(`/database/vdp?q=${programSlug}`);
  await expect(page.getByRole("link", { name: programName })).toBeVisible();
  // The modal's flag is hidden after the activation.
  expect(await page.evaluate(() => localStorage.getItem("pressguard.activation-modal"))).toBe("hidden");

  // The program page, and its generated security policy.
  await gotoHydrated(page, "/vdp/programs/all");
  await list.getByRole("link", { name: programName }).click();
  await expect(page.locator("h1")).toHaveText(programName);
  await expect(page.getByRole("tab", { name: "Present" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByText("No known vulnerability is present in this product.")).toBeVisible();
  // Its security.txt and readme.txt section, to copy onto the vendor's site (decision 026).
  const securityFiles = page.getByRole("region", { name: "Tell researchers where to report" });
  await expect(securityFiles.getByTestId("program-security-txt")).toContainText(
    `/database/report/wordpress/plugin/${programSlug}`,
  );
  await expect(securityFiles.getByTestId("program-readme-section")).toContainText("== Security ==");
  await expect(securityFiles.getByRole("button", { name: "Copy security.txt" })).toBeVisible();
  await expect(securityFiles.getByRole("button", { name: "Copy readme section" })).toBeVisible();
  await page.getByRole("link", { name: "Security policy" }).click();
  await expect(page).toHaveURL(new RegExp(`/database/wordpress/plugin/${programSlug}/security-policy/vdp$`));
  await expect(page.getByRole("heading", { name: "Fix deadline" })).toBeVisible();
  await expect(page.getByText("Journey Vendor Ltd").first()).toBeVisible();
  await expect(
    page.getByRole("article").getByRole("link", { name: "Report a vulnerability" }),
  ).toHaveAttribute("href", `/database/report/wordpress/plugin/${programSlug}`);
  const securityTxtLink = page.getByRole("link", { name: "security.txt file" });
  await expect(securityTxtLink).toHaveAttribute(
    "href",
    `/database/wordpress/plugin/${programSlug}/security.txt`,
  );
  const securityTxt = await page.request.get(`/database/wordpress/plugin/${programSlug}/security.txt`);
  expect(securityTxt.status()).toBe(200);
  expect(await securityTxt.text()).toMatch(/^Policy: \S+\/security-policy\/vdp$/m);
  await page.screenshot({ path: "reports/screenshots/security-policy-xl.png", fullPage: true });
  await expectNoSeriousViolations(page);

  // Claim the lobby product on the vendor's own domain: immediate.
  await gotoHydrated(page, "/vdp/start-program");
  const lobby = page.getByRole("list", { name: "Products to claim" });
  await lobby.getByRole("button", { name: `Claim ${LOBBY_PRODUCT.name}` }).click();
  await expect(lobby.getByRole("button", { name: `Claim ${LOBBY_PRODUCT.name}` })).toHaveCount(0);
  await gotoHydrated(page, "/vdp/programs/all");
  await expect(list.getByRole("listitem").filter({ hasText: LOBBY_PRODUCT.name })).toContainText("Active");

  // A product on another domain: the claim waits for staff.
  await gotoHydrated(page, "/vdp/start-program");
  await page
    .getByRole("searchbox", { name: "Search unclaimed products by name or slug" })
    .fill(OTHER_PRODUCT);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  const other = lobby.getByRole("listitem").filter({ hasText: OTHER_PRODUCT });
  await other.getByRole("button", { name: /^Claim / }).click();
  await expect(other.getByText("Claim under review")).toBeVisible();

  // Import a CSV file with one bad row: the good one is added, the bad one's line is reported.
  await gotoHydrated(page, "/vdp/start-program");
  const header =
    "kind,version,name,product_url,description,dependencies,vendor_contact_email,slug,vendor_website_url,plan";
  // 21 good rows and a bad one: the pending list then needs a second page (20 a page).
  const goodRow = (index: number) =>
    `plugin,1.0,E2E CSV ${stamp} ${index},https://wordpress.org/plugins/e2e-csv-${stamp}-${index}/,,,,e2e-csv-${stamp}-${index},https://example.test,free`;
  const csv = [
    header,
    goodRow(0),
    `plugin,,,not-a-url,,,,e2e-csv-bad-${stamp},https://example.test,free`,
    ...Array.from({ length: 20 }, (_, index) => goodRow(index + 1)),
  ].join("\n");
  // The template downloads as a click does it (in token mode too, where a link carries no token).
  const templateDownload = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download the CSV template" }).click();
  const template = await templateDownload;
  expect(template.suggestedFilename()).toBe("programs-template.csv");
  expect(readFileSync((await template.path()) ?? "", "utf8").split(/\r?\n/)[0]).toBe(header);
  await page.getByLabel("CSV file", { exact: true }).setInputFiles({
    name: "programs.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(csv),
  });
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page.getByText("21 of 22 rows imported")).toBeVisible();
  const bad = page.getByRole("list", { name: "Rows not imported" }).getByRole("listitem");
  await expect(bad).toHaveCount(1);
  await expect(bad).toContainText("Line 3:");
  await expect(bad).toContainText("Software name is required.");
  // Each problem on a line of its own, its column named (issue 19: they ran together on one line).
  await expect(bad.locator("span.block")).toHaveText([
    "name Software name is required.",
    "product_url The URL must be a valid URL including the http(s):// protocol.",
  ]);
  await gotoHydrated(page, "/vdp/programs/pending");
  await expect(page.getByText("Showing 20 of 21 programs")).toBeVisible();
  await page.getByRole("button", { name: "Load more" }).click();
  await expect(page.getByText("Showing 21 of 21 programs")).toBeVisible();
  await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);
  await expect(list.getByRole("listitem").filter({ hasText: `E2E CSV ${stamp} 0` })).toContainText("Pending");

  // Where the server knows the vendor, the list and its counters come with the page: the browser asks
  // the API for neither (issue 35: both requests after hydration held the Lighthouse score down).
  const authMode = authModeOf();
  if (!(authMode.mode === "token" && authMode.tokenStorage === "localStorage")) {
    const html = (await (await page.request.get("/vdp/programs/pending")).text()).replaceAll("<!-- -->", "");
    expect(html).toContain("Showing 20 of 21 programs");
    expect(html).toContain(`E2E CSV ${stamp} 1`);
    expect(html).toMatch(/Pending programs<\/dt><dd[^>]*>21</);
    const asked: string[] = [];
    const onRequest = (request: { url(): string }) => {
      if (new URL(request.url()).pathname.startsWith("/api/products")) asked.push(request.url());
    };
    page.on("request", onRequest);
    await gotoHydrated(page, "/vdp/programs/all");
    await expect(list.getByRole("listitem").filter({ hasText: programName })).toContainText("Active");
    await gotoHydrated(page, "/vdp/programs/pending");
    await expect(page.getByText("Showing 20 of 21 programs")).toBeVisible();
    page.off("request", onRequest);
    expect(asked).toEqual([]);
  }

  // Edit the program; a program that is not the vendor's is the 404 page (spec §2, issue 14).
  await gotoHydrated(page, "/vdp/programs/all");
  await list.getByRole("link", { name: programName }).click();
  await page.getByRole("link", { name: "Edit" }).click();
  await expect(page.locator("h1")).toHaveText(/^Edit program #\d+$/);
  await expect(page.getByLabel("Slug", { exact: true })).toHaveValue(programSlug);
  await page.getByLabel("Description").fill("Edited in the journey.");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.locator("h1")).toHaveText(programName);
  await expect(page.getByText("Edited in the journey.")).toBeVisible();
  const unknown = await page.goto("/vdp/programs/999999999");
  // With the token in localStorage a guarded page's full load is the 401 shell first (decision 021).
  const auth = authModeOf();
  expect(unknown?.status()).toBe(auth.mode === "token" && auth.tokenStorage === "localStorage" ? 401 : 404);
  await expect(page.getByText("Page not found").first()).toBeVisible();

  // The settings show the saved account.
  await gotoHydrated(page, "/vdp/account/settings");
  await expect(page.getByLabel("Vendor name")).toHaveValue("Journey Vendor Ltd");
  await expect(page.getByLabel("Time zone")).toHaveValue("Europe/Tallinn");

  // Screenshots of the list and a program at the sm and xl breakpoints.
  await screenshotAtBreakpoints(page, "programs-all", "/vdp/programs/all");
  await expectNoSeriousViolations(page);
  await gotoHydrated(page, "/vdp/programs/all");
  const claimedHref = await list.getByRole("link", { name: LOBBY_PRODUCT.name }).getAttribute("href");
  await screenshotAtBreakpoints(page, "program-detail", claimedHref ?? "/vdp/programs/all");
  await expectNoSeriousViolations(page);
  await screenshotAtBreakpoints(page, "start-program", "/vdp/start-program");
  await expectNoSeriousViolations(page);
  expect(consoleErrors).toEqual([]);
});
