// Over 400 lines on purpose: one script read top to bottom in the order it runs (seed, start the app
// and the ceiling, sign up, measure, write the table); its steps share the ports and the database.
import { type ChildProcess, fork, spawn, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Challenge, solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import autocannon from "autocannon";
import { openDatabase } from "../apps/server/src/db/client.ts";
import { seedDatabase } from "../apps/server/src/db/seed.ts";
import { scaleDatabase } from "./scale.ts";
import {
  cpuMicrosecondsOf,
  freePort,
  listOption,
  numberOption,
  temporaryDirectory,
  textOption,
} from "./support.ts";

/**
 * Load benchmarks (QUALITY.md): requests per second of real endpoints as ratios against a bare
 * Fastify route serving the same bytes, measured in the same run on the same machine.
 * `npm run bench [-- --duration 10 --runs 3 --connections 50 --only login,user]`
 * (`--only`: comma-separated parts of scenario names, case-insensitive; `--cpu-prof <dir>`: the
 * server writes a V8 CPU profile of its whole run there, for Chrome DevTools or speedscope).
 */
const duration = numberOption("duration", 10);
const runs = numberOption("runs", 3);
const connections = numberOption("connections", 50);
/** Reports per run of the report submission scenario: each needs its own solved captcha. */
const reportAmount = numberOption("report-amount", 150);
const only = listOption("only");
const cpuProfileDir = textOption("cpu-prof");
const APP_PORT = await freePort();
const CEILING_PORT = await freePort();

/** The bench account, created through the API once the server is up (see `signUpBenchAccount`). */
const account = {
  email: "bench@example.test",
  password: "bench password 1",
  /** A personal access token (token mode). */
  token: "",
  /** A session cookie value (cookie mode). */
  session: "",
  /** The readable CSRF cookie value, sent back as the X-XSRF-TOKEN header (cookie mode). */
  csrf: "",
};

interface Scenario {
  name: string;
  path: string;
  method?: "GET" | "POST";
  /** Read when the request is built, after the bench account exists. */
  headers?: () => Record<string, string>;
  body?: () => string;
  /**
   * A different body per request (single-use captcha answers): the run sends `amount` requests
   * instead of running for `duration`, and its rate is requests / elapsed time. The ceiling answers the
   * same bodies for `duration`.
   */
  bodies?: { next: () => string; amount: number };
}

const json = { "content-type": "application/json" };
const allScenarios: Scenario[] = [
  { name: "GET /api/public/footer/metrics", path: "/api/public/footer/metrics" },
  { name: "GET /database (SSR page)", path: "/database" },
  // A real seed record (CVE-2024-4704): its JSON and its server-rendered page (issue 5 targets 0.5).
  {
    name: "GET /api/v1/vulnerabilities/{id}",
    path: "/api/v1/vulnerabilities/953be831-d688-4ae1-b8c1-d863eded945b",
  },
  {
    name: "GET vulnerability page (SSR)",
    path: "/database/wordpress/plugin/contact-form-7/vulnerability/contact-form-7-5-9-4-unauthenticated-open-redirect-953be831",
  },
  // Sign-in (issue 4): every login verifies an argon2id hash (19 MiB, 2 passes) and writes a session
  // or token and two rate-limit counters, so its ratio measures the hash more than the server.
  {
    name: "POST /api/login (token mode, argon2id)",
    method: "POST",
    path: "/api/login",
    headers: () => json,
    body: () => JSON.stringify({ email: account.email, password: account.password, token: true }),
  },
  {
    name: "POST /api/login (cookie mode, argon2id)",
    method: "POST",
    path: "/api/login",
    headers: () => ({ ...json, cookie: `XSRF-TOKEN=${account.csrf}`, "x-xsrf-token": account.csrf }),
    body: () => JSON.stringify({ email: account.email, password: account.password }),
  },
  {
    name: "GET /api/user (session cookie)",
    path: "/api/user",
    headers: () => ({ cookie: `pressguard_session=${account.session}` }),
  },
  {
    name: "GET /api/user (Bearer token)",
    path: "/api/user",
    headers: () => ({ authorization: `Bearer ${account.token}` }),
  },
  // Vendor programs (issue 6): the bench account's organisation holds BENCH_PROGRAMS active programs.
  // Report submission (issue 7, decision 008), signed out: each request carries a fresh e-mail and a
  // real ALTCHA answer solved before the run (a verified answer is spent, so none can be replayed).
  {
    name: "POST /api/reports (signed out, ALTCHA)",
    method: "POST",
    path: "/api/reports",
    headers: () => ({ ...json, cookie: `XSRF-TOKEN=${account.csrf}`, "x-xsrf-token": account.csrf }),
    bodies: { next: () => nextReportBody(), amount: reportAmount },
  },
  {
    name: "GET /api/products?filter=all-active (1,000 programs)",
    path: "/api/products?filter=all-active",
    headers: () => ({ authorization: `Bearer ${account.token}` }),
  },
];
const BENCH_PROGRAMS = 1_000;

/** Solved captcha payloads (base64 JSON `{ challenge, solution }`, as the widget sends them), used once each. */
const solvedCaptchas: string[] = [];
let reportCounter = 0;
const REPORT_TITLE = "Bench report";
function nextReportBody(): string {
  reportCounter += 1;
  // Out of answers: a reused one is refused (422) and the run fails as non-2xx, never silently.
  const captcha = solvedCaptchas.pop() ?? "exhausted";
  return JSON.stringify({
    kind: "plugin",
    product_slug: "contact-form-7",
    product_name: "Contact Form 7",
    affected_version_prefix: "<=",
    affected_version: "5.9.5",
    vulnerability_type: 2,
    owasp_category: 43,
    required_privilege: 2,
    title: `${REPORT_TITLE} ${reportCounter}: stored XSS in the form name`,
    description: "The form name is printed on the admin list screen without escaping.",
    steps_to_reproduce: "1. Log in as a contributor. 2. Name a form with a script tag. 3. Open the list.",
    proof_of_concept: "<script>alert(document.domain)</script> as the form name.",
    email: `bench-reporter-${reportCounter}-${Date.now()}@example.test`,
    captcha,
  });
}

/** Fetches `count` challenges from the server and solves them as the widget does, a few at a time. */
async function solveCaptchas(count: number) {
  const started = Date.now();
  const base = `http://127.0.0.1:${APP_PORT}/api`;
  let left = count;
  const worker = async () => {
    while (left > 0) {
      left -= 1;
      const challenge = (await (await fetch(`${base}/captcha/challenge`)).json()) as Challenge;
      const solution = await solveChallenge({ challenge, deriveKey });
      if (!solution) throw new Error("an ALTCHA challenge could not be solved");
      solvedCaptchas.push(Buffer.from(JSON.stringify({ challenge, solution })).toString("base64"));
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  console.info(`Solved ${count} captcha challenges in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
const scenarios = allScenarios.filter(
  ({ name }) => !only || only.some((part) => name.toLowerCase().includes(part)),
);
if (scenarios.length === 0) throw new Error(`--only ${only?.join(",")} matches no scenario`);

const root = join(import.meta.dirname, "..");
spawnSync("node", ["scripts/ensure-build.mjs"], { cwd: root, stdio: "inherit" });

// Registered before the temporary directories' removal, so the servers die before their files go.
const children: ChildProcess[] = [];
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});
const dataDir = join(temporaryDirectory("pressguard-bench-"), "pglite");
console.info("Preparing the benchmark database (real data + synthetic rows to scale)…");
const database = await openDatabase({ pgliteDir: dataDir });
await database.migrate();
await seedDatabase(database);
const scale = await scaleDatabase(database);
await database.close();
console.info(`Database: ${scale.products} products, ${scale.vulnerabilities} vulnerabilities`);

async function waitFor(url: string) {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not come up`);
}

const profileArgs = cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfileDir}`] : [];
const app = spawn(process.execPath, [...profileArgs, "--import", "tsx", "apps/server/src/main.ts"], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(APP_PORT),
    PGLITE_DIR: dataDir,
    LOG_LEVEL: "warn",
    SEED: "off",
    // Every request comes from 127.0.0.1: without this the login scenarios would measure 429s
    // after 30 attempts. The rate-limit counters are still written on every attempt.
    AUTH_RATE_LIMIT_FACTOR: "100000",
    // The same for the public API's limit (decision 028): it counts every request, refuses none.
    API_RATE_LIMIT_ANONYMOUS: "1000000000",
    // The programs scenario confirms the bench account's address from the mailbox.
    DEV_MAILBOX: "on",
    // A measurement never reaches the network: the upstream data sources stay off (decision 035).
    KEV_URL: "off",
    EPSS_URL: "off",
    WPORG_API_URL: "off",
  },
  stdio: "inherit",
});
children.push(app);
await waitFor(`http://127.0.0.1:${APP_PORT}/healthz`);

/** `name=value` of a Set-Cookie header of the response, or throws. */
function cookieOf(response: Response, name: string): string {
  for (const header of response.headers.getSetCookie()) {
    const [pair = ""] = header.split(";");
    if (pair.startsWith(`${name}=`)) return decodeURIComponent(pair.slice(name.length + 1));
  }
  throw new Error(`${response.url} set no ${name} cookie`);
}

/** Registers the bench account (token mode) and opens a cookie-mode session for it. */
async function signUpBenchAccount() {
  const base = `http://127.0.0.1:${APP_PORT}/api`;
  const register = await fetch(`${base}/register`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({
      name: "Bench",
      email: account.email,
      password: account.password,
      role: "vendor",
      // Token mode: no CSRF cookie needed (registration itself signs nobody in and issues no token).
      token: true,
    }),
  });
  // Registration signs nobody in (decision 020): the token comes from a token-mode sign-in.
  if (register.status !== 202)
    throw new Error(`register answered ${register.status}: ${await register.text()}`);
  const tokenLogin = await fetch(`${base}/login`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ email: account.email, password: account.password, token: true }),
  });
  if (tokenLogin.status !== 200)
    throw new Error(`token login answered ${tokenLogin.status}: ${await tokenLogin.text()}`);
  account.token = ((await tokenLogin.json()) as { token: string }).token;
  account.csrf = cookieOf(await fetch(`${base}/csrf-cookie`), "XSRF-TOKEN");
  const login = await fetch(`${base}/login`, {
    method: "POST",
    headers: { ...json, cookie: `XSRF-TOKEN=${account.csrf}`, "x-xsrf-token": account.csrf },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  if (login.status !== 200) throw new Error(`login answered ${login.status}: ${await login.text()}`);
  account.session = cookieOf(login, "pressguard_session");
}
await signUpBenchAccount();

/** Confirms the bench account's address (activation needs it), then creates and activates its programs. */
async function giveBenchVendorPrograms() {
  const base = `http://127.0.0.1:${APP_PORT}/api`;
  const bearer = { ...json, authorization: `Bearer ${account.token}` };
  const mailbox = (await (await fetch(`${base}/dev/mail`)).json()) as {
    data: { to: string; text: string }[];
  };
  const link = mailbox.data
    .find((mail) => mail.to === account.email)
    ?.text.match(/https?:\/\/\S+\/api\/email\/verify\/\S+/)?.[0];
  if (!link) throw new Error("no verification mail for the bench account");
  await fetch(link.replace(/^https?:\/\/[^/]+/, `http://127.0.0.1:${APP_PORT}`), { redirect: "manual" });
  for (let index = 0; index < BENCH_PROGRAMS; index++) {
    const created = await fetch(`${base}/products`, {
      method: "POST",
      headers: bearer,
      body: JSON.stringify({
        kind: "plugin",
        name: `Bench program ${index}`,
        product_url: `https://bench.example/p/${index}`,
        slug: `bench-program-${index}`,
        vendor_website_url: "https://bench.example",
      }),
    });
    if (created.status !== 201) throw new Error(`create answered ${created.status}: ${await created.text()}`);
    const { id } = (await created.json()) as { id: number };
    const activated = await fetch(`${base}/products/${id}/activate-product`, {
      method: "POST",
      headers: bearer,
      body: JSON.stringify({ is_lobby_product: false }),
    });
    if (activated.status !== 200)
      throw new Error(`activate answered ${activated.status}: ${await activated.text()}`);
  }
}
if (scenarios.some(({ path }) => path.startsWith("/api/products"))) await giveBenchVendorPrograms();
// One answer per report request of every run, one for the fixture, and a connection's worth of spare.
const reportRequests = scenarios.reduce((sum, { bodies }) => sum + (bodies ? bodies.amount * runs : 0), 0);
if (reportRequests > 0) await solveCaptchas(reportRequests + 1 + connections);

/** 2xx answers to report submissions, checked against the reports stored once the server stops. */
let acceptedReports = 0;

/** Headers Node writes itself on every answer (or that describe this fetch's transfer only). */
const TRANSFER_HEADERS = new Set(["date", "connection", "keep-alive", "content-length", "transfer-encoding"]);

/** What the app answered each scenario (by index): the ceiling answers the same bytes. */
const fixtures: {
  method: string;
  path: string;
  type: string;
  headers: Record<string, string | string[]>;
  body: string;
}[] = [];
for (const scenario of scenarios) {
  const method = scenario.method ?? "GET";
  const response = await fetch(`http://127.0.0.1:${APP_PORT}${scenario.path}`, {
    method,
    // Uncompressed, as autocannon asks (it sends no Accept-Encoding).
    headers: { "accept-encoding": "identity", ...scenario.headers?.() },
    ...(scenario.body && { body: scenario.body() }),
    ...(scenario.bodies && { body: scenario.bodies.next() }),
  });
  if (scenario.bodies && response.ok) acceptedReports += 1;
  if (!response.ok) throw new Error(`${method} ${scenario.path} answered ${response.status}`);
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of response.headers) {
    if (!TRANSFER_HEADERS.has(name) && name !== "content-type" && name !== "set-cookie")
      headers[name] = value;
  }
  if (response.headers.getSetCookie().length > 0) headers["set-cookie"] = response.headers.getSetCookie();
  fixtures.push({
    method,
    path: scenario.path,
    type: response.headers.get("content-type") ?? "text/plain",
    headers,
    body: await response.text(),
  });
}
const fixturesFile = join(dataDir, "..", "fixtures.json");
writeFileSync(fixturesFile, JSON.stringify(fixtures));
const ceiling = fork(join(import.meta.dirname, "ceiling.ts"), [String(CEILING_PORT), fixturesFile], {
  execArgv: ["--import", "tsx"],
});
children.push(ceiling);
await new Promise((resolve) => ceiling.once("message", resolve));

