import robotsParser from "robots-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importVulnerabilities } from "../../db/import.ts";
import {
  CORE_SQLI,
  MODERN_EVENTS_SSRF,
  SMASH_BALLOON_XSS,
  VIDEO_GALLERY_ALL_VERSIONS,
  WEB_DIRECTORY_SQLI,
} from "../../db/import-fixtures.ts";
import { createTestApp } from "../../test/app.ts";
import { programHelpers } from "../programs/program-test-kit.ts";
import { createWellKnownService } from "./service.ts";

/** security.txt, robots.txt and the sitemaps (decision 026) over five real seed records. */
type Harness = Awaited<ReturnType<typeof createTestApp>>;
let harness: Harness;
const SITE = "https://site.example.test";
const RECORDS = [
  SMASH_BALLOON_XSS,
  MODERN_EVENTS_SSRF,
  WEB_DIRECTORY_SQLI,
  VIDEO_GALLERY_ALL_VERSIONS,
  CORE_SQLI,
];
const { vendor, create } = programHelpers(() => harness);
let activeSlug = "";
let pendingSlug = "";

beforeAll(async () => {
  harness = await createTestApp({ APP_URL: "https://app.example.test", SITE_URL: SITE });
  const summary = await importVulnerabilities(
    harness.database,
    RECORDS.map((record) => JSON.stringify(record)),
  );
  expect(summary.rejected).toEqual([]);
  const { caller } = await vendor();
  const active = await create(caller, { name: "Acme Forms" });
  const activated = await caller.post(`/api/products/${active.id}/activate-product`, {
    is_lobby_product: false,
  });
  expect(activated.statusCode, activated.body).toBe(200);
  activeSlug = active.slug;
  pendingSlug = (await create(caller, { name: "Acme Pending" })).slug;
  // A product an anonymous report made for an unknown slug: no record, no program.
  await harness.database.sql.query(
    `insert into products (platform_id, kind, slug, name, is_lobby_product)
     select id, 'plugin', 'reported-only', 'Reported only', true from platforms where slug = 'wordpress'`,
  );
});
afterAll(() => harness.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  harness.app.inject({ method: "GET", url, headers });

/** The field lines of a security.txt, comments left out. */
const fieldsOf = (body: string) =>
  body
    .split("\n")
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 2)]);

/** 180 days after the start of today (UTC), as the file writes it. */
function expectedExpiry(): string {
  const today = new Date();
  today.setUTCHours(0, 0, 0, 0);
  return new Date(today.getTime() + 180 * 86_400_000).toISOString();
}

