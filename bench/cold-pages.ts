import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { Agent } from "node:http";
import { join, resolve } from "node:path";
import { type Database, openDatabase } from "../apps/server/src/db/client.ts";
import {
  cpuMicrosecondsOf,
  freePort,
  numberOption,
  send,
  temporaryDirectory,
  textOption,
  waitForOk,
} from "./support.ts";

/**
 * First visits to the public database's pages (issues 17 and 36). Every crawler visit and most human
 * ones are not in the response store: each page URL here is asked for once. For the vulnerability, the
 * product and the search page, at each client count, one run reports:
 *
 * - the **app**: the production server (web build included) on URLs it has never seen: requests per
 *   second, latency, and its **CPU per page**: the server process and, with the embedded PostgreSQL,
 *   the database server's processes too (all of them descendants of the server);
 * - the **API answers** the page shows (its loaders' reads), asked for over HTTP on other unseen
 *   entities: CPU per page's worth of answers, the same processes counted;
 * - the **bare render**: `bench/bare-render.ts`, the same build rendering the same URLs with every API
 *   answer already in memory: React Router's document request and React's render, its CPU per page;
 * - the **plain React render** (`bench/plain-render.ts`): the bare render's HTML of 20 pages turned
 *   into React elements and rendered by `renderToString` alone, in this process: what React costs to
 *   produce the same HTML without the router, the loaders or our components.
 *
 * Issue 36's goal: app CPU per page ≤ API answers + 1.5 × bare render.
 *
 *   npm run build
 *   EMBEDDED_DB_DIR=<a stopped, seeded embedded directory> node --import tsx bench/cold-pages.ts
 *   DATABASE_URL=postgres://… node --import tsx bench/cold-pages.ts   (the database's CPU not counted)
 *   PGLITE_DIR=<a stopped, seeded PGlite directory> node --import tsx bench/cold-pages.ts   (in-process)
 *     [--duration 8 --clients 1,10 --rounds 3 --app-root <another checkout, built>]
 *
 * An embedded or PGlite directory is copied to a temporary one first (the server takes its lock). A
 * seeded one: a first `npm start` with EMBEDDED_DB_DIR (or PGLITE_DIR) set, stopped once ready. PGlite
 * admits one process: its URLs are read before the server starts. `--app-root` measures the server
 * and build of another checkout (a `git worktree` of an earlier commit) with this same bench: the
 * before and after of a change in one session.
 */
const duration = numberOption("duration", 8);
const rounds = numberOption("rounds", 3);
const clientCounts = (textOption("clients") ?? "1,10").split(",").map(Number);
const root = resolve(import.meta.dirname, "..");
const appRoot = resolve(textOption("app-root") ?? root);
if (!existsSync(join(appRoot, "build", "server", "index.js")))
  throw new Error(`No web build in ${appRoot}: run \`npm run build\` there first.`);
const databaseUrl = process.env.DATABASE_URL;
const embeddedTemplate = process.env.EMBEDDED_DB_DIR;
const pgliteTemplate = process.env.PGLITE_DIR;
if (!databaseUrl && !embeddedTemplate && !pgliteTemplate)
  throw new Error("Set EMBEDDED_DB_DIR or PGLITE_DIR (a stopped, seeded directory) or DATABASE_URL.");

const URLS_PER_KIND = 30_000;
const maxClients = Math.max(...clientCounts);
const agent = new Agent({ keepAlive: true, maxSockets: maxClients });

/** One page and the API reads its loaders make (the footer's is cached and left out). */
interface Visit {
  page: string;
  reads: string[];
}

/** A page as a browser asks for it; its time in ms, or an error for any status but 200. */
async function get(port: number, path: string): Promise<number> {
  const answer = await send(agent, port, "GET", encodeURI(path), { headers: { accept: "text/html" } });
  if (answer.status !== 200) throw new Error(`GET ${path}: ${answer.status}`);
  return answer.ms;
}