interface Sample {
  rps: number;
  /** The server's own CPU time per answer, in microseconds (user + system, all its threads). */
  cpuMicroseconds: number;
  /** Latency in milliseconds. */
  p50: number;
  p97_5: number;
}

/** One run of `scenario` against one target, for `duration` (or the scenario's amount of requests). */
async function runOnce(
  url: string,
  scenario: Scenario,
  headers: Record<string, string>,
  target: "app" | "ceiling",
  runDuration = duration,
): Promise<Sample> {
  // The ceiling spends nothing: it answers the same-sized bodies for `duration`.
  const ceilingBody = scenario.bodies && target === "ceiling" ? scenario.bodies.next() : undefined;
  const perRequest = scenario.bodies && target === "app" ? scenario.bodies : undefined;
  const pid = (target === "app" ? app.pid : ceiling.pid) ?? 0;
  const cpuBefore = cpuMicrosecondsOf(pid);
  const result = await autocannon({
    url,
    connections,
    method: scenario.method ?? "GET",
    headers: { ...scenario.headers?.(), ...headers },
    ...(scenario.body && { body: scenario.body() }),
    ...(ceilingBody && { body: ceilingBody }),
    ...(perRequest
      ? {
          amount: perRequest.amount,
          requests: [{ setupRequest: (request: object) => ({ ...request, body: perRequest.next() }) }],
        }
      : { duration: runDuration }),
  });
  if (perRequest) acceptedReports += result["2xx"];
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  // A fixed amount of requests: the rate over the whole run (per-second samples would be too few).
  const rps =
    scenario.bodies && result.duration > 0
      ? result.requests.total / result.duration
      : result.requests.average;
  const cpuMicroseconds = (cpuMicrosecondsOf(pid) - cpuBefore) / Math.max(1, result.requests.total);
  return { rps, cpuMicroseconds, p50: result.latency.p50, p97_5: result.latency.p97_5 };
}

