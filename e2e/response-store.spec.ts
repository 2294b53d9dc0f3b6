import { expect, test } from "@playwright/test";

/**
 * Issue 38's blocker: one HEAD of a public page that was not in the response store yet stored the
 * bodiless answer, and every later GET of that URL got 200 with 0 bytes. A request must never change
 * what another visitor gets: each probe below (HEAD, a Range, conditional requests, another
 * Accept-Encoding, a crawler) is sent first to a URL no one asked for yet, then a plain GET must get
 * the same full answer as a GET of a twin URL that no probe touched.
 */

const PAGES = [
  "/database/about-data",
  "/database",
  "/database/wordpress/plugin/contact-form-7/vulnerability/contact-form-7-5-9-4-unauthenticated-open-redirect-953be831",
  "/database/wordpress/plugin/contact-form-7/vulnerabilities/vdp",
];
const API = ["/api/v1/vulnerabilities", "/api/v1/statistics/counts", "/api/v1/vulnerabilities/CVE-2024-4704"];

let sequence = 0;
/** A URL of `path` that no one has asked for in this run (the store keys answers by the whole URL). */
const fresh = (path: string) => `${path}${path.includes("?") ? "&" : "?"}probe=${Date.now()}-${sequence++}`;

const PROBES: Record<string, { method?: "HEAD"; headers?: Record<string, string> }> = {
  HEAD: { method: "HEAD" },
  "HEAD as curl -I": { method: "HEAD", headers: { "user-agent": "curl/8.5.0", accept: "*/*" } },
  Range: { headers: { range: "bytes=0-99" } },
  "If-None-Match": { headers: { "if-none-match": '"not-the-etag"' } },
  "If-Modified-Since": { headers: { "if-modified-since": new Date().toUTCString() } },
  "Accept-Encoding identity": { headers: { "accept-encoding": "identity" } },
  "Accept-Encoding gzip": { headers: { "accept-encoding": "gzip" } },
  crawler: { headers: { "user-agent": "Googlebot/2.1 (+http://www.google.com/bot.html)" } },
};

/** The plain answer a visitor gets: the body as bytes after decoding, the status and the type. */
async function visit(request: import("@playwright/test").APIRequestContext, url: string) {
  const response = await request.get(url, { headers: { "accept-encoding": "br" } });
  const body = await response.body();
  return { status: response.status(), type: response.headers()["content-type"], length: body.length };
}

for (const path of [...PAGES, ...API]) {
  for (const [name, probe] of Object.entries(PROBES)) {
    test(`${name} of ${path} leaves the next visitor's answer whole`, async ({ request }) => {
      const probed = fresh(path);
      const answer = await request.fetch(probed, {
        method: probe.method ?? "GET",
        headers: probe.headers ?? {},
      });
      expect(answer.status()).toBe(200);
      const after = await visit(request, probed);
      const untouched = await visit(request, fresh(path));
      expect(after.status).toBe(200);
      expect(after.length).toBeGreaterThan(100);
      expect(after.type).toBe(untouched.type);
      // The twin URL's answer differs only by the probe parameter echoed in canonical links.
      expect(Math.abs(after.length - untouched.length)).toBeLessThan(200);
    });
  }
}

test("a HEAD answers with the headers of the GET and no body", async ({ request }) => {
  for (const path of [...PAGES, ...API]) {
    const url = fresh(path);
    const head = await request.head(url, { headers: { "accept-encoding": "identity" } });
    expect(head.status(), path).toBe(200);
    expect((await head.body()).length, path).toBe(0);
    const get = await request.get(url, { headers: { "accept-encoding": "identity" } });
    const length = (await get.body()).length;
    expect(Number(head.headers()["content-length"]), path).toBe(length);
    expect(head.headers().etag, path).toBe(get.headers().etag);
  }
});