const locsOf = (xml: string) => [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((match) => match[1]);

describe("GET /.well-known/security.txt", () => {
  it("names the report page as Contact, the disclosure policy, the canonical URL, an Expires 180 days out and the CSAF provider metadata", async () => {
    const response = await get("/.well-known/security.txt");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(response.headers["cache-control"]).toBe("public, max-age=3600");
    expect(fieldsOf(response.body)).toEqual([
      ["Contact", `${SITE}/database/report`],
      ["Expires", expectedExpiry()],
      ["Preferred-Languages", "en"],
      ["Canonical", `${SITE}/.well-known/security.txt`],
      ["Policy", `${SITE}/database/about-data#disclosure`],
      // CSAF 2.0 §7.1.8 (decision 029): where the advisories' provider-metadata.json is, served here.
      ["CSAF", `${SITE}/.well-known/csaf/provider-metadata.json`],
    ]);
    expect(response.body).not.toContain("BEGIN PGP");
    const csaf = await get(new URL(fieldsOf(response.body).at(-1)![1]!).pathname);
    expect(csaf.statusCode).toBe(200);
    expect(csaf.json()).toMatchObject({ canonical_url: `${SITE}/.well-known/csaf/provider-metadata.json` });
  });

  it("answers a revalidation with 304 and the same ETag", async () => {
    const first = await get("/.well-known/security.txt");
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"/);
    const again = await get("/.well-known/security.txt", { "if-none-match": etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    expect(again.headers.etag).toBe(etag);
  });

  it("redirects the legacy /security.txt there permanently (RFC 9116 §3)", async () => {
    const response = await get("/security.txt");
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe("/.well-known/security.txt");
  });

  it("lists every contact of SECURITY_CONTACT", async () => {
    const other = await createTestApp({
      SITE_URL: SITE,
      SECURITY_CONTACT: "mailto:security@site.example.test, https://site.example.test/security",
    });
    try {
      const body = (await other.app.inject({ method: "GET", url: "/.well-known/security.txt" })).body;
      expect(fieldsOf(body).filter(([name]) => name === "Contact")).toEqual([
        ["Contact", "mailto:security@site.example.test"],
        ["Contact", "https://site.example.test/security"],
      ]);
    } finally {
      await other.close();
    }
  });

  it("keeps Expires 180 days after the start of the UTC day, so the file is the same all day", () => {
    const service = (now: string) =>
      createWellKnownService({
        database: harness.database,
        site: { name: "Pressguard", url: SITE, indexable: true, trailingSlash: false },
        securityContacts: [`${SITE}/database/report`],
        dataVersion: () => "1",
        now: () => new Date(now),
      });
    const morning = service("2026-11-30T00:00:01Z").getSecurityTxt();
    expect(morning).toContain("Expires: 2027-05-29T00:00:00.000Z\n");
    expect(service("2026-11-30T23:59:59Z").getSecurityTxt()).toBe(morning);
  });
});

describe("GET /database/{platform}/{kind}/{product}/security.txt", () => {
  it("points an active program's file at its point of contact, its report form and its security policy", async () => {
    const response = await get(`/database/wordpress/plugin/${activeSlug}/security.txt`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(response.headers.etag).toBeDefined();
    expect(fieldsOf(response.body)).toEqual([
      // No single point of contact set: the program's contact e-mail (program-test-kit.ts).
      ["Contact", "mailto:security@acme.example"],
      ["Contact", `${SITE}/database/report/wordpress/plugin/${activeSlug}`],
      ["Expires", expectedExpiry()],
      ["Preferred-Languages", "en"],
      ["Canonical", `${SITE}/database/wordpress/plugin/${activeSlug}/security.txt`],
      ["Policy", `${SITE}/database/wordpress/plugin/${activeSlug}/security-policy/vdp`],
    ]);
    expect(response.body).toMatch(/^# Acme Forms \(WordPress plugin acme-forms-/);
  });

  it("is not found for a pending program, a product without a program and an unknown product", async () => {
    for (const path of [
      `wordpress/plugin/${pendingSlug}`,
      "wordpress/plugin/custom-facebook-feed",
      "wordpress/plugin/no-such-plugin",
      `wordpress/theme/${activeSlug}`,
    ]) {
      const response = await get(`/database/${path}/security.txt`);
      expect(response.statusCode, path).toBe(404);
      expect(response.json(), path).toMatchObject({ status: "error", message: "Product not found." });
    }
  });
});

describe("GET /robots.txt", () => {
  it("opens the public database and its doors, closes the API, the accounts and the report workflow, and names the sitemap", async () => {
    const response = await get("/robots.txt");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(response.headers.etag).toBeDefined();
    // Judged by robots-parser, the RFC 9309 parser Lighthouse's "is-crawlable" audit uses.
    const robots = robotsParser(`${SITE}/robots.txt`, response.body);
    const open = [
      "/database",
      "/database/wordpress/plugin/contact-form-7/vulnerability/some-record",
      "/database/vdp",
      "/database/researchers/00000000-0000-4000-8000-000000000001",
      // The public doors (issue 35: Lighthouse SEO 100 on the form pages).
      "/database/report",
      "/vdp/login",
      "/vdp/login?redirect=/vdp/programs/all",
      "/researchers/login",
      "/register",
      // The vendor's program lists: a crawler gets the redirect to the sign-in (Lighthouse SEO 100
      // signed in, issue 35), as on /watchlists.
      "/vdp/programs/all",
      "/vdp/programs/open",
      "/vdp/programs/pending",
    ];
    const closed = [
      "/api/v1/vulnerabilities",
      "/vdp/programs/12",
      "/vdp/programs/all?page=2",
      "/vdp/reports/fixed",
      "/vdp/",
      "/researchers/settings",
      "/staff/reports",
      "/login/magic-link/00000000-0000-4000-8000-000000000001",
      "/reset-password/token",
      "/database/report/wordpress/plugin/contact-form-7",
      "/database/report?product=x",
      "/database/report-submitted",
      "/database/report-preview/00000000-0000-4000-8000-000000000001/pin",
      "/database/patch-submitted",
      "/dev/mail",
    ];
    for (const path of open) expect(robots.isAllowed(`${SITE}${path}`, "Googlebot"), path).toBe(true);
    for (const path of closed) expect(robots.isAllowed(`${SITE}${path}`, "Googlebot"), path).toBe(false);
    expect(robots.getSitemaps()).toEqual([`${SITE}/sitemap.xml`]);
  });

  it("disallows everything, with no sitemap, when the site is not indexable", async () => {
    const hidden = await createTestApp({ SITE_URL: SITE, SITE_INDEXABLE: "false" });
    try {
      const response = await hidden.app.inject({ method: "GET", url: "/robots.txt" });
      expect(response.statusCode).toBe(200);
      const rules = response.body.split("\n").filter((line) => line && !line.startsWith("#"));
      expect(rules).toEqual(["User-agent: *", "Disallow: /"]);
      // The sitemaps still answer: nothing names them, and a crawler obeying robots.txt never asks.
      expect((await hidden.app.inject({ method: "GET", url: "/sitemap.xml" })).statusCode).toBe(200);
    } finally {
      await hidden.close();
    }
  });
});

describe("the sitemaps", () => {
  it("indexes the pages' sitemap and one file of products and one of records, with their newest change", async () => {
    const response = await get("/sitemap.xml");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/xml; charset=utf-8");
    expect(response.headers["cache-control"]).toBe("public, max-age=3600");
    expect(response.body).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<sitemapindex xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">\n/,
    );
    expect(locsOf(response.body)).toEqual([
      `${SITE}/sitemap-pages.xml`,
      `${SITE}/sitemap-products-1.xml`,
      `${SITE}/sitemap-vulnerabilities-1.xml`,
    ]);
    expect(response.body).toMatch(
      /<sitemap><loc>[^<]*sitemap-vulnerabilities-1.xml<\/loc><lastmod>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z<\/lastmod><\/sitemap>/,
    );
    const again = await get("/sitemap.xml", { "if-none-match": String(response.headers.etag) });
    expect(again.statusCode).toBe(304);
  });

  it("lists the main pages", async () => {
    const response = await get("/sitemap-pages.xml");
    expect(response.statusCode).toBe(200);
    expect(locsOf(response.body)).toEqual(
      expect.arrayContaining([`${SITE}/database`, `${SITE}/database/vdp`, `${SITE}/database/about-data`]),
    );
    expect(response.body).not.toContain("/database/report");
  });

  it("lists every record at its main product's page, with its last change", async () => {
    const response = await get("/sitemap-vulnerabilities-1.xml");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("application/xml; charset=utf-8");
    const { rows } = await harness.database.sql.query<{ path: string }>(
      `select '/database/wordpress/' || p.kind || '/' || p.slug || '/vulnerability/' || v.slug as path
       from vulnerabilities v join products p on p.id = v.product_id order by v.id`,
    );
    expect(locsOf(response.body)).toEqual(rows.map((row) => `${SITE}${row.path}`));
    expect(response.body.match(/<lastmod>/g)).toHaveLength(RECORDS.length);
    expect(response.body.endsWith("</urlset>\n")).toBe(true);
  });

  it("lists products with a record or an active program, never a product only a report named", async () => {
    const locs = locsOf((await get("/sitemap-products-1.xml")).body);
    expect(locs).toContain(`${SITE}/database/wordpress/plugin/custom-facebook-feed/vulnerabilities/vdp`);
    expect(locs).toContain(`${SITE}/database/wordpress/core/wordpress/vulnerabilities/vdp`);
    expect(locs).toContain(`${SITE}/database/wordpress/plugin/${activeSlug}/vulnerabilities/vdp`);
    expect(locs.join()).not.toContain(pendingSlug);
    expect(locs.join()).not.toContain("reported-only");
  });

  it("answers 404 past the last file and for a number that is not one", async () => {
    expect((await get("/sitemap-vulnerabilities-2.xml")).statusCode).toBe(404);
    expect((await get("/sitemap-vulnerabilities-0.xml")).statusCode).toBe(404);
    expect((await get("/sitemap-vulnerabilities-x.xml")).statusCode).toBe(404);
  });

  it("splits at the size it is given: every record once, in files of at most that many URLs", async () => {
    const service = createWellKnownService({
      database: harness.database,
      site: { name: "Pressguard", url: SITE, indexable: true, trailingSlash: false },
      securityContacts: [],
      dataVersion: () => "split",
      sitemapSize: 2,
    });
    const index = await service.getSitemapIndex();
    expect(locsOf(index).filter((loc) => loc?.includes("vulnerabilities"))).toEqual([
      `${SITE}/sitemap-vulnerabilities-1.xml`,
      `${SITE}/sitemap-vulnerabilities-2.xml`,
      `${SITE}/sitemap-vulnerabilities-3.xml`,
    ]);
    const files = await Promise.all([1, 2, 3].map((number) => service.getSitemap("vulnerabilities", number)));
    const perFile = files.map((file) => locsOf(file.toString()));
    expect(perFile.map((locs) => locs.length)).toEqual([2, 2, 1]);
    const all = perFile.flat();
    expect(new Set(all).size).toBe(RECORDS.length);
    expect(all).toEqual(locsOf((await get("/sitemap-vulnerabilities-1.xml")).body));
    await expect(service.getSitemap("vulnerabilities", 4)).rejects.toMatchObject({ code: "not_found" });
  });

  it("writes a file once for the requests that ask for it while it is being written", async () => {
    const service = createWellKnownService({
      database: harness.database,
      site: { name: "Pressguard", url: SITE, indexable: true, trailingSlash: false },
      securityContacts: [],
      dataVersion: () => "together",
    });
    const [first, second] = await Promise.all([
      service.getSitemap("vulnerabilities", 1),
      service.getSitemap("vulnerabilities", 1),
    ]);
    expect(second).toBe(first);
    expect(await service.getSitemap("vulnerabilities", 1)).not.toBe(first);
  });

  it("encodes a slug with & in the path and escapes the URL for XML, with the site's trailing-slash rule", async () => {
    await harness.database.sql.query(
      `update products set slug = 'a&b''s', is_active = true where slug = $1`,
      [pendingSlug],
    );
    try {
      const service = createWellKnownService({
        database: harness.database,
        site: { name: "P", url: SITE, indexable: true, trailingSlash: true },
        securityContacts: [],
        dataVersion: () => "escaping",
      });
      const products = (await service.getSitemap("products", 1)).toString();
      expect(products).toContain(
        `<loc>${SITE}/database/wordpress/plugin/a%26b&apos;s/vulnerabilities/vdp/</loc>`,
      );
      expect(products).not.toMatch(/&(?!amp;|apos;|quot;|lt;|gt;)/);
      expect(service.getPagesSitemap()).toContain(`<loc>${SITE}/database/</loc>`);
    } finally {
      await harness.database.sql.query(
        "update products set slug = $1, is_active = false where slug = 'a&b''s'",
        [pendingSlug],
      );
    }
  });
});