const median = (samples: Sample[]) => samples.sort((a, b) => a.rps - b.rps)[Math.floor(samples.length / 2)]!;

/**
 * The median of `runs` runs of the ceiling and of the app, taken in turns (ceiling, app, ceiling…)
 * after one second of each to warm up: the machine's slow and fast phases (a shared VM's neighbours)
 * then fall on both, instead of on all the ceiling's runs or all the app's.
 */
async function measurePair(scenario: Scenario, index: number): Promise<{ ceiling: Sample; app: Sample }> {
  const ceilingRun = (seconds?: number) =>
    runOnce(
      `http://127.0.0.1:${CEILING_PORT}${scenario.path}`,
      scenario,
      { "x-bench-fixture": String(index) },
      "ceiling",
      seconds,
    );
  const appRun = () => runOnce(`http://127.0.0.1:${APP_PORT}${scenario.path}`, scenario, {}, "app");
  // A scenario with its own bodies (each request a new report) has none to spare for a warm-up.
  if (!scenario.bodies) {
    await ceilingRun(1);
    await runOnce(`http://127.0.0.1:${APP_PORT}${scenario.path}`, scenario, {}, "app", 1);
  }
  const ceilingSamples: Sample[] = [];
  const appSamples: Sample[] = [];
  for (let run = 0; run < runs; run++) {
    ceilingSamples.push(await ceilingRun());
    appSamples.push(await appRun());
  }
  const medianCpu = (samples: Sample[]) =>
    samples.map((sample) => sample.cpuMicroseconds).sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
  return {
    ceiling: { ...median(ceilingSamples), cpuMicroseconds: medianCpu(ceilingSamples) },
    app: { ...median(appSamples), cpuMicroseconds: medianCpu(appSamples) },
  };
}

