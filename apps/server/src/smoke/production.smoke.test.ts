import { readFileSync } from "node:fs";
import { join } from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import { osvIdOf } from "@pressguard/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROUTES } from "../../../../e2e/route-table.ts";
import routeTable from "../../../web/app/routes.ts";
import { redactUrl } from "../http/log-redaction.ts";
import { apiRequestsOf, type OpenApiDocument } from "./api-requests.ts";
import { INTENDED_REDOCLY_FINDINGS, INTENDED_SPECTRAL_RULES, lintOpenApi } from "./openapi-lint.ts";
import { routePatternsOf, uncoveredPatterns } from "./route-coverage.ts";
import { type ProductionServer, REPOSITORY_ROOT, startProductionServer } from "./server-process.ts";

/**
 * The production smoke suite (QUALITY.md): the real process as `npm start` starts it, after the
 * production build, on a fresh data directory with the bundled data imported. Every page of the route
 * table and every operation of the API answers without a 5xx; the OpenAPI document is valid and lints
 * clean; the README's claims hold. Run by `npm run test:smoke` (vitest.smoke.config.ts) after the build.
 */

const UUID = "4d4b1c0e-7d1a-4c8b-9a35-2f1e0c3b5a77";
/** Routes e2e/route-table.ts leaves to their own journeys; here they only must not fail. */
const MORE_PAGES = [
  "/",
  "/iframe/vendor",
  `/vdp/invitations/${UUID}`,
  `/forwarding/confirm/${UUID}`,
  "/vdp/account/invoices/INV-2026-000001",
  "/staff/vendors",
  "/staff/data-sources",
  `/database/researchers/${UUID}`,
  "/no-such-page",
];

const BROWSER =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

