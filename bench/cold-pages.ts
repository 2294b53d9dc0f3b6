import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { openDatabase } from "../apps/server/src/db/client.ts";
import { freePort, numberOption } from "./support.ts";

/**
 * First visits to the public database's pages (issue 17: "cold product and vulnerability pages at
 * ≥ 0.25 of a bare React server render of the same HTML, measured in the same run"). Every crawler
 * visit and most human ones are not in the response store: each URL here is asked for once.
 *
 *   npm run build
 *   DATABASE_URL=postgres://… npm run db:seed:scale
 *   DATABASE_URL=postgres://… node --import tsx bench/cold-pages.ts [--duration 10 --connections 10 --rounds 3]
 *
 * Starts the production server (web build included) on that database, and `bench/bare-render.ts`:
 * the same build rendering the same URLs with every API answer already in memory. For each kind of
 * page, the app is measured first on URLs it has never seen, then the bare render on those same URLs;
 * `rounds` times in turn, and the median run of each is reported.
 */
const duration = numberOption("duration", 10);
const connections = numberOption("connections", 10);
const rounds = numberOption("rounds", 3);
const databaseUrl = process.env.DATABASE_URL;
const pgliteDir = process.env.PGLITE_DIR;
if (!databaseUrl && !pgliteDir)
  throw new Error("Set DATABASE_URL or PGLITE_DIR to a database seeded by `npm run db:seed:scale`.");
const root = join(import.meta.dirname, "..");
if (!existsSync(join(root, "build", "server", "index.js")))
  throw new Error("No web build: run `npm run build` first.");

const URLS_PER_KIND = 6_000;

/** Reads the page URLs before the server starts (the embedded database allows one process). */
async function selectPaths(sql: string): Promise<string[]> {
  const database = await openDatabase(
    databaseUrl ? { url: databaseUrl, poolSize: 1 } : { pgliteDir: pgliteDir! },
  );
  try {
    return (await database.sql.query<{ path: string }>(sql)).rows.map((row) => row.path);
  } finally {
    await database.close();
  }
}

const productPaths = await selectPaths(
  `select '/database/wordpress/' || p.kind || '/' || p.slug || '/vulnerabilities/vdp' as path
   from products p where exists (select 1 from affected_ranges ar where ar.product_id = p.id)
   order by md5(p.slug) limit ${URLS_PER_KIND}`,
);
const vulnerabilityPaths = await selectPaths(
  `select '/database/wordpress/' || p.kind || '/' || p.slug || '/vulnerability/' || v.slug as path
   from vulnerabilities v join products p on p.id = v.product_id
   order by md5(v.slug) limit ${URLS_PER_KIND}`,
);
const searchPaths = await selectPaths(
  `select '/database?q=' || replace(split_part(p.name, ' ', 1), '&', '') || '%20' || (array['xss','sql injection','csrf','file upload','missing authorization'])[1 + (abs(hashtext(p.slug)) % 5)] as path
   from products p where exists (select 1 from affected_ranges ar where ar.product_id = p.id) and p.slug not like 'bench-%'
   order by md5(p.slug || 'search') limit ${URLS_PER_KIND}`,
);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

const agent = new Agent({ keepAlive: true, maxSockets: connections });

function get(port: number, path: string): Promise<number> {
  const startedAt = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: "127.0.0.1",
        port,
        method: "GET",
        path: encodeURI(path),
        agent,
        headers: { accept: "text/html" },
      },
      (response) => {
        response.resume();
        response.on("end", () => {
          if (response.statusCode !== 200) reject(new Error(`GET ${path}: ${response.statusCode}`));
          else resolve(performance.now() - startedAt);
        });
      },
    );
    outgoing.on("error", reject);
    outgoing.end();
  });
}

interface Row {
  rps: number;
  p50: number;
  p95: number;
  requests: number;
}

/** `connections` requests in flight for `duration` seconds, each on the next path (at most once each). */
async function measure(port: number, paths: string[], cycle: boolean): Promise<Row> {
  const latencies: number[] = [];
  let counter = 0;
  const startedAt = performance.now();
  const endAt = startedAt + duration * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < endAt && (cycle || counter < paths.length)) {
        latencies.push(await get(port, paths[counter++ % paths.length]!));
      }
    }),
  );
  const seconds = (performance.now() - startedAt) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    rps: Math.round(latencies.length / seconds),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    requests: latencies.length,
  };
}