const results = [];
for (const [index, scenario] of scenarios.entries()) {
  const { ceiling, app: measured } = await measurePair(scenario, index);
  const bytes = Buffer.byteLength(fixtures[index]!.body);
  results.push({
    scenario: scenario.name,
    bytes,
    appRps: measured.rps,
    ceilingRps: ceiling.rps,
    ratio: measured.rps / ceiling.rps,
    appCpuMicroseconds: measured.cpuMicroseconds,
    ceilingCpuMicroseconds: ceiling.cpuMicroseconds,
    /** The ceiling's CPU per answer over the app's: 1 when the app spends no more than a bare route. */
    cpuRatio: ceiling.cpuMicroseconds / measured.cpuMicroseconds,
    appLatencyMs: { p50: measured.p50, p97_5: measured.p97_5 },
    ceilingLatencyMs: { p50: ceiling.p50, p97_5: ceiling.p97_5 },
  });
}

console.info(
  `\n${connections} connections, ${duration} s × ${runs} runs (median), ${scale.vulnerabilities} vulnerabilities:\n`,
);
console.info(
  "| scenario | bytes | app req/s | ceiling req/s | ratio | app CPU/answer | ceiling CPU/answer | CPU ratio | app p50 | app p97.5 | ceiling p97.5 |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
);
for (const r of results) {
  console.info(
    `| ${r.scenario} | ${r.bytes} | ${Math.round(r.appRps)} | ${Math.round(r.ceilingRps)} | ${r.ratio.toFixed(3)} | ${Math.round(r.appCpuMicroseconds)} µs | ${Math.round(r.ceilingCpuMicroseconds)} µs | ${r.cpuRatio.toFixed(3)} | ${r.appLatencyMs.p50} ms | ${r.appLatencyMs.p97_5} ms | ${r.ceilingLatencyMs.p97_5} ms |`,
  );
}