/** CPU time (µs) of a process and all its descendants, living ones and those already waited for. */
function treeCpuMicroseconds(rootPid: number): number {
  const parents = new Map<number, number>();
  const own = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parents.set(Number(entry), Number(fields[1]));
      // utime + stime + cutime + cstime: the children it reaped (PostgreSQL's ended backends) count too.
      own.set(
        Number(entry),
        [11, 12, 13, 14].reduce((sum, index) => sum + Number(fields[index]), 0),
      );
    } catch {
      // The process ended between the listing and the read.
    }
  }
  let ticks = 0;
  for (const [pid, time] of own) {
    for (
      let current: number | undefined = pid;
      current !== undefined && current > 1;
      current = parents.get(current)
    ) {
      if (current === rootPid) {
        ticks += time;
        break;
      }
    }
  }
  return ticks * 10_000;
}

interface Row {
  rps: number;
  p50: number;
  p95: number;
  requests: number;
  cpuMs: number;
}

/** `clients` visits in flight for `duration` s, each on the next unit (at most once each unless `cycle`). */
async function measure(port: number, units: string[][], clients: number, cpu: () => number, cycle: boolean) {
  const latencies: number[] = [];
  let counter = 0;
  const cpuBefore = cpu();
  const startedAt = performance.now();
  const endAt = startedAt + duration * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < endAt && (cycle || counter < units.length)) {
        const unit = units[counter++ % units.length] ?? [];
        let elapsed = 0;
        for (const path of unit) elapsed += await get(port, path);
        latencies.push(elapsed);
      }
    }),
  );
  const seconds = (performance.now() - startedAt) / 1000;
  const cpuMs = (cpu() - cpuBefore) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.ceil(p * latencies.length) - 1)] ?? 0;
  return {
    rps: latencies.length / seconds,
    p50: at(0.5),
    p95: at(0.95),
    requests: latencies.length,
    cpuMs: cpuMs / Math.max(1, latencies.length),
  } satisfies Row;
}

const PLAIN_RENDER_SAMPLES = 20;
// React's production build for the plain render, as the servers use (it picks its build when loaded).
process.env.NODE_ENV = "production";
const { plainRenderCpuMs, reactTreeOf } = await import("./plain-render.ts");
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** The pages to visit and the API reads of each, from the database the server runs on. */
async function visitsFrom(database: Database) {
  const rowsOf = async (sql: string) =>
    (await database.sql.query<{ a: string; b: string; c?: string }>(sql)).rows;
  const product = (kind: string, slug: string) => `/database/wordpress/${kind}/${slug}`;
  // A checkout from before withdrawn records (`--app-root`, issue 36's baseline) has no such column.
  const { rows: withdrawnColumn } = await database.sql.query(
    `select 1 from information_schema.columns where table_name = 'vulnerabilities' and column_name = 'withdrawn_at'`,
  );
  const withdrawable = withdrawnColumn.length > 0;
  const vulnerabilities: Visit[] = (
    await rowsOf(
      `select p.kind || '/' || p.slug as a, v.slug as b from vulnerabilities v join products p on p.id = v.product_id
       ${withdrawable ? "where v.withdrawn_at is null" : ""} order by md5(v.slug) limit ${URLS_PER_KIND}`,
    )
  ).map(({ a, b }) => ({
    page: `/database/wordpress/${a}/vulnerability/${b}`,
    reads: [`/api/v1/vulnerabilities/${b}`],
  }));
  const products: Visit[] = (
    await rowsOf(
      `select p.kind as a, p.slug as b, p.id::text as c from products p
       where exists (select 1 from affected_ranges ar where ar.product_id = p.id)
       order by md5(p.slug) limit ${URLS_PER_KIND}`,
    )
  ).map(({ a, b, c }) => ({
    page: `${product(a, b)}/vulnerabilities/vdp`,
    reads: [
      `/api/v1/products/wordpress/${a}/${b}`,
      `/api/products/${c}/vulnerabilities?filter[tab]=present&page=1`,
    ],
  }));
  const searches: Visit[] = (
    await rowsOf(
      `select replace(split_part(p.name, ' ', 1), '&', '') as a,
         (array['xss','sql injection','csrf','file upload','missing authorization'])[1 + (abs(hashtext(p.slug)) % 5)] as b
       from products p where exists (select 1 from affected_ranges ar where ar.product_id = p.id)
         and p.slug not like 'bench-%'
       order by md5(p.slug || 'search') limit ${URLS_PER_KIND}`,
    )
  ).map(({ a, b }) => {
    const q = `${a} ${b}`.replaceAll("#", "");
    return { page: `/database?q=${q}`, reads: [`/api/v1/vulnerabilities?page=1&q=${q}&per_page=20`] };
  });
  return { vulnerabilities, products, searches };
}

