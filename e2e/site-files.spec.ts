import { expect, type Page, test } from "@playwright/test";

/**
 * The files every security site is expected to serve (issue 18, decision 026), from the production
 * server: security.txt (RFC 9116) and its legacy redirect, robots.txt, the sitemap index and its
 * files; and, on a vulnerability page, the Atom feeds it announces and its JSON-LD, with no
 * Content-Security-Policy violation.
 */

const CVE = "CVE-2024-4704";
const TITLE = "Contact Form 7 <= 5.9.4 - Unauthenticated Open Redirect";
const YEAR_MS = 365 * 86_400_000;

/** Every CSP violation the page reports, from the DOM event and from the console. */
async function watchViolations(page: Page) {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(`Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return violations;
}

const locsOf = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1] ?? "");

test("security.txt, robots.txt and the sitemaps answer with their formats", async ({ request }) => {
  const securityTxt = await request.get("/.well-known/security.txt");
  expect(securityTxt.status()).toBe(200);
  expect(securityTxt.headers()["content-type"]).toBe("text/plain; charset=utf-8");
  expect(securityTxt.headers().etag).toBeTruthy();
  const fields = await securityTxt.text();
  expect(fields).toMatch(/^Contact: (mailto:|https?:\/\/)\S+$/m);
  expect(fields).toMatch(/^Canonical: https?:\/\/\S+\/\.well-known\/security\.txt$/m);
  expect(fields).toMatch(/^Policy: https?:\/\/\S+$/m);
  expect(fields).toMatch(/^Preferred-Languages: en$/m);
  const expires = Date.parse(/^Expires: (\S+)$/m.exec(fields)?.[1] ?? "");
  expect(expires - Date.now()).toBeGreaterThan(0);
  expect(expires - Date.now()).toBeLessThan(YEAR_MS);

  const legacy = await request.get("/security.txt", { maxRedirects: 0 });
  expect(legacy.status()).toBe(301);
  expect(legacy.headers().location).toBe("/.well-known/security.txt");

  const robots = await request.get("/robots.txt");
  expect(robots.status()).toBe(200);
  expect(robots.headers()["content-type"]).toBe("text/plain; charset=utf-8");
  const rules = await robots.text();
  expect(rules).toMatch(/^User-agent: \*$/m);
  const sitemapUrl = /^Sitemap: (\S+)$/m.exec(rules)?.[1];
  // An indexable site names its sitemap; one that is not disallows everything.
  if (!sitemapUrl) expect(rules).toMatch(/^Disallow: \/$/m);

  const index = await request.get(sitemapUrl ? new URL(sitemapUrl).pathname : "/sitemap.xml");
  expect(index.status()).toBe(200);
  expect(index.headers()["content-type"]).toBe("application/xml; charset=utf-8");
  const files = locsOf(await index.text()).map((loc) => new URL(loc).pathname);
  expect(files).toContain("/sitemap-pages.xml");
  expect(files).toContain("/sitemap-products-1.xml");
  expect(files).toContain("/sitemap-vulnerabilities-1.xml");

  const records = await request.get("/sitemap-vulnerabilities-1.xml");
  expect(records.status()).toBe(200);
  const pages = locsOf(await records.text());
  expect(pages.length).toBeGreaterThan(0);
  expect(pages.length).toBeLessThanOrEqual(50_000);
  expect(new URL(pages[0] ?? "").pathname).toMatch(
    /^\/database\/wordpress\/[a-z]+\/[^/]+\/vulnerability\/[^/]+$/,
  );
});

test("a vulnerability page announces the feeds and describes the record in JSON-LD, under the policy", async ({
  page,
  request,
}) => {
  const violations = await watchViolations(page);
  const record = await (await request.get(`/api/v1/vulnerabilities/${CVE}`)).json();
  await page.goto(new URL(record.url).pathname);
  await expect(page.locator("h1")).toHaveText(TITLE);

  const feeds = page.locator('head link[rel="alternate"][type="application/atom+xml"]');
  await expect(feeds.and(page.locator('[href="/database/feed"]'))).toHaveCount(1);
  const productFeed = feeds.and(page.locator('[href="/database/wordpress/plugin/contact-form-7/feed"]'));
  await expect(productFeed).toHaveAttribute("title", "Contact Form 7 vulnerabilities");
  const feed = await request.get("/database/wordpress/plugin/contact-form-7/feed");
  expect(feed.headers()["content-type"]).toBe("application/atom+xml; charset=utf-8");

  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? "");
  expect(jsonLd).toMatchObject({
    "@context": "https://schema.org",
    "@type": "TechArticle",
    headline: TITLE,
    about: [{ "@type": "SoftwareApplication", name: "Contact Form 7" }],
  });
  expect(jsonLd.identifier).toContainEqual(expect.objectContaining({ propertyID: "CVE", value: CVE }));
  expect(violations).toEqual([]);
});

test("the CSAF provider metadata leads to the ROLIE feeds and the advisories; pages link them", async ({
  page,
  request,
}) => {
  const securityTxt = await (await request.get("/.well-known/security.txt")).text();
  const metadataUrl = /^CSAF: (\S+)$/m.exec(securityTxt)?.[1] ?? "";
  expect(new URL(metadataUrl).pathname).toBe("/.well-known/csaf/provider-metadata.json");
  const metadata = await (await request.get(new URL(metadataUrl).pathname)).json();
  expect(metadata).toMatchObject({ metadata_version: "2.0", role: "csaf_provider" });
  const feedUrl: string = metadata.distributions[0].rolie.feeds.at(-1).url;
  const feed = await request.get(new URL(feedUrl).pathname);
  expect(feed.status()).toBe(200);
  expect(feed.headers()["content-type"]).toBe("application/json; charset=utf-8");
  const entry = (await feed.json()).feed.entry[0];
  const advisory = await request.get(new URL(entry.content.src).pathname);
  expect(advisory.status()).toBe(200);
  expect((await advisory.json()).document.tracking.id).toBe(entry.id);

  // The record page links its CSAF advisory beside the OSV record; the product page shows its identifiers.
  const record = await (await request.get(`/api/v1/vulnerabilities/${CVE}`)).json();
  await page.goto(new URL(record.url).pathname);
  const csafLink = page.getByRole("link", { name: "CSAF", exact: true });
  const csaf = await request.get((await csafLink.getAttribute("href")) ?? "");
  expect(csaf.status()).toBe(200);
  expect((await csaf.json()).vulnerabilities[0].cve).toBe(CVE);
  await page.goto(new URL(record.product.url).pathname);
  await expect(page.getByRole("region", { name: "Identifiers" })).toContainText(
    "pkg:wordpress/contact-form-7",
  );
});
