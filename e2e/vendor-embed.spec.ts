import { type BrowserContext, expect, test } from "@playwright/test";
import {
  gotoHydrated,
  mailedLink,
  postAsUser,
  saveNewResearcherProfile,
  signUpThroughApi,
  uniqueEmail,
} from "./auth-helpers.ts";

/**
 * The vendor embed of issue 7 (`/iframe/vendor?vendor={public_key}`): the report form limited to the
 * vendor's active programs, framed only by the vendor's own domains, refusing an unknown key.
 */

interface Program {
  id: number;
  name: string;
}

/** A verified vendor with a website, two active programs and a pending one; answers its public key. */
async function vendorWithPrograms(context: BrowserContext, stamp: string) {
  const { email } = await signUpThroughApi(context, ["vendor"]);
  await context.request.get(await mailedLink(context, email, /https?:\/\/\S+\/api\/email\/verify\/\S+/));
  const host = `embed-${stamp}.example.test`;
  const account = await context.request.fetch("/api/vendor/account", {
    method: "PUT",
    headers: { "X-XSRF-TOKEN": await xsrf(context) },
    data: {
      vendor_name: `Embed Vendor ${stamp}`,
      url: `https://www.${host}`,
      contact_email: email,
      contact_person: "Eve",
      timezone: "UTC",
    },
  });
  expect(account.status(), await account.text()).toBe(200);
  const { public_key: key } = (await account.json()) as { public_key: string };

  const program = async (name: string, activate: boolean): Promise<Program> => {
    const slug = `${name.toLowerCase().replaceAll(" ", "-")}-${stamp}`;
    const created = await postAsUser(context, "/api/products", {
      kind: "plugin",
      name: `${name} ${stamp}`,
      slug,
      product_url: `https://${host}/${slug}`,
      vendor_website_url: `https://${host}`,
      plan: "free",
    });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = (await created.json()) as { id: number };
    if (activate) {
      const activated = await postAsUser(context, `/api/products/${id}/activate-product`, {
        is_lobby_product: false,
      });
      expect(await activated.json()).toMatchObject({ status: "success" });
    }
    return { id, name: `${name} ${stamp}` };
  };
  const forms = await program("Embed Forms", true);
  const gallery = await program("Embed Gallery", true);
  const pending = await program("Embed Pending", false);
  return { key, host, name: `Embed Vendor ${stamp}`, forms, gallery, pending };
}

/** The source list of a policy's `frame-ancestors` directive. */
function frameAncestorsOf(policy: string): string {
  return policy.match(/(?:^|; )frame-ancestors ([^;]*)/)?.[1] ?? "";
}

async function xsrf(context: BrowserContext): Promise<string> {
  let cookie = (await context.cookies()).find((entry) => entry.name === "XSRF-TOKEN");
  if (!cookie) {
    await context.request.get("/api/csrf-cookie");
    cookie = (await context.cookies()).find((entry) => entry.name === "XSRF-TOKEN");
  }
  return decodeURIComponent(cookie?.value ?? "");
}

