import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { startInstance, startNginx } from "../multi/instances.ts";
import { freePort, listOption, numberOption, temporaryDirectory, textOption } from "./support.ts";

/**
 * Lighthouse (mobile emulation and throttling, its defaults) on issue 35's form pages, served by the
 * production server as `npm start` starts it on a fresh data directory (the embedded PostgreSQL, the
 * bundled data), reached two ways in one run:
 *
 * - **direct**: plain HTTP/1.1 on the server's own port, as on one's own machine;
 * - **TLS proxy**: Debian's nginx terminating TLS with HTTP/2 in front of it, as the README's
 *   production checklist has a public instance (a self-signed certificate made for the run).
 *
 * The signed-in pages are measured signed in: a vendor registered through the API, its session cookie
 * given to Lighthouse as a header. After one uncounted run per way, each page is run `--runs` times per
 * way; the table shows the median run by performance score, with every run's score in brackets.
 *
 *   npm run build
 *   node --import tsx bench/lighthouse.ts [--runs 3] [--pages /vdp/login,/register] [--ways direct,proxy]
 *     [--reports <a directory to keep Lighthouse's JSON reports in>]
 *
 * Needs Chromium (`CHROME_PATH`, else /usr/bin/chromium), nginx (/usr/sbin/nginx), openssl, and the
 * registry once for `npx lighthouse@13.5.0` (`--lighthouse` names another version).
 */
const LIGHTHOUSE = textOption("lighthouse") ?? "lighthouse@13.5.0";
const runs = numberOption("runs", 3);
const ways = listOption("ways") ?? ["direct", "proxy"];
const SIGNED_IN = new Set(["/vdp/programs/all", "/watchlists"]);
const pages = listOption("pages") ?? [
  "/database/report",
  "/vdp/login",
  "/researchers/login",
  "/register",
  "/vdp/programs/all",
  "/watchlists",
];
const chrome = process.env.CHROME_PATH ?? "/usr/bin/chromium";
/** Where Lighthouse's JSON reports go (kept); by default the run's temporary directory (removed). */
const reportsOption = textOption("reports");

interface Run {
  scores: { performance: number; accessibility: number; "best-practices": number; seo: number };
  metrics: Record<string, string>;
  protocols: string[];
  finalUrl: string;
}

const METRICS = {
  FCP: "first-contentful-paint",
  LCP: "largest-contentful-paint",
  TBT: "total-blocking-time",
  CLS: "cumulative-layout-shift",
} as const;

function lighthouse(url: string, headers: Record<string, string>, output: string): Run {
  const result = spawnSync(
    "npx",
    [
      "-y",
      LIGHTHOUSE,
      url,
      "--chrome-flags=--headless=new --no-sandbox --ignore-certificate-errors",
      "--only-categories=performance,accessibility,best-practices,seo",
      `--extra-headers=${JSON.stringify(headers)}`,
      "--output=json",
      `--output-path=${output}`,
      "--quiet",
    ],
    { env: { ...process.env, CHROME_PATH: chrome }, encoding: "utf8", timeout: 300_000 },
  );
  if (result.status !== 0) throw new Error(`lighthouse ${url}: ${result.stderr || result.error}`);
  const report = JSON.parse(readFileSync(output, "utf8"));
  const categories = report.categories as Record<keyof Run["scores"], { score: number }>;
  const score = (id: keyof Run["scores"]) => Math.round(categories[id].score * 100);
  const scores = {
    performance: score("performance"),
    accessibility: score("accessibility"),
    "best-practices": score("best-practices"),
    seo: score("seo"),
  };
  const metrics = Object.fromEntries(
    Object.entries(METRICS).map(([name, audit]) => [name, report.audits[audit].displayValue as string]),
  );
  const requests = report.audits["network-requests"].details.items as { protocol?: string }[];
  const protocols = [...new Set(requests.map((request) => request.protocol ?? "?"))];
  return { scores, metrics, protocols, finalUrl: report.finalDisplayedUrl };
}

