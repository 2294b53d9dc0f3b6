import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { Agent } from "node:http";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import {
  type Answer,
  freePort,
  listOption,
  numberOption,
  removeTemporaryDirectory,
  send,
  temporaryDirectory,
  waitForOk,
} from "./support.ts";

/**
 * A page from memory while one client loads the server (issue 37): on the embedded PostgreSQL (the
 * default) and on the in-process PGlite (`PGLITE_DIR`), in one run. For each engine it starts the
 * production server as `npm start` does on a new data directory (the first start imports the bundled
 * data; its time is reported), then keeps `--clients` requests in flight on a page the response store
 * holds (`/database`) and reports its requests per second:
 *
 * - **quiet**: nothing else;
 * - **500-item checks within a key's limit**: one more client sends `POST /api/v1/check` with 500
 *   plugins at version 1.0 as often as an API key may (3,000 a minute, a 500-item check counting 11:
 *   one every 220 ms), each batch of plugins the server has not been asked for yet (its range cache
 *   misses until every bundled plugin has been asked for once);
 * - **500-item checks back to back**: the same client with no pause, far above any address's limit
 *   (the bench lifts the public API's limit for it): a stress figure, not a client the API admits;
 * - **first `all.zip`**: one client downloads `/api/v1/osv/all.zip` on a server that has no export set
 *   yet: the request waits while the set is built (in a worker thread on PostgreSQL, on the server's
 *   thread on PGlite; decision 027), then gets the file;
 * - **stored `all.zip`**: once the set is built, one client downloads it back to back.
 *
 * Issue 37's goal: the page keeps at least 50 % of its quiet requests per second under each load.
 *
 *   npm run build
 *   node --import tsx bench/under-load.ts [--engines embedded,pglite --duration 8 --clients 10]
 */
const duration = numberOption("duration", 8);
const clients = numberOption("clients", 10);
const engines = listOption("engines") ?? ["embedded", "pglite"];
const root = join(import.meta.dirname, "..");
const PAGE = "/database";
const CHECK_ITEMS = 500;
/** An API key's budget (API_RATE_LIMIT_KEY, a minute) over a 500-item check's cost (1 + 500 / 50). */
const KEY_CHECK_INTERVAL_MS = 60_000 / (3000 / (1 + CHECK_ITEMS / 50));
const agent = new Agent({ keepAlive: true, maxSockets: clients + 2 });

/** The page as a browser asks for it; a check with its JSON body. */
const ask = (port: number, method: string, path: string, body?: string): Promise<Answer> =>
  send(agent, port, method, path, body === undefined ? { headers: { accept: "text/html" } } : { body });

/** The bundled plugins' slugs, in the file's order. */
function bundledPluginSlugs(): string[] {
  const file = join(root, "data", "seed", "wordpress-vulns", "plugins.jsonl.gz");
  return gunzipSync(readFileSync(file))
    .toString("utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { slug: string }).slug);
}

interface Window {
  rps: number;
  p50: number;
  p95: number;
  /** The slowest answer: how long the page stood still. */
  max: number;
}

/** `clients` requests in flight on the page for `duration` s. */
async function measurePage(port: number): Promise<Window> {
  const latencies: number[] = [];
  const startedAt = performance.now();
  const endAt = startedAt + duration * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < endAt) {
        const answer = await ask(port, "GET", PAGE);
        if (answer.status !== 200) throw new Error(`GET ${PAGE}: ${answer.status}`);
        latencies.push(answer.ms);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)] ?? 0;
  return {
    rps: latencies.length / ((performance.now() - startedAt) / 1000),
    p50: at(0.5),
    p95: at(0.95),
    max: latencies.at(-1) ?? 0,
  };
}

/**
 * Runs `load` over and over (each run awaited, and started at least `intervalMs` after the one before)
 * until `stop` resolves; answers what it did.
 */
async function loop(load: () => Promise<Answer>, stop: Promise<unknown>, intervalMs = 0) {
  let stopped = false;
  void stop.then(() => {
    stopped = true;
  });
  const done = { count: 0, bytes: 0, ms: 0 };
  while (!stopped) {
    const startedAt = performance.now();
    const answer = await load();
    if (answer.status !== 200) throw new Error(`load answered ${answer.status}`);
    done.count += 1;
    done.bytes += answer.bytes;
    done.ms += answer.ms;
    const rest = intervalMs - (performance.now() - startedAt);
    if (rest > 0 && !stopped) await new Promise((resolve) => setTimeout(resolve, rest));
  }
  return done;
}