/**
 * No accepted report missing: stop the server (it drains requests in flight), open its database and
 * count the bench's reports against the 2xx answers.
 */
let reportCheck: { accepted: number; stored: number } | undefined;
if (reportRequests > 0 || cpuProfileDir) {
  // A profiled server writes its profile as it exits: it must stop by itself, not be killed.
  const exited = new Promise((resolve) => app.once("exit", resolve));
  app.kill("SIGTERM");
  await exited;
}
if (reportRequests > 0) {
  const stoppedDatabase = await openDatabase({ pgliteDir: dataDir });
  const { rows } = await stoppedDatabase.sql.query<{ stored: number }>(
    "select count(*)::int as stored from reports where title like $1",
    [`${REPORT_TITLE} %`],
  );
  await stoppedDatabase.close();
  reportCheck = { accepted: acceptedReports, stored: rows[0]?.stored ?? 0 };
  console.info(`\nReports: ${reportCheck.accepted} accepted (2xx), ${reportCheck.stored} stored.`);
  if (reportCheck.stored !== reportCheck.accepted) {
    console.error("Accepted and stored reports differ: a report answered 2xx is missing.");
    process.exitCode = 1;
  }
}
mkdirSync(join(import.meta.dirname, "results"), { recursive: true });
writeFileSync(
  join(import.meta.dirname, "results", "latest.json"),
  JSON.stringify(
    {
      date: new Date().toISOString(),
      connections,
      duration,
      runs,
      reportAmount,
      scale,
      results,
      reportCheck,
    },
    null,
    2,
  ),
);
process.exit(process.exitCode ?? 0);
