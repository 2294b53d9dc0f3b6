import { expect, test } from "@playwright/test";

/**
 * Issue 15, finding 3: a NUL byte or bytes that are not UTF-8 in a page's path or query are the
 * visitor's mistake. The page answers a 4xx with the HTML error screen, never a 500 and never the
 * API's raw JSON. (Server side: apps/server/src/http/reject-malformed-input.ts.)
 */
const HOSTILE_PAGES = [
  "/database?q=%00",
  "/database?q=xss%00&kind=plugin",
  "/database/existing?q=%00",
  "/database/wordpress/plugin/%00/vulnerabilities/vdp",
  "/database/wordpress/plugin/contact-form-7/vulnerability/%00",
  "/database/wordpress/plugin/%00/security-policy/vdp",
  "/database/researchers/%00",
  "/database/report/wordpress/plugin/%00",
  "/vdp/invitations/%00",
  "/iframe/vendor?vendor=%00",
];

for (const path of HOSTILE_PAGES) {
  test(`${path} answers a 4xx error page`, async ({ page }) => {
    const response = await page.goto(path);
    const status = response?.status() ?? 0;
    expect(status, path).toBeGreaterThanOrEqual(400);
    expect(status, path).toBeLessThan(500);
    expect(response?.headers()["content-type"]).toContain("text/html");
    await expect(page).toHaveTitle(new RegExp(`^${status} \\| `));
    await expect(page.getByText(String(status), { exact: true }).first()).toBeVisible();
  });
}

test("a search with bytes that are not UTF-8 still shows the database, not an error", async ({ page }) => {
  const response = await page.goto("/database?q=%ff");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Vulnerability database" })).toBeVisible();
});

// Issue 38: a 2 MB string or a 12 MB body ended in a reset connection rather than a 413 with a message;
// a page's form had no limit at all (React Router read any size into memory).
for (const [name, size] of [
  ["2 MB", 2_000_000],
  ["12 MB", 12_000_000],
] as const) {
  test(`a ${name} form sent to a page gets a 413 with a message, and the page still works`, async ({
    request,
  }) => {
    const answer = await request.post("/database/check", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      data: `kind=plugin&inventory=${"a".repeat(size)}`,
    });
    expect(answer.status()).toBe(413);
    expect(await answer.text()).toContain("The request body is larger than the 1 MB this address accepts.");
    expect((await request.get("/database/check")).status()).toBe(200);
  });

  test(`a ${name} JSON body sent to the API gets a 413 with a message`, async ({ request }) => {
    const answer = await request.post("/api/v1/check", {
      headers: { "content-type": "application/json" },
      data: JSON.stringify({ items: "a".repeat(size) }),
    });
    expect(answer.status()).toBe(413);
    expect((await answer.json()).message).toBe(
      "The request body is larger than the 1 MB this address accepts.",
    );
  });
}

test("a multipart body that is not one answers 400, not a server error", async ({ request }) => {
  const answer = await request.post("/database/check", {
    headers: { "content-type": "multipart/form-data; boundary=x" },
    data: "this is not multipart",
  });
  expect(answer.status()).toBe(400);
  expect(await answer.text()).toContain("The form could not be read.");
});