async function stopServer(server: ChildProcess) {
  if (server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.once("exit", resolve));
  server.kill("SIGTERM");
  await exited;
}

const slugs = bundledPluginSlugs();
let nextSlug = 0;
/** A body of 500 plugins the server has not been asked for yet (wrapping around at the end). */
function nextCheckBody(): string {
  const items = Array.from({ length: CHECK_ITEMS }, () => ({
    kind: "plugin",
    slug: slugs[nextSlug++ % slugs.length],
    version: "1.0",
  }));
  return JSON.stringify({ items });
}

const results: string[] = [];
const row = (engine: string, scenario: string, page: Window, quiet: Window, load: string) =>
  results.push(
    `| ${engine} | ${scenario} | ${page.rps.toFixed(0)} | ${((100 * page.rps) / quiet.rps).toFixed(0)} % | ` +
      `${page.p50.toFixed(1)} / ${page.p95.toFixed(1)} / ${page.max.toFixed(0)} ms | ${load} |`,
  );

for (const engine of engines) {
  if (engine !== "embedded" && engine !== "pglite") throw new Error(`unknown engine ${engine}`);
  const directory = temporaryDirectory(`pressguard-under-load-${engine}-`);
  const port = await freePort();
  const startedAt = performance.now();
  const server = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      HOST: "127.0.0.1",
      PORT: String(port),
      ...(engine === "embedded"
        ? { EMBEDDED_DB_DIR: join(directory, "postgres") }
        : { PGLITE_DIR: join(directory, "pglite") }),
      ATTACHMENTS_DIR: join(directory, "attachments"),
      EXPORTS_DIR: join(directory, "exports"),
      // The check client sends back to back, above one address's limit (see above).
      API_RATE_LIMIT_ANONYMOUS: "1000000000",
      // A measurement never reaches the network: the upstream data sources stay off (decision 035).
      KEV_URL: "off",
      EPSS_URL: "off",
      WPORG_API_URL: "off",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  try {
    await waitForOk(agent, port, "/healthz", { exited: () => server.exitCode !== null, timeoutMs: 900_000 });
    const firstStart = (performance.now() - startedAt) / 1000;
    // Warm-up: the page into the response store, connections, JIT.
    for (let n = 0; n < 200; n++) await ask(port, "GET", PAGE);
    await ask(
      port,
      "POST",
      "/api/v1/check",
      JSON.stringify({ items: [{ kind: "plugin", slug: "akismet", version: "1.0" }] }),
    );

    const quiet = await measurePage(port);
    row(engine, "quiet", quiet, quiet, "");

    // 500-item checks at one API key's pace, then back to back.
    for (const [load, intervalMs] of [
      ["500-item checks within a key's limit", KEY_CHECK_INTERVAL_MS],
      ["500-item checks back to back", 0],
    ] as const) {
      const pageDone = measurePage(port);
      const checks = await loop(
        () => ask(port, "POST", "/api/v1/check", nextCheckBody()),
        pageDone,
        intervalMs,
      );
      row(
        engine,
        load,
        await pageDone,
        quiet,
        `${checks.count} checks, ${(checks.ms / Math.max(1, checks.count)).toFixed(0)} ms each`,
      );
    }

    // The first download: it waits while the export set is built, then gets the file.
    let pageDone = measurePage(port);
    const firstZip = ask(port, "GET", "/api/v1/osv/all.zip");
    const during = await pageDone;
    const first = await firstZip;
    if (first.status !== 200) throw new Error(`all.zip: ${first.status}`);
    row(
      engine,
      "first `all.zip` (built meanwhile)",
      during,
      quiet,
      `${(first.bytes / 1e6).toFixed(0)} MB in ${(first.ms / 1000).toFixed(1)} s`,
    );
    pageDone = measurePage(port);
    const zips = await loop(() => ask(port, "GET", "/api/v1/osv/all.zip"), pageDone);
    row(
      engine,
      "stored `all.zip`, back to back",
      await pageDone,
      quiet,
      `${zips.count} downloads, ${(zips.bytes / 1e6 / (zips.ms / 1000)).toFixed(0)} MB/s`,
    );
    results.push(`| ${engine} | first start to \`/healthz\` 200 | | | | ${firstStart.toFixed(1)} s |`);
  } finally {
    await stopServer(server);
    removeTemporaryDirectory(directory);
  }
}

console.info(`\n${clients} clients on ${PAGE} (from the response store), ${duration} s per window.\n`);
console.info("| engine | load | page req/s | of quiet | page p50 / p95 / max | the load |");
console.info("| --- | --- | ---: | ---: | ---: | --- |");
for (const line of results) console.info(line);