/** PGlite admits one process: its URLs are read first. The others' once the server answers. */
async function readVisits() {
  const database = await openDatabase(
    pgliteDir
      ? { pgliteDir }
      : {
          url:
            databaseUrl ??
            `postgres://${process.env.EMBEDDED_DB_USER ?? "pressguard"}@/pressguard?host=${embeddedDir}`,
          poolSize: 1,
        },
  );
  try {
    return await visitsFrom(database);
  } finally {
    await database.close();
  }
}

const appPort = await freePort();
const barePort = await freePort();
/** A copy of a seeded directory in a temporary folder, for the server to lock and change. */
function copyOf(template: string, name: string) {
  if (existsSync(join(template, "postmaster.pid")) || existsSync(`${template}.lock`))
    throw new Error(`${template} is in use: stop its server first`);
  const copy = join(temporaryDirectory("pressguard-cold-pages-"), name);
  cpSync(template, copy, { recursive: true });
  return copy;
}
const embeddedDir = embeddedTemplate && !databaseUrl ? copyOf(embeddedTemplate, "postgres") : undefined;
const pgliteDir =
  pgliteTemplate && !databaseUrl && !embeddedDir ? copyOf(pgliteTemplate, "pglite") : undefined;
const environment = {
  ...process.env,
  LOG_LEVEL: "warn",
  SEED: "off",
  NODE_ENV: "production",
  ...(embeddedDir && { EMBEDDED_DB_DIR: embeddedDir }),
  ...(pgliteDir && { PGLITE_DIR: pgliteDir }),
  // Every request comes from 127.0.0.1: the public API's limit (decision 028) counts, never refuses.
  API_RATE_LIMIT_ANONYMOUS: "1000000000",
  // A measurement never reaches the network: the upstream data sources stay off (decision 035).
  KEV_URL: "off",
  EPSS_URL: "off",
  WPORG_API_URL: "off",
};
let visits = pgliteDir ? await readVisits() : undefined;
const server = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
  cwd: appRoot,
  env: { ...environment, PORT: String(appPort) },
  stdio: ["ignore", "inherit", "inherit"],
});
const children: ChildProcess[] = [server];
try {
  await waitForOk(agent, appPort, "/healthz", { exited: () => server.exitCode !== null });
  visits ??= await readVisits();
  const { vulnerabilities, products, searches } = visits;

  children.push(
    spawn(
      process.execPath,
      ["--import", "tsx", "bench/bare-render.ts", String(barePort), `http://127.0.0.1:${appPort}`],
      { cwd: appRoot, env: environment, stdio: ["ignore", "inherit", "inherit"] },
    ),
  );
  await waitForOk(agent, barePort, "/database/about-data", { exited: () => children[1]!.exitCode !== null });
  const bareProcess = children[1]!;
  // Warm-up of both: connections, the routes' modules, the footer's metrics, JIT. Pages not measured.
  for (const path of ["/database/about-data", "/database/vdp", "/database/leaderboard"]) {
    for (let n = 0; n < 20; n++) {
      await get(appPort, `${path}?warm=${n}`);
      await get(barePort, `${path}?warm=${n}`);
    }
  }
  const appCpu = () => treeCpuMicroseconds(server.pid!);
  const bareCpu = () => cpuMicrosecondsOf(bareProcess.pid!);
  console.info(
    `\nApp: ${appRoot}; ${embeddedDir ? "embedded PostgreSQL (its CPU counted)" : pgliteDir ? "PGlite (in the server's process)" : "DATABASE_URL (its CPU not counted)"}; ` +
      `${duration} s per run, median of ${rounds} runs; every URL asked for once.\n`,
  );
  const plainRenders: string[] = [];
  console.info(
    "| page | clients | app req/s | app p50 | app CPU/page | API answers CPU | bare render CPU | goal: API + 1.5 × bare | app / goal |",
  );
  console.info("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const [name, visits] of [
    ["vulnerability page", vulnerabilities],
    ["product page (vulnerabilities tab)", products],
    ["search `/database?q=<product> <type>`", searches],
  ] as const) {
    // The app's pages and the API's answers take distinct entities, both taken once, in turn.
    let used = 0;
    const take = () => visits.slice(used);
    for (const clients of clientCounts) {
      const apps: Row[] = [];
      const apis: Row[] = [];
      const bares: Row[] = [];
      for (let round = 0; round < rounds; round++) {
        const app = await measure(
          appPort,
          take().map((visit) => [visit.page]),
          clients,
          appCpu,
          false,
        );
        const seen = visits.slice(used, used + app.requests);
        used += app.requests;
        // As many pages' worth of answers as the app rendered pages (the API answers faster: a duration
        // would use up the URLs).
        const api = await measure(
          appPort,
          take()
            .slice(0, app.requests)
            .map((visit) => visit.reads),
          clients,
          appCpu,
          false,
        );
        used += api.requests;
        // The bare render keeps each page's API answers: one pass to fill its memory, then measured.
        for (let start = 0; start < seen.length; start += clients) {
          await Promise.all(seen.slice(start, start + clients).map((visit) => get(barePort, visit.page)));
        }
        bares.push(
          await measure(
            barePort,
            seen.map((visit) => [visit.page]),
            clients,
            bareCpu,
            true,
          ),
        );
        apps.push(app);
        apis.push(api);
      }
      const appCpuMs = median(apps.map((row) => row.cpuMs));
      const apiCpuMs = median(apis.map((row) => row.cpuMs));
      const bareCpuMs = median(bares.map((row) => row.cpuMs));
      const goal = apiCpuMs + 1.5 * bareCpuMs;
      console.info(
        `| ${name} | ${clients} | ${median(apps.map((row) => row.rps)).toFixed(0)} | ${median(apps.map((row) => row.p50)).toFixed(1)} ms | ` +
          `${appCpuMs.toFixed(2)} ms | ${apiCpuMs.toFixed(2)} ms | ${bareCpuMs.toFixed(2)} ms | ${goal.toFixed(2)} ms | ${(appCpuMs / goal).toFixed(2)} |`,
      );
      if (used >= visits.length)
        console.info(`|   (all ${visits.length} URLs used: raise URLS_PER_KIND) | | | | | | | | |`);
    }
    // The yardstick of issue 36: React alone producing the same HTML as the bare render, for pages
    // the bare render has in memory (the first ones measured).
    const samples: { cpuMs: number; bytes: number }[] = [];
    for (const visit of visits.slice(0, PLAIN_RENDER_SAMPLES)) {
      const html = await send(agent, barePort, "GET", encodeURI(visit.page), {
        headers: { accept: "text/html" },
        text: true,
      });
      samples.push(plainRenderCpuMs(reactTreeOf(html.text)));
    }
    plainRenders.push(
      `| ${name} | ${median(samples.map((sample) => sample.cpuMs)).toFixed(2)} ms | ${(median(samples.map((sample) => sample.bytes)) / 1024).toFixed(1)} KB |`,
    );
  }
  console.info(
    `\nA plain React render of the same HTML (\`bench/plain-render.ts\`: the bare render's HTML as a tree of elements, \`renderToString\` alone), median of ${PLAIN_RENDER_SAMPLES} pages:\n`,
  );
  console.info("| page | plain React render CPU | HTML |");
  console.info("| --- | ---: | ---: |");
  for (const row of plainRenders) console.info(row);
} finally {
  agent.destroy();
  for (const child of children) child.kill("SIGTERM");
  await new Promise((done) => server.once("exit", done));
}
