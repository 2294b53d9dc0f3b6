import { expect, test } from "@playwright/test";
import { gotoHydrated, signUpThroughApi } from "./auth-helpers.ts";
import { expectNoSeriousViolations } from "./axe.ts";

/**
 * The researcher profile of PRODUCT.md §5 (issue 7, decision 010): a new researcher fills
 * /researchers/create, lands on their reports, and the public profile shows the links; hostile
 * Markdown in the bio renders inert.
 */

const XSS_BIO = [
  "Breaking **WordPress** plugins since 2019.",
  "<script>window.__xss = 'script'</script>",
  '<img src="x" onerror="window.__xss = \'img\'">',
  "<svg onload=\"window.__xss = 'svg'\"></svg>",
  "[a harmless looking link](javascript:window.__xss='link')",
].join("\n\n");

test("a researcher creates the profile and it is shown publicly, with the bio inert", async ({
  page,
  context,
}) => {
  // Two full accessibility scans and two signed-in pages: on a loaded machine it took 31 s.
  test.slow();
  const { user } = await signUpThroughApi(context, ["researcher"], undefined, { setUp: false });
  const uuid = user.researcher?.uuid;
  if (!uuid) throw new Error("the new account has no researcher profile");
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });

  await gotoHydrated(page, "/researchers/create");
  await expect(page.getByRole("heading", { name: "Create your researcher profile" })).toBeVisible();
  await expect(page.getByLabel("Display name")).toHaveValue(/E2E researcher/);
  await page.getByLabel("Display name").fill("A");
  await page.getByLabel("Mastodon").fill("not a handle");
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(page.getByText("Display name must be between 2 and 60 characters.")).toBeVisible();
  await expect(page.getByText(/Mastodon handle must look like @user@instance.social/)).toBeVisible();
  await expect(page.getByLabel("Display name")).toBeFocused();
  await expectNoSeriousViolations(page);

  await page.getByLabel("Display name").fill("Ada Sec");
  await page.getByLabel("Country").selectOption("EE");
  await page.getByLabel("Website").fill("https://ada.example");
  await page.getByLabel("GitHub").fill("https://github.com/ada-sec");
  await page.getByLabel("X (Twitter)").fill("@ada_sec");
  await page.getByLabel("Mastodon").fill("@ada@infosec.exchange");
  await page.getByLabel("LinkedIn").fill("ada-lovelace");
  await page.getByLabel("Bio").fill(XSS_BIO);
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(page).toHaveURL(new RegExp(`/researchers/${uuid}/in-review$`));

  // The profile is complete: the create page moves on.
  await page.goto("/researchers/create");
  await expect(page).toHaveURL(new RegExp(`/researchers/${uuid}/in-review$`));

  await page.goto(`/database/researchers/${uuid}`);
  await expect(page.getByRole("heading", { name: "Ada Sec" })).toBeVisible();
  await expect(page.getByText("Estonia", { exact: true })).toBeVisible();
  await expectNoSeriousViolations(page);
  const social = page.getByRole("list", { name: "Social profiles" });
  for (const [name, href] of [
    ["ada-sec", "https://github.com/ada-sec"],
    ["ada_sec", "https://x.com/ada_sec"],
    ["@ada@infosec.exchange", "https://infosec.exchange/@ada"],
    ["ada-lovelace", "https://www.linkedin.com/in/ada-lovelace"],
  ] as const) {
    const link = social.getByRole("link", { name, exact: true });
    await expect(link).toHaveAttribute("href", href);
    await expect(link).toHaveAttribute("rel", "nofollow noopener");
  }

  const bio = page.getByRole("region", { name: "Bio" });
  await expect(bio.locator("strong")).toHaveText("WordPress");
  await expect(bio.locator("script, img, svg, [onerror], [onload]")).toHaveCount(0);
  await expect(bio.locator('a[href^="javascript"]')).toHaveCount(0);
  // The javascript: URL is dropped: the text stays, the link goes nowhere.
  await expect(bio.getByText("a harmless looking link")).toBeVisible();
  expect(await page.evaluate(() => (window as { __xss?: string }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
});

test("/researchers/settings edits the same profile and links to the public page", async ({
  page,
  context,
}) => {
  const { user } = await signUpThroughApi(context, ["researcher"]);
  const uuid = user.researcher?.uuid ?? "";
  await gotoHydrated(page, "/researchers/settings");
  await page.getByLabel("Display name").fill("Grace Sec");
  await page.getByLabel("GitHub").fill("-bad-");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText(/GitHub handle must be a GitHub username/)).toBeVisible();
  await page.getByLabel("GitHub").fill("grace-sec");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Profile saved.")).toBeVisible();
  await page.getByRole("link", { name: "View your public profile" }).click();
  await expect(page).toHaveURL(new RegExp(`/database/researchers/${uuid}$`));
  await expect(page.getByRole("heading", { name: "Grace Sec" })).toBeVisible();
  await expect(page.getByRole("link", { name: "grace-sec", exact: true })).toHaveAttribute(
    "href",
    "https://github.com/grace-sec",
  );
});