/** The run with the median throughput (its latencies with it). */
const median = (rows: Row[]) => [...rows].sort((a, b) => a.rps - b.rps)[Math.floor(rows.length / 2)]!;

async function waitFor(port: number, path: string) {
  for (let attempt = 0; ; attempt++) {
    try {
      await get(port, path);
      return;
    } catch (error) {
      if (attempt > 150) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

const appPort = await freePort();
const barePort = await freePort();
const environment = {
  ...process.env,
  LOG_LEVEL: "warn",
  SEED: "off",
  NODE_ENV: "production",
  // Every request comes from 127.0.0.1: the public API's limit (decision 028) counts, never refuses.
  API_RATE_LIMIT_ANONYMOUS: "1000000000",
  // A measurement never reaches the network: the upstream data sources stay off (decision 035).
  KEV_URL: "off",
  EPSS_URL: "off",
  WPORG_API_URL: "off",
};
const children: ChildProcess[] = [
  spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
    cwd: root,
    env: { ...environment, PORT: String(appPort) },
    stdio: ["ignore", "inherit", "inherit"],
  }),
];
try {
  await waitFor(appPort, "/healthz");
  children.push(
    spawn(
      process.execPath,
      ["--import", "tsx", "bench/bare-render.ts", String(barePort), `http://127.0.0.1:${appPort}`],
      { cwd: root, env: environment, stdio: ["ignore", "inherit", "inherit"] },
    ),
  );
  await waitFor(barePort, "/database/about-data");
  // Warm-up of both: connections, the routes' modules, the footer's metrics, JIT. Pages not measured.
  for (const path of ["/database/about-data", "/database/vdp", "/database/leaderboard"]) {
    for (let n = 0; n < 20; n++) {
      await get(appPort, `${path}?warm=${n}`);
      await get(barePort, `${path}?warm=${n}`);
    }
  }
  const bare = await measure(appPort, ["/healthz"], true);
  console.info(
    `\n${connections} clients, ${duration} s per run, median of ${rounds} runs each; every app URL asked for once:\n`,
  );
  console.info("| page | app req/s | app p50 | app p95 | bare render req/s | ratio |");
  console.info("| --- | ---: | ---: | ---: | ---: | ---: |");
  for (const [name, paths] of [
    ["product page (vulnerabilities tab)", productPaths],
    ["vulnerability page", vulnerabilityPaths],
    ["`/database?q=<product> <type>`", searchPaths],
  ] as const) {
    // The machine's speed drifts: the app and the bare render take turns, `rounds` times, on fresh URLs.
    const apps: Row[] = [];
    const renders: Row[] = [];
    let used = 0;
    for (let round = 0; round < rounds; round++) {
      const unseen = paths.slice(used);
      const app = await measure(appPort, unseen, false);
      const seen = unseen.slice(0, app.requests);
      used += app.requests;
      // The bare render keeps each page's API answers: one pass to fill its memory, then measured.
      for (let start = 0; start < seen.length; start += connections) {
        await Promise.all(seen.slice(start, start + connections).map((path) => get(barePort, path)));
      }
      apps.push(app);
      renders.push(await measure(barePort, seen, true));
    }
    const app = median(apps);
    const render = median(renders);
    console.info(
      `| ${name} | ${app.rps} | ${app.p50.toFixed(1)} ms | ${app.p95.toFixed(1)} ms | ${render.rps} | ${(app.rps / render.rps).toFixed(2)} |`,
    );
    if (used >= paths.length)
      console.info(`|   (all ${paths.length} URLs used: raise URLS_PER_KIND) | | | | | |`);
  }
  console.info(
    `| \`GET /healthz\` (a bare route, repeated) | ${bare.rps} | ${bare.p50.toFixed(1)} ms | ${bare.p95.toFixed(1)} ms | | |`,
  );
} finally {
  agent.destroy();
  for (const child of children) child.kill("SIGTERM");
}