/** A vendor's session cookies: registered, signed in and set up through the API (cookie mode). */
async function vendorCookies(origin: string): Promise<string> {
  const jar = new Map<string, string>();
  const call = async (method: string, path: string, body?: unknown) => {
    const xsrf = jar.get("XSRF-TOKEN");
    const response = await fetch(`${origin}${path}`, {
      method,
      headers: {
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; "),
        ...(xsrf && { "x-xsrf-token": decodeURIComponent(xsrf) }),
        ...(body !== undefined && { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const pair = cookie.split(";")[0] ?? "";
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    if (response.status >= 400)
      throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  };
  const email = `lighthouse-${Date.now()}@example.com`;
  const password = "correct horse battery";
  await call("GET", "/api/csrf-cookie");
  await call("POST", "/api/register", { name: "Lighthouse vendor", email, password, role: "vendor" });
  await call("POST", "/api/login", { email, password });
  await call("PUT", "/api/vendor/account", {
    vendor_name: "Lighthouse Vendor",
    contact_email: email,
    contact_person: "Lighthouse",
    timezone: "UTC",
  });
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

const dir = temporaryDirectory("pressguard-lighthouse-");
if (reportsOption) mkdirSync(reportsOption, { recursive: true });
const server = await startInstance(
  "server",
  { EMBEDDED_DB_DIR: join(dir, "postgres"), NODE_ENV: "production" },
  dir,
);
const certificate = join(dir, "proxy.crt");
const key = join(dir, "proxy.key");
const made = spawnSync(
  "openssl",
  ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"].concat([
    "-addext",
    "subjectAltName=IP:127.0.0.1",
    "-keyout",
    key,
    "-out",
    certificate,
  ]),
  { encoding: "utf8" },
);
if (made.status !== 0) throw new Error(`openssl: ${made.stderr}`);
const proxy = await startNginx([server], dir, await freePort(), { tls: { certificate, key } });
try {
  const cookie = await vendorCookies(server.origin);
  const origins: Record<string, string> = { direct: server.origin, proxy: proxy.origin };
  // A first run per way, not counted: right after its first start the server still builds its export
  // files and warms its caches, which a running instance has long done.
  for (const way of ways) lighthouse(`${origins[way]}${pages[0]}`, {}, join(dir, `warm-up-${way}.json`));
  const rows: string[] = [];
  for (const page of pages) {
    const cells: string[] = [];
    let last: Run | undefined;
    for (const way of ways) {
      const results: Run[] = [];
      for (let run = 0; run < runs; run++) {
        const headers: Record<string, string> = SIGNED_IN.has(page) ? { cookie } : {};
        results.push(
          lighthouse(
            `${origins[way]}${page}`,
            headers,
            join(reportsOption ?? dir, `${page.slice(1).replaceAll("/", "_")}-${way}-${run}.json`),
          ),
        );
      }
      const ordered = [...results].sort((a, b) => a.scores.performance - b.scores.performance);
      const median = ordered[Math.floor(ordered.length / 2)];
      if (!median) throw new Error("--runs must be at least 1");
      last = median;
      cells.push(
        `${median.scores.performance} (${results.map((result) => result.scores.performance).join(", ")})`,
        `${median.metrics.FCP} / ${median.metrics.LCP}`,
        median.protocols.join(" "),
      );
      console.info(`${page} ${way}: ${cells.slice(-3).join(" | ")}`);
    }
    if (!last) continue;
    const redirected =
      new URL(last.finalUrl).pathname !== page ? ` → ${new URL(last.finalUrl).pathname}` : "";
    rows.push(
      `| \`${page}\`${redirected} | ${cells.join(" | ")} | ${last.scores.accessibility} | ${last.scores["best-practices"]} | ${last.scores.seo} | ${last.metrics.TBT} | ${last.metrics.CLS} |`,
    );
  }
  const wayHeadings = ways.flatMap((way) => [
    `${way}: performance (runs)`,
    `${way}: FCP / LCP`,
    `${way}: protocol`,
  ]);
  console.info(`\n${LIGHTHOUSE}, ${runs} run(s) per page and way, ${new Date().toISOString()}\n`);
  console.info(`| page | ${wayHeadings.join(" | ")} | accessibility | best practices | SEO | TBT | CLS |`);
  console.info(`| --- | ${wayHeadings.map(() => "---:").join(" | ")} | ---: | ---: | ---: | ---: | ---: |`);
  for (const row of rows) console.info(row);
} finally {
  await proxy.stop();
  await server.stop();
}