test("the embed lists only the vendor's active programs, may be framed only by its domains, and takes a signed-out report", async ({
  browser,
  page,
}) => {
  test.setTimeout(120_000);
  const stamp = `${Date.now()}-${Math.random().toString(36).slice(2, 6)}`;
  const vendorContext = await browser.newContext();
  const vendor = await vendorWithPrograms(vendorContext, stamp);
  await vendorContext.close();

  // The framing policy: the vendor's own origins, no X-Frame-Options; every other page refuses framing.
  const path = `/iframe/vendor?vendor=${vendor.key}`;
  const response = await page.request.get(path);
  expect(response.status()).toBe(200);
  // The site's whole policy (decision 020), with the vendor's origins as frame-ancestors.
  const csp = response.headers()["content-security-policy"] ?? "";
  expect(csp).toMatch(/script-src 'self' 'nonce-/);
  const ancestors = frameAncestorsOf(csp);
  expect(ancestors.split(" ")).toEqual(
    expect.arrayContaining([`https://${vendor.host}`, `https://www.${vendor.host}`]),
  );
  expect(ancestors).not.toContain("wordpress.org");
  expect(ancestors).not.toContain("'none'");
  expect(response.headers()["x-frame-options"]).toBeUndefined();
  const other = await page.request.get("/database/report");
  expect(other.headers()["x-frame-options"]).toBe("DENY");
  expect(frameAncestorsOf(other.headers()["content-security-policy"] ?? "")).toBe("'none'");

  // Only the active programs are offered, from a list: no search box, no typing in.
  await gotoHydrated(page, path);
  await expect(page.locator("h1")).toHaveText(`Report a vulnerability to ${vendor.name}`);
  const picker = page.getByLabel("Affected software");
  const options = (await picker.locator("option").allTextContents()).filter(
    (text) => !text.startsWith("Choose"),
  );
  expect(options).toEqual([
    `${vendor.forms.name} (WordPress plugin)`,
    `${vendor.gallery.name} (WordPress plugin)`,
  ]);
  await expect(page.getByRole("searchbox")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Type the product in" })).toHaveCount(0);
  await expect(page.getByText("Secured by")).toBeVisible();

  // A signed-out report with the real ALTCHA proof of work lands on the in-frame confirmation.
  await picker.selectOption({ label: `${vendor.gallery.name} (WordPress plugin)` });
  const title = `Embed stored XSS ${stamp}`;
  await page.getByLabel("Affected versions").selectOption("<=");
  await page.getByLabel("Version", { exact: true }).fill("2.0.1");
  await page.getByLabel("Vulnerability type").selectOption({ label: "Cross-Site Scripting (XSS)" });
  await page.getByLabel("OWASP Top 10 category").selectOption({ label: "A3 Injection" });
  await page.getByLabel("Required privilege").selectOption({ label: "Contributor" });
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Description").fill("The gallery caption is printed on the page without escaping.");
  await page
    .getByLabel("Steps to reproduce")
    .fill("1. Log in as a contributor.\n2. Add a caption with a script.");
  await page.getByLabel("Proof of concept").fill("<script>alert(document.domain)</script> as the caption.");
  // Files: a refused kind is named with the reason; an accepted one is listed with its size.
  const files = page.getByLabel("Attachments");
  await files.setInputFiles({
    name: "setup.exe",
    mimeType: "application/octet-stream",
    buffer: Buffer.from("MZ"),
  });
  await expect(page.getByText(/setup\.exe: This kind of file is not accepted/)).toBeVisible();
  await files.setInputFiles([
    { name: "poc.txt", mimeType: "text/plain", buffer: Buffer.from("proof of concept") },
    { name: "capture.har", mimeType: "application/json", buffer: Buffer.alloc(3000, 97) },
  ]);
  const attached = page.getByRole("list", { name: "Attached files" });
  await expect(attached.getByRole("listitem")).toHaveCount(2);
  await expect(attached).toContainText("poc.txt");
  await expect(attached).toContainText("3 KB");
  await page.getByRole("button", { name: "Remove capture.har" }).click();
  await expect(attached.getByRole("listitem")).toHaveCount(1);
  const email = uniqueEmail("embed-reporter");
  await page.getByLabel("Your e-mail address").fill(email);
  const captchaState = page.locator("altcha-widget [data-state]");
  await expect(captchaState).toHaveAttribute("data-state", /.+/);
  if ((await captchaState.getAttribute("data-state")) === "unverified") {
    await page.getByRole("checkbox", { name: "I'm not a robot" }).check();
  }
  await expect(captchaState).toHaveAttribute("data-state", "verified", { timeout: 60_000 });
  await page.getByRole("button", { name: "Submit report" }).click();

  const confirmation = page.getByTestId("embed-submitted");
  await expect(confirmation).toContainText("Report received");
  await expect(confirmation).toContainText(title);
  await expect(confirmation).toContainText(email);
  expect(page.url()).toContain(path);
  // The reporter gets the sign-in link, as from the normal form, and the file is on the report.
  const magicLink = await mailedLink(page, email, /https?:\/\/\S+\/login\/magic-link\/[0-9a-f-]{36}/);
  const reporter = await browser.newContext();
  const reporterPage = await reporter.newPage();
  await reporterPage.goto(new URL(magicLink).pathname);
  await saveNewResearcherProfile(reporterPage);
  const reports = await reporter.request.get("/api/researcher/reports?tab=in-review");
  const reportId = ((await reports.json()) as { data: { id: string; title: string }[] }).data.find(
    (item) => item.title === title,
  )?.id;
  expect(reportId).toBeTruthy();
  const detail = (await (await reporter.request.get(`/api/reports/${reportId}`)).json()) as {
    attachments: { filename: string }[];
  };
  expect(detail.attachments.map((file) => file.filename)).toEqual(["poc.txt"]);
  await reporter.close();
});

test("an unknown or missing vendor key shows the unavailable state with 404", async ({ page }) => {
  for (const path of [
    "/iframe/vendor?vendor=00000000-0000-4000-8000-000000000000",
    "/iframe/vendor?vendor=nonsense",
    "/iframe/vendor",
  ]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    expect(frameAncestorsOf(response?.headers()["content-security-policy"] ?? "")).toBe("'none'");
    await expect(page.getByTestId("embed-unavailable")).toContainText("This reporting form is not available");
    await expect(page.getByRole("button", { name: "Submit report" })).toHaveCount(0);
  }
});