describe("the production process started by npm start", () => {
  let server: ProductionServer;
  let csrfCookie = "";

  async function request(path: string, init: RequestInit = {}): Promise<Answer> {
    // A browser's user agent: crawlers get error pages as plain text (entry.server.tsx), and Node's is one.
    const headers = { "user-agent": BROWSER, ...(init.headers as Record<string, string> | undefined) };
    const response = await fetch(`${server.origin}${path}`, { redirect: "manual", ...init, headers });
    return {
      status: response.status,
      contentType: response.headers.get("content-type") ?? "",
      body: await response.text(),
    };
  }

  /**
   * The paths of the requests the server logged since `mark`, once `last` is among them (the log
   * reaches us through npm's pipe, apart from the answers).
   */
  async function requestsLoggedSince(mark: number, last: string | undefined): Promise<string[]> {
    const logged = () =>
      [...server.outputSince(mark).matchAll(/"url":"([^"]+)"[^\n]*"msg":"incoming request"/g)].map(
        (match) => match[1],
      );
    const lastLogged = last && redactUrl(last);
    for (let waited = 0; waited < 10_000 && !logged().includes(lastLogged); waited += 50)
      await new Promise((done) => setTimeout(done, 50));
    return logged() as string[];
  }

  async function getJson<T>(path: string): Promise<T> {
    const answer = await request(path);
    expect(answer.status, `GET ${path}`).toBe(200);
    return JSON.parse(answer.body) as T;
  }

  beforeAll(async () => {
    server = await startProductionServer();
    // The anonymous CSRF cookie lets the unsafe requests reach their validation (spec §7).
    const response = await fetch(`${server.origin}/api/csrf-cookie`);
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith("XSRF-TOKEN="));
    csrfCookie = cookie?.split(";")[0]?.slice("XSRF-TOKEN=".length) ?? "";
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("drains and ends when only npm is sent SIGTERM, as `docker stop` or a supervisor sends it", async () => {
    const own = await startProductionServer({ SEED: "off" });
    try {
      process.kill(own.pid, "SIGTERM");
      // npm's shell used to die and leave the server running, holding its port and data directory.
      await expect.poll(own.running, { timeout: 15_000, interval: 100 }).toBe(false);
      expect(own.output()).toContain("shutting down: draining requests");
    } finally {
      await own.stop();
    }
  }, 60_000);

  // Issue 38: registration said "Check your e-mail", and a bare start kept mail where no one could read it.
  // The start-up banner's line naming the mailbox: startup-banner.test.ts.
  it("lets a newcomer read the mail of a bare start at /dev/mail", async () => {
    const mailbox = await request("/api/dev/mail");
    expect(mailbox.status).toBe(200);
    expect(JSON.parse(mailbox.body)).toHaveProperty("data");
    const page = await request("/dev/mail");
    expect(page.status).toBe(200);
  });

  it("serves on the configured port, as the README says of npm start", async () => {
    expect(server.announcedAddress).toBe(`http://127.0.0.1:${server.port}`);
    expect((await request("/healthz")).status).toBe(200);
  });

  it("has a concrete path for every route of the route table", () => {
    const paths = [...ROUTES.map((route) => route.path), ...MORE_PAGES];
    expect(uncoveredPatterns(routePatternsOf(routeTable), paths)).toEqual([]);
  });

  it("answers every page of the route table without a server error", async () => {
    const failures: string[] = [];
    for (const path of [...ROUTES.map((route) => route.path), ...MORE_PAGES]) {
      const answer = await request(path);
      if (answer.status >= 500) failures.push(`${path} → ${answer.status}`);
    }
    expect(failures).toEqual([]);
  });

  it("renders a public page in one pass: its loaders read in-process, never over the server's own API", async () => {
    const { data } = await getJson<{ data: { slug: string; product: { kind: string; slug: string } }[] }>(
      "/api/v1/vulnerabilities?q=xss&per_page=3",
    );
    const record = data[2];
    if (!record) throw new Error("the bundled data has no three xss records");
    const product = `/database/wordpress/${record.product.kind}/${record.product.slug}`;
    const pages = [
      `${product}/vulnerability/${record.slug}`,
      `${product}/vulnerabilities/vdp`,
      `${product}/security-contributors/vdp`,
      `/database?q=${encodeURIComponent(record.product.slug)}+csrf`,
      "/database/leaderboard",
      "/database/statistics/wordpress",
    ];
    const before = server.mark();
    for (const path of pages) expect((await request(path)).status, path).toBe(200);
    expect(await requestsLoggedSince(before, pages.at(-1))).toEqual(pages);
  });

  it("answers a malformed path with the web application's page, and the API with its JSON error", async () => {
    const page = await request("/database/wordpress/plugin/%ff/vulnerabilities/vdp");
    expect(page.status).toBe(404);
    expect(page.contentType).toContain("text/html");
    expect(page.body).toContain("Page not found");
    const api = await request("/api/v1/products/wordpress/plugin/%ff");
    expect(api.status).toBe(404);
    expect(JSON.parse(api.body)).toMatchObject({ status: "error" });
  });

  it("shows an anonymous visitor's 404 under /vdp/ with the public header and its Login, not the vendor menu", async () => {
    const page = await request("/vdp/programs/not-a-number");
    expect(page.status).toBe(404);
    expect(page.body).toContain("Page not found");
    expect(page.body).toContain('href="/vdp/login"');
    expect(page.body).not.toContain('aria-label="Vendor"');
  });

  describe("signed in as a vendor", () => {
    let cookie = "";
    beforeAll(async () => {
      const csrf = {
        "content-type": "application/json",
        "x-xsrf-token": csrfCookie,
        cookie: `XSRF-TOKEN=${csrfCookie}`,
      };
      const credentials = { email: `smoke-${Date.now()}@example.test`, password: "smoke test password" };
      const registered = await fetch(`${server.origin}/api/register`, {
        method: "POST",
        headers: csrf,
        body: JSON.stringify({ name: "Smoke Vendor", role: "vendor", ...credentials }),
      });
      // Registration signs nobody in (decision 020): the vendor signs in next.
      expect(registered.status, await registered.clone().text()).toBe(202);
      const response = await fetch(`${server.origin}/api/login`, {
        method: "POST",
        headers: csrf,
        body: JSON.stringify(credentials),
      });
      expect(response.status, await response.clone().text()).toBe(200);
      const session = response.headers.getSetCookie().map((line) => line.split(";")[0]);
      cookie = [`XSRF-TOKEN=${csrfCookie}`, ...session].join("; ");
      // A new vendor sets the account up first: the vendor area holds an incomplete one there (issue 19).
      const setUp = await fetch(`${server.origin}/api/vendor/account`, {
        method: "PUT",
        headers: { ...csrf, cookie },
        body: JSON.stringify({
          vendor_name: "Smoke Vendor Ltd",
          contact_email: credentials.email,
          contact_person: "Smoke Contact",
          timezone: "UTC",
        }),
      });
      expect(setUp.status, await setUp.clone().text()).toBe(200);
    });

    it("shows 'Page not found' (404) for a digits-only program id that is not the vendor's", async () => {
      for (const path of ["/vdp/programs/1", "/vdp/programs/999999999", "/vdp/programs/1/edit"]) {
        const page = await request(path, { headers: { cookie } });
        expect(page.status, path).toBe(404);
        expect(page.body, path).toContain("Page not found");
      }
    });

    it("answers every page of the route table without a server error, each in one pass", async () => {
      const failures: string[] = [];
      const pages = [...ROUTES.map((route) => route.path), ...MORE_PAGES];
      const before = server.mark();
      for (const path of pages) {
        const answer = await request(path, { headers: { cookie } });
        if (answer.status >= 500) failures.push(`${path} → ${answer.status}`);
      }
      expect(failures).toEqual([]);
      // Signed in too, no loader calls the server's own API (decision 038): one logged request a page.
      // (The log keeps no secret of a URL: an invitation's token is redacted.)
      expect(await requestsLoggedSince(before, pages.at(-1))).toEqual(pages.map(redactUrl));
    });
  });

  it("serves /api/openapi.json, linked from the README and the /database/api page, valid OpenAPI", async () => {
    const answer = await request("/api/openapi.json");
    expect(answer.status, answer.body.slice(0, 300)).toBe(200);
    await SwaggerParser.validate(JSON.parse(answer.body));
    expect(readFileSync(join(REPOSITORY_ROOT, "README.md"), "utf8")).toContain("/api/openapi.json");
    expect((await request("/database/api")).body).toContain('href="/api/openapi.json"');
  });

  it("serves security.txt, robots.txt and the sitemaps, and pages announce their feeds and structured data", async () => {
    const securityTxt = await request("/.well-known/security.txt");
    expect(securityTxt.status).toBe(200);
    expect(securityTxt.contentType).toBe("text/plain; charset=utf-8");
    expect(securityTxt.body).toMatch(/^Contact: http:\/\/localhost:\d+\/database\/report$/m);
    expect(securityTxt.body).toMatch(/^Expires: \d{4}-\d\d-\d\dT00:00:00\.000Z$/m);
    expect((await request("/security.txt")).status).toBe(301);
    const robots = await request("/robots.txt");
    expect(robots.body).toMatch(/^Sitemap: http:\/\/localhost:\d+\/sitemap\.xml$/m);
    const index = await request("/sitemap.xml");
    expect(index.contentType).toBe("application/xml; charset=utf-8");
    expect(index.body).toContain("/sitemap-vulnerabilities-1.xml</loc>");
    const records = await request("/sitemap-vulnerabilities-1.xml");
    const first = /<loc>http:\/\/localhost:\d+(\/database\/[^<]+\/vulnerability\/[^<]+)<\/loc>/.exec(
      records.body,
    )?.[1];
    expect(first, "a record in the first sitemap file").toBeDefined();

    // The layout's links carry the page's nonce before their other attributes.
    const home = await request("/database");
    expect(home.body).toMatch(
      /<link [^>]*rel="alternate" type="application\/atom\+xml" title="New WordPress vulnerabilities" href="\/database\/feed"\/>/,
    );
    const page = await request(first ?? "");
    expect(page.status).toBe(200);
    expect(page.body).toMatch(
      /<link rel="alternate" type="application\/atom\+xml" title="[^"]+" href="\/database\/wordpress\/[a-z]+\/[^"]+\/feed"\/>/,
    );
    const jsonLd = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(page.body)?.[1] ?? "";
    expect(JSON.parse(jsonLd)).toMatchObject({ "@context": "https://schema.org", "@type": "TechArticle" });
  });

  it("names the server it runs on in the OpenAPI document when APP_URL is not set", async () => {
    const document = await getJson<{ servers: { url: string }[] }>("/api/openapi.json");
    expect(document.servers).toEqual([{ url: `http://localhost:${server.port}` }]);
  });

  it("serves an OpenAPI document in which Redocly and Spectral find only what is recorded as intended", async () => {
    const findings = await lintOpenApi((await request("/api/openapi.json")).body);
    const redocly = findings.filter((finding) => finding.linter === "redocly");
    const spectral = findings.filter((finding) => finding.linter === "spectral");
    expect(findings.filter((finding) => finding.severity === "error")).toEqual([]);
    // Exactly the recorded ones: a new finding fails, and so does a recorded one that went away.
    expect(redocly.map((finding) => `${finding.rule} at ${finding.at}`).sort()).toEqual(
      Object.keys(INTENDED_REDOCLY_FINDINGS).sort(),
    );
    expect(spectral.filter((finding) => !(finding.rule in INTENDED_SPECTRAL_RULES))).toEqual([]);
  });

  it("answers every API operation without a server error, filled with real ids of the bundled data", async () => {
    const document = await getJson<OpenApiDocument>("/api/openapi.json");
    const vulnerabilities = await getJson<{ data: { id: string; product: { id: number; slug: string } }[] }>(
      "/api/v1/vulnerabilities?per_page=1",
    );
    const vulnerability = vulnerabilities.data[0];
    expect(vulnerability, "the bundled data was imported").toBeDefined();
    const known = {
      platform: "wordpress",
      kind: "plugin",
      slug: vulnerability?.product.slug ?? "",
      product: vulnerability?.product.slug ?? "",
      uuid: UUID,
      token: UUID,
    };
    const requests = apiRequestsOf(document, known).map((item) =>
      // A vulnerability's (its OSV id for OSV) and a product's own ids where the path names them.
      item.operation === "GET /api/v1/vulnerabilities/{id}"
        ? { ...item, url: item.url.replace(/[^/]+$/, vulnerability?.id ?? "") }
        : item.operation === "GET /api/v1/osv/{id}" || item.operation === "GET /api/v1/csaf/{id}"
          ? { ...item, url: item.url.replace(/[^/]+$/, osvIdOf(vulnerability?.id ?? "")) }
          : item.operation.match(/^GET \/api\/products\/\{id\}\/(vulnerabilities|contributors)$/)
            ? {
                ...item,
                url: item.url.replace(/\/products\/[^/]+\//, `/products/${vulnerability?.product.id}/`),
              }
            : item,
    );
    expect(requests.length).toBeGreaterThan(50);
    const failures: string[] = [];
    for (const item of requests) {
      const headers: Record<string, string> = {
        "x-xsrf-token": csrfCookie,
        cookie: `XSRF-TOKEN=${csrfCookie}`,
      };
      if (item.body !== undefined) headers["content-type"] = "application/json";
      const answer = await request(item.url, { method: item.method, headers, body: item.body });
      if (answer.status >= 500) failures.push(`${item.method} ${item.url} → ${answer.status} ${answer.body}`);
    }
    expect(failures).toEqual([]);
  });
});
