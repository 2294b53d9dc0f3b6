// Over 400 lines on purpose, like run.ts: one script read top to bottom in the order it runs (the
// documents, then per database: first start, the sync under search load, the quiet poll, KEV + EPSS).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { Agent } from "node:http";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import type { DataSourceList, DataSourceSyncResult } from "@pressguard/domain";
import { Secret, TOTP } from "otpauth";
import pg from "pg";
import { openDatabase, type SqlRunner } from "../apps/server/src/db/client.ts";
import { openConfiguredDatabase } from "../apps/server/src/db/embedded-database.ts";
import {
  type StandInRequest,
  sha256Of,
  startStandIn,
  writeEpssScores,
  writeKevCatalog,
  writeWordfenceDocument,
} from "./data-sync-feeds.ts";
import { scaleDatabase } from "./scale.ts";
import {
  cpuMicrosecondsOf,
  freePort,
  listOption,
  numberOption,
  removeTemporaryDirectory,
  send,
  temporaryDirectory,
  textOption,
} from "./support.ts";

/**
 * Issue 34's speed targets for the live data sync, measured on the production server as `npm start`
 * runs it. `npm run bench:data-sync [-- --postgres postgres://user:pass@host/postgres]` (or
 * PG_TEST_URL); options: `--engines embedded,pglite,postgres` (default embedded and postgres), `--scenarios wordfence,kev-epss`, `--rate 10`
 * (search requests per second, sent at that pace whatever the answers' speed), `--quiet-seconds 20`,
 * `--cpu-prof <dir>` and `--heap-prof <dir>` (the server of the sync writes a V8 CPU profile or a
 * sampled allocation profile there, for Chrome DevTools or speedscope).
 *
 * 1. A synthetic Wordfence Intelligence v3 document of 42,504 records (every record of the bundled
 *    file as the feed lists it now, plus new ones; bench/data-sync-feeds.ts), served by a loopback
 *    stand-in that streams it with an ETag and Last-Modified and answers 304 to a matching
 *    conditional request.
 * 2. Per database (the embedded PostgreSQL server, `npm start`'s default, or PGlite, each in a new
 *    directory; PostgreSQL in a new database when a URL is given):
 *    - the first start, exactly as `npm start` (the bundled data imported), then a staff account
 *      (`user:create --staff`) and its second factor (staff routes need it);
 *    - the server again with the feed configured; search p95 quiet, then the first sync through the
 *      staff API ("Sync now", in the server process, as the schedule runs it) while the same search
 *      load goes on and the server's RSS is read every 200 ms;
 *    - the server restarted (its background work after the sync done), a second "Sync now": one
 *      conditional request answered 304; the record tables' rows written since before the poll
 *      (their `xmin`) and the data version are compared, and PostgreSQL's `pg_stat_user_tables`;
 *    - KEV + EPSS: the database topped up to 250,000 records with CVEs (bench/scale.ts), a KEV catalog
 *      and an EPSS file about them served by the stand-in, and both sources synced through the staff
 *      API — skipped, with "kev/epss sources not registered", while the server's registry lacks them.
 * 3. The table of figures against their targets; raw figures in bench/results/data-sync.json.
 *
 * The schedule (jobs/data-sync-job.ts) would start the same sync 10 s after the server starts, when
 * the source's last success is older than DATA_SYNC_INTERVAL_SECONDS: before each measured start the
 * bench records the source's last success as now (its `data_sources` row, nothing else), so every run
 * is the bench's own "Sync now". The validators stay empty, so the first sync is a full download.
 */
const TARGETS = {
  // The embedded default is a PostgreSQL server since decision 037: PostgreSQL's target.
  firstSyncSeconds: { embedded: 40, pglite: 60, postgres: 40 },
  searchP95Ratio: 2,
  rssGrowthMb: 150,
  pollSeconds: 2,
  kevEpssSeconds: 30,
};
const FEED_RECORDS = numberOption("records", 42_504);
const KEV_EPSS_RECORDS = 250_000;
const rate = numberOption("rate", 10);
const quietSeconds = numberOption("quiet-seconds", 20);
const cpuProfileDir = textOption("cpu-prof");
const heapProfileDir = textOption("heap-prof");
const postgresUrl = textOption("postgres") ?? process.env.PG_TEST_URL;
type Engine = "embedded" | "pglite" | "postgres";
const engines = (listOption("engines") ?? ["embedded", "postgres"]).filter(
  (engine) => engine === "embedded" || engine === "pglite" || (engine === "postgres" && postgresUrl),
) as Engine[];
const scenarios = listOption("scenarios") ?? ["wordfence", "kev-epss"];
const API_KEY = "wf-bench-key-0123456789abcdef";
const STAFF = { email: "bench-staff@example.test", password: "bench staff password 1" };
const root = join(import.meta.dirname, "..");
const seconds = (since: number) => (performance.now() - since) / 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Cleanup, in this order at exit (also on Ctrl-C and SIGTERM): the servers die, the databases are
// dropped, then support.ts removes the temporary directories (its handlers are installed after these).
const children = new Set<ChildProcess>();
const databasesToDrop = new Set<string>();
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
  for (const name of databasesToDrop) dropDatabaseSync(name);
});
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => {
    for (const child of children) child.kill("SIGKILL");
  });

/** At exit nothing asynchronous runs: a child process drops the database and waits for nothing else. */
function dropDatabaseSync(name: string) {
  spawnSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `import pg from "pg";
       const client = new pg.Client({ connectionString: process.argv[1] });
       await client.connect();
       await client.query("drop database if exists ${name} with (force)");
       await client.end();`,
      postgresUrl!,
    ],
    { cwd: root, stdio: "inherit", timeout: 30_000 },
  );
}

const urlOf = (name: string) => {
  const url = new URL(postgresUrl!);
  url.pathname = `/${name}`;
  return url.toString();
};

// ---------------------------------------------------------------------------------------------------
// HTTP to the server: node:http, without a client timeout (a first sync answers after a minute).

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

async function call(
  port: number,
  method: "GET" | "POST",
  path: string,
  { token, body }: { token?: string; body?: unknown } = {},
): Promise<{ status: number; text: string; ms: number }> {
  const answer = await send(agent, port, method, path, {
    ...(body !== undefined && { body: JSON.stringify(body) }),
    headers: token ? { authorization: `Bearer ${token}` } : {},
    text: true,
  });
  return { status: answer.status, text: answer.text, ms: answer.ms };
}

async function callJson<T>(port: number, method: "GET" | "POST", path: string, options = {}) {
  const answer = await call(port, method, path, options);
  if (answer.status !== 200) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text}`);
  return { body: JSON.parse(answer.text) as T, ms: answer.ms };
}

// ---------------------------------------------------------------------------------------------------
// The server: started as `npm start` starts it after its build check, output to a log file.

interface Server {
  child: ChildProcess;
  pid: number;
  port: number;
  readySeconds: number;
  log: string;
}

function serverEnv(extra: Record<string, string>): Record<string, string> {
  // The operator's settings must not leak in: no database, feed or schedule but the bench's.
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (
      /^(DATABASE_URL|DATABASE_READ_URL|PGLITE_DIR|EMBEDDED_DB_DIR|WORDFENCE_|KEV_URL|EPSS_URL|WPORG_API_URL|DATA_SYNC_)/.test(
        name,
      )
    )
      continue;
    env[name] = value;
  }
  return {
    ...env,
    HOST: "127.0.0.1",
    LOG_LEVEL: "warn",
    // Every request comes from 127.0.0.1: the public API's limit counts, never refuses.
    API_RATE_LIMIT_ANONYMOUS: "1000000000",
    AUTH_RATE_LIMIT_FACTOR: "1000",
    KEV_URL: "off",
    EPSS_URL: "off",
    WPORG_API_URL: "off",
    DATA_SYNC_INTERVAL_SECONDS: "604800",
    ...extra,
  };
}

async function startServer(env: Record<string, string>, log: string, profile = false): Promise<Server> {
  const port = await freePort();
  const fd = openSync(log, "a");
  const startedAt = performance.now();
  const profileArgs = profile
    ? [
        ...(cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfileDir}`] : []),
        ...(heapProfileDir ? ["--heap-prof", `--heap-prof-dir=${heapProfileDir}`] : []),
      ]
    : [];
  const child = spawn(process.execPath, [...profileArgs, "--import", "tsx", "apps/server/src/main.ts"], {
    cwd: root,
    env: { ...env, PORT: String(port) },
    stdio: ["ignore", fd, fd],
  });
  closeSync(fd);
  children.add(child);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(
        `the server exited early (${child.exitCode}):\n${readFileSync(log, "utf8").slice(-4000)}`,
      );
    if (seconds(startedAt) > 900) throw new Error(`the server was not ready after 900 s (log: ${log})`);
    try {
      if ((await call(port, "GET", "/healthz")).status === 200) break;
    } catch {}
    await sleep(100);
  }
  return { child, pid: child.pid!, port, readySeconds: seconds(startedAt), log };
}

async function stopServer(server: Server) {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  server.child.kill("SIGTERM");
  const timer = setTimeout(() => server.child.kill("SIGKILL"), 30_000);
  await exited;
  clearTimeout(timer);
  children.delete(server.child);
}

/**
 * Waits until the server's process has used under 10% of one core for two seconds in a row, and at
 * least `minimum` seconds (the watchlist alert job runs once a minute: the work a sync leaves it
 * shows only then), at most `limit` seconds. Answers how long, and the CPU seconds used meanwhile.
 */
async function waitIdle(
  pid: number,
  limit: number,
  minimum = 0,
): Promise<{ seconds: number; idle: boolean; cpuSeconds: number }> {
  const startedAt = performance.now();
  const first = cpuMicrosecondsOf(pid);
  let quiet = 0;
  let before = first;
  const figures = (idle: boolean) => ({
    seconds: seconds(startedAt),
    idle,
    cpuSeconds: (before - first) / 1e6,
  });
  while (seconds(startedAt) < limit) {
    await sleep(1000);
    const now = cpuMicrosecondsOf(pid);
    quiet = now - before < 100_000 ? quiet + 1 : 0;
    before = now;
    if (quiet >= 2 && seconds(startedAt) >= minimum) return figures(true);
  }
  return figures(false);
}

function rssKilobytesOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+)\s+kB/m);
  return Number(line?.[1] ?? Number.NaN);
}

/**
 * The resident part of the process's WebAssembly memories (PGlite's Postgres runs in one), in kB: V8
 * reserves each memory with a guard region of several GB after it, so it is the read-write mapping
 * that ends where such a region begins. A diagnostic estimate, read from /proc/<pid>/smaps.
 */
function wasmKilobytesOf(pid: number): number {
  const mappings = readFileSync(`/proc/${pid}/smaps`, "utf8")
    .split(/\n(?=[0-9a-f]+-[0-9a-f]+ )/)
    .map((block) => {
      const [range = "", perms] = block.slice(0, block.indexOf("\n")).split(" ");
      const [start = "0", end = "0"] = range.split("-");
      return {
        start,
        end,
        perms,
        size: Number(block.match(/^Size:\s+(\d+)/m)?.[1] ?? 0),
        rss: Number(block.match(/^Rss:\s+(\d+)/m)?.[1] ?? 0),
      };
    });
  const guards = new Set(
    mappings
      .filter((entry) => entry.perms === "---p" && entry.size >= 4 * 1024 * 1024)
      .map((entry) => entry.start),
  );
  return mappings
    .filter((entry) => entry.perms === "rw-p" && guards.has(entry.end))
    .reduce((sum, entry) => sum + entry.rss, 0);
}

/** VmRSS every 200 ms until stopped; the WebAssembly memories' share every second. */
function sampleRss(pid: number) {
  const samples: { at: number; kb: number; wasmKb?: number }[] = [];
  const read = () => {
    try {
      const sample: { at: number; kb: number; wasmKb?: number } = {
        at: performance.now(),
        kb: rssKilobytesOf(pid),
      };
      if (samples.length % 5 === 0) sample.wasmKb = wasmKilobytesOf(pid);
      samples.push(sample);
    } catch {}
  };
  read();
  const timer = setInterval(read, 200);
  return {
    samples,
    stop: () => {
      clearInterval(timer);
      read();
      return samples;
    },
  };
}

/**
 * CPU time used so far by the server process and, when the PostgreSQL server runs on this machine,
 * by each of its processes (the children of the postmaster that serves `url`), in microseconds.
 */
async function cpuMeter(pid: number, target: Target) {
  let postmaster: number | null = null;
  const url = "url" in target ? target.url : null;
  if ("embeddedDir" in target) {
    // The embedded server's postmaster: the first line of its pid file.
    postmaster = Number(readFileSync(join(target.embeddedDir, "postmaster.pid"), "utf8").split("\n")[0]);
  } else if (url) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const backend = (await client.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]!.pid;
    try {
      // Read while the connection lives: its backend process ends with it.
      const stat = readFileSync(`/proc/${backend}/stat`, "utf8");
      postmaster = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    } catch {
      // PostgreSQL on another machine: its CPU is not measured.
    } finally {
      await client.end();
    }
  }
  const read = () => {
    const database = new Map<number, number>();
    if (postmaster !== null)
      for (const entry of readdirSync("/proc")) {
        if (!/^\d+$/.test(entry)) continue;
        try {
          const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
          if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === postmaster)
            database.set(Number(entry), cpuMicrosecondsOf(Number(entry)));
        } catch {}
      }
    return { server: cpuMicrosecondsOf(pid), database };
  };
  const before = read();
  /** Seconds of CPU since the meter started: the server's, and PostgreSQL's (null when not local). */
  return () => {
    const after = read();
    let database = 0;
    for (const [id, micros] of after.database) database += micros - (before.database.get(id) ?? 0);
    return {
      server: (after.server - before.server) / 1e6,
      database: postmaster === null ? null : database / 1e6,
    };
  };
}

// ---------------------------------------------------------------------------------------------------
// Staff: `user:create --staff`, then the second factor staff routes require (PRODUCT.md §7).

function createStaff(env: Record<string, string>) {
  const result = spawnSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "apps/server/src/modules/users/create-user-cli.ts",
      "--staff",
      "--name",
      "Bench staff",
      "--email",
      STAFF.email,
      "--password",
      STAFF.password,
    ],
    { cwd: root, env, encoding: "utf8" },
  );
  if (result.status !== 0) throw new Error(`user:create failed:\n${result.stdout}${result.stderr}`);
}

const STEP_MS = 30_000;
const staff = { token: "", secret: "", lastStep: 0 };

/** A TOTP code of a step not used yet (the server takes each step once, and one step of drift). */
async function nextCode(): Promise<string> {
  for (;;) {
    const current = Math.floor(Date.now() / STEP_MS);
    const step = Math.max(current, staff.lastStep + 1);
    if (step <= current + 1) {
      staff.lastStep = step;
      const totp = new TOTP({
        algorithm: "SHA1",
        digits: 6,
        period: 30,
        secret: Secret.fromBase32(staff.secret),
      });
      return totp.generate({ timestamp: step * STEP_MS + 1_000 });
    }
    await sleep((current + 1) * STEP_MS - Date.now() + 250);
  }
}

async function signInStaff(port: number) {
  if (staff.token && (await call(port, "GET", "/api/user", { token: staff.token })).status === 200) return;
  if (!staff.secret) {
    const first = await callJson<{ token: string }>(port, "POST", "/api/login", {
      body: { ...STAFF, token: true },
    });
    const { body } = await callJson<{ secret: string }>(port, "POST", "/api/user/two-factor", {
      token: first.body.token,
    });
    staff.secret = body.secret;
    await callJson(port, "POST", "/api/user/two-factor/confirm", {
      token: first.body.token,
      body: { code: await nextCode() },
    });
  }
  const login = await callJson<{ token: string }>(port, "POST", "/api/login", {
    body: { ...STAFF, token: true, code: await nextCode() },
  });
  staff.token = login.body.token;
}

const listSources = async (port: number) =>
  (await callJson<DataSourceList>(port, "GET", "/api/staff/data-sources", { token: staff.token })).body.data;

async function syncNow(port: number, source: string) {
  const answer = await call(port, "POST", `/api/staff/data-sources/${source}/sync`, { token: staff.token });
  if (answer.status !== 200)
    throw new Error(`Sync now of ${source} answered ${answer.status}: ${answer.text}`);
  return { result: JSON.parse(answer.text) as DataSourceSyncResult, seconds: answer.ms / 1000 };
}

// ---------------------------------------------------------------------------------------------------
// The search load: a steady pace, each latency counted from the moment its request was due.

const SEARCH_QUERIES: string[] = (
  JSON.parse(readFileSync(join(root, "apps/server/src/modules/search/relevance/queries.json"), "utf8")) as {
    queries: { q: string }[];
  }
).queries.map((entry) => entry.q);

interface LoadFigures {
  /** Each answered request: seconds since the load started when it was due, and its latency (ms). */
  timeline: [number, number][];
  requests: number;
  errors: number;
  non200: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * `rate` searches a second of the relevance set's queries (issue 17), each URL unique so that no
 * answer comes from the response store. Sent open-loop: a slow answer does not hold back the next
 * request, and each latency counts from when its request was due (no coordinated omission).
 */
function startSearchLoad(port: number, tag: string) {
  const latencies: number[] = [];
  const timeline: [number, number][] = [];
  const inFlight = new Set<Promise<void>>();
  let errors = 0;
  let non200 = 0;
  let sent = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const startedAt = performance.now();
  const dueOf = (n: number) => startedAt + (n * 1000) / rate;
  const fire = () => {
    while (!stopped && dueOf(sent) <= performance.now()) {
      const due = dueOf(sent);
      const q = SEARCH_QUERIES[sent % SEARCH_QUERIES.length]!;
      const path = `/api/v1/vulnerabilities?q=${encodeURIComponent(q)}&_=${tag}${sent}`;
      sent++;
      const done: Promise<void> = call(port, "GET", path)
        .then(
          ({ status }) => {
            if (status !== 200) {
              non200++;
              return;
            }
            const latency = performance.now() - due;
            latencies.push(latency);
            timeline.push([Math.round(due - startedAt) / 1000, Math.round(latency * 10) / 10]);
          },
          () => {
            errors++;
          },
        )
        .finally(() => inFlight.delete(done));
      inFlight.add(done);
    }
    if (!stopped) timer = setTimeout(fire, Math.max(0, dueOf(sent) - performance.now()));
  };
  fire();
  return async (): Promise<LoadFigures> => {
    stopped = true;
    clearTimeout(timer);
    await Promise.all(inFlight);
    latencies.sort((a, b) => a - b);
    return {
      timeline: timeline.sort((a, b) => a[0] - b[0]),
      requests: sent,
      errors,
      non200,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      p99: percentile(latencies, 99),
      max: latencies.at(-1) ?? Number.NaN,
    };
  };
}

async function searchFor(port: number, tag: string, duration: number) {
  const stop = startSearchLoad(port, tag);
  await sleep(duration * 1000);
  return stop();
}

// ---------------------------------------------------------------------------------------------------
// What the database holds: opened by the bench while no server runs (PGlite allows one process).

const RECORD_TABLES = ["vulnerabilities", "affected_ranges", "credits", "researchers", "products"];

interface Snapshot {
  /** A transaction id taken now: every later write has a larger one (its rows' xmin). */
  txid: number;
  dataVersion: string;
  records: number;
  wordfence: { etag: string | null; lastModified: string | null; counts: unknown } | null;
  /** PostgreSQL: inserted + updated + deleted rows of the record tables so far (pg_stat_user_tables). */
  statWrites: number | null;
  /** Rows of the record tables written after `since` (their xmin), when asked. */
  writtenSince: Record<string, number> | null;
}

type Target = { pgliteDir: string } | { embeddedDir: string } | { url: string };

/** The database of `target`, opened while no server runs (the embedded one started for the while). */
const openTarget = (target: Target, poolSize?: number) =>
  "url" in target
    ? openDatabase({ url: target.url, ...(poolSize && { poolSize }) })
    : openConfiguredDatabase(target);

async function withDatabase<T>(target: Target, work: (sql: SqlRunner) => Promise<T>): Promise<T> {
  const database = await openTarget(target, 1);
  try {
    return await work(database.sql);
  } finally {
    await database.close();
  }
}

async function snapshot(target: Target, since?: number): Promise<Snapshot> {
  return withDatabase(target, async (sql) => {
    const one = async <Row>(text: string, params: unknown[] = []) =>
      (await sql.query<Row>(text, params)).rows[0]!;
    const writtenSince: Record<string, number> = {};
    if (since !== undefined)
      for (const table of RECORD_TABLES)
        writtenSince[table] = (
          await one<{ count: number }>(
            `select count(*)::int as count from ${table} where xmin::text::bigint > $1`,
            [since],
          )
        ).count;
    const row = await one<{ etag: string | null; last_modified: string | null; last_counts: unknown }>(
      "select etag, last_modified, last_counts from data_sources where source = 'wordfence'",
    );
    const stat = !("pgliteDir" in target)
      ? Number(
          (
            await one<{ writes: string }>(
              `select coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) as writes
                 from pg_stat_user_tables where relname = any($1)`,
              [RECORD_TABLES],
            )
          ).writes,
        )
      : null;
    return {
      txid: Number((await one<{ txid: string }>("select (txid_current() & 4294967295)::text as txid")).txid),
      dataVersion:
        (
          await one<{ version: string | null }>(
            "select coalesce((select value #>> '{}' from app_state where key = 'data_version'), '0') as version",
          )
        ).version ?? "0",
      records: (await one<{ count: number }>("select count(*)::int as count from vulnerabilities")).count,
      wordfence: row ? { etag: row.etag, lastModified: row.last_modified, counts: row.last_counts } : null,
      statWrites: stat,
      writtenSince: since === undefined ? null : writtenSince,
    };
  });
}

/** Records each source's last success as now, so the schedule leaves the runs to the bench. */
async function keepScheduleAway(target: Target, sources: string[]) {
  await withDatabase(target, async (sql) => {
    for (const source of sources)
      await sql.query(
        `insert into data_sources (source, last_success_at) values ($1, now())
         on conflict (source) do update set last_success_at = now()`,
        [source],
      );
  });
}

// ---------------------------------------------------------------------------------------------------
// The run

const WORDFENCE_PATH = "/api/intelligence/v3/vulnerabilities/production";
const KEV_PATH = "/sites/default/files/feeds/known_exploited_vulnerabilities.json";
const EPSS_PATH = "/epss_scores-current.csv.gz";
const resultsDir = join(import.meta.dirname, "results");
mkdirSync(resultsDir, { recursive: true });

/** Table rows: engine, measurement, figure, target, verdict. */
const rows: string[][] = [];
const verdict = (pass: boolean) => (pass ? "pass" : "**FAIL**");
const mb = (kb: number) => kb / 1024;
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** The sources the server's registry knows (the staff API lists every one, configured or not). */
let registered: string[] | null = null;

spawnSync(process.execPath, ["scripts/ensure-build.mjs"], { cwd: root, stdio: "inherit" });
const work = temporaryDirectory("pressguard-bench-data-sync-");
const documentFile = join(work, "wordfence-v3-production.json");
console.info(`Writing a synthetic Wordfence v3 document of ${FEED_RECORDS.toLocaleString("en")} records…`);
const generatedAt = performance.now();
const document = await writeWordfenceDocument(
  documentFile,
  join(root, "data/seed/wordpress-vulns/vulns.jsonl.gz"),
  FEED_RECORDS,
);
console.info(
  `  ${(document.bytes / 1e6).toFixed(1)} MB in ${seconds(generatedAt).toFixed(1)} s: ${document.fromSeed} records of the bundled file, ${document.fresh} new; ${document.withCve} with a CVE, ${document.informational} informational, ${document.multipleSoftware} with several software, ${document.multipleRanges} with several ranges`,
);
const standIn = await startStandIn({
  [WORDFENCE_PATH]: { file: documentFile, contentType: "application/json", bearer: API_KEY },
  [KEV_PATH]: { file: join(work, "kev.json"), contentType: "application/json" },
  [EPSS_PATH]: { file: join(work, "epss_scores.csv.gz"), contentType: "application/x-gzip" },
});

const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  machine: { cores: cpus().length, node: process.version, loadAverageAtStart: loadavg() },
  targets: TARGETS,
  options: { rate, quietSeconds, engines, scenarios },
  document: { ...document, sha256: await sha256Of(documentFile) },
  engines: {} as Record<string, unknown>,
};

async function wordfenceScenario(engine: Engine, target: Target, env: Record<string, string>, log: string) {
  const out: Record<string, unknown> = {};
  await keepScheduleAway(target, ["wordfence"]);
  const feedEnv = { ...env, WORDFENCE_API_KEY: API_KEY, WORDFENCE_FEED_URL: standIn.url(WORDFENCE_PATH) };

  // The sync under search load.
  let server = await startServer(feedEnv, log, true);
  await signInStaff(server.port);
  const sources = await listSources(server.port);
  registered = sources.map((source) => source.source);
  if (!sources.find((source) => source.source === "wordfence")?.configured)
    throw new Error("the wordfence source is not configured on the server");
  out.settledAfterStart = await waitIdle(server.pid, 300);
  const load = rate > 0;
  let quiet: LoadFigures | null = null;
  const rss = sampleRss(server.pid);
  if (load) {
    // Warm: every query of the set twice (code paths, plans, the database's pages), then quiet.
    const warmSeconds = Math.ceil((2 * SEARCH_QUERIES.length) / rate);
    console.info(`[${engine}] search at ${rate}/s: warm-up ${warmSeconds} s, quiet ${quietSeconds} s…`);
    await searchFor(server.port, "warm", warmSeconds);
    quiet = await searchFor(server.port, "quiet", quietSeconds);
  } else {
    await sleep(5000);
  }
  // The last 5 s before the sync: their median is the baseline, their highest value the sawtooth's top
  // (the garbage collector lets the heap grow between collections; the sync's growth shows above it).
  const baselineKb = median(rss.samples.slice(-25).map((sample) => sample.kb));
  const quietPeakKb = Math.max(...rss.samples.slice(-25).map((sample) => sample.kb));
  const baselineWasmKb = rss.samples.findLast((sample) => sample.wasmKb !== undefined)?.wasmKb ?? 0;
  console.info(
    `[${engine}] first sync ("Sync now")${load ? " under the same search load" : ", no search load"}…`,
  );
  const meter = await cpuMeter(server.pid, target);
  const syncStartedAt = performance.now();
  const stopLoad = load ? startSearchLoad(server.port, "sync") : null;
  const sync = await syncNow(server.port, "wordfence");
  const cpu = meter();
  const during = (await stopLoad?.()) ?? null;
  const samples = rss.stop().filter((sample) => sample.at >= syncStartedAt);
  const peakKb = Math.max(...samples.map((sample) => sample.kb));
  const peakWasmKb = Math.max(...samples.map((sample) => sample.wasmKb ?? 0));
  const status = (await listSources(server.port)).find((source) => source.source === "wordfence")!;
  const serverSeconds =
    status.last_attempt_at && status.last_success_at
      ? (Date.parse(status.last_success_at) - Date.parse(status.last_attempt_at)) / 1000
      : null;
  console.info(
    `[${engine}]   ${sync.result.outcome} in ${sync.seconds.toFixed(1)} s: ${JSON.stringify(sync.result.counts)}${sync.result.error ? ` (${sync.result.error})` : ""}`,
  );
  console.info(`[${engine}] the server's work after the sync (at least one watchlist alert run, 65 s)…`);
  const settled = await waitIdle(server.pid, 900, 65);
  await stopServer(server);
  out.firstSync = {
    outcome: sync.result.outcome,
    error: sync.result.error,
    counts: sync.result.counts,
    seconds: sync.seconds,
    serverSeconds,
    cpuSeconds: cpu,
    search: { rate, quiet, during, ratio: quiet && during ? during.p95 / quiet.p95 : null },
    rss: {
      baselineMb: mb(baselineKb),
      quietPeakMb: mb(quietPeakKb),
      peakMb: mb(peakKb),
      growthMb: mb(peakKb - baselineKb),
      atEndMb: mb(samples.at(-1)?.kb ?? Number.NaN),
      wasm: { baselineMb: mb(baselineWasmKb), peakMb: mb(peakWasmKb) },
      /** Every second: seconds since the sync started, RSS and the WebAssembly memories' part (MB). */
      timeline: samples
        .filter((sample) => sample.wasmKb !== undefined)
        .map((sample) => [
          Math.round(sample.at - syncStartedAt) / 1000,
          Math.round(mb(sample.kb)),
          Math.round(mb(sample.wasmKb ?? 0)),
        ]),
    },
    settledAfterSync: settled,
    standIn: standIn.requests.filter((entry) => entry.path === WORDFENCE_PATH).at(-1),
  };
  const synced = sync.result.outcome === "synced";
  const syncTarget = TARGETS.firstSyncSeconds[engine];
  rows.push(
    [
      engine,
      "first sync: wall time (Sync now → answer)",
      `${sync.seconds.toFixed(1)} s`,
      `≤ ${syncTarget} s`,
      verdict(synced && sync.seconds <= syncTarget),
    ],
    [
      engine,
      "  the sync's own claim → success (server)",
      serverSeconds === null ? "–" : `${serverSeconds.toFixed(1)} s`,
      "",
      "",
    ],
    [
      engine,
      `  CPU during it: the server process${cpu.database === null ? "" : " / PostgreSQL"} (searches included)`,
      `${cpu.server.toFixed(1)}${cpu.database === null ? "" : ` / ${cpu.database.toFixed(1)}`} s`,
      "",
      "",
    ],
    [
      engine,
      "  counts: new / changed / unchanged / withdrawn / rejected",
      sync.result.counts
        ? [
            sync.result.counts.new,
            sync.result.counts.changed,
            sync.result.counts.unchanged,
            sync.result.counts.withdrawn,
            sync.result.counts.rejected,
          ].join(" / ")
        : (sync.result.error ?? sync.result.outcome),
      "",
      "",
    ],
  );
  if (quiet && during)
    rows.push(
      [
        engine,
        `search p95 quiet (${quiet.requests} requests at ${rate}/s; p50 ${quiet.p50.toFixed(0)} ms)`,
        `${quiet.p95.toFixed(1)} ms`,
        "",
        "",
      ],
      [
        engine,
        `search p95 during the sync (${during.requests} requests; p50 ${during.p50.toFixed(0)}, p99 ${during.p99.toFixed(0)}, max ${during.max.toFixed(0)} ms)`,
        `${during.p95.toFixed(1)} ms = ${(during.p95 / quiet.p95).toFixed(2)}×`,
        `≤ ${TARGETS.searchP95Ratio}×`,
        verdict(during.p95 <= TARGETS.searchP95Ratio * quiet.p95 && during.errors + during.non200 === 0),
      ],
    );
  else
    rows.push([
      engine,
      "search during the sync",
      "not measured (--rate 0)",
      `≤ ${TARGETS.searchP95Ratio}×`,
      "",
    ]);
  rows.push(
    [
      engine,
      `server RSS growth during the sync (median of the 5 s before ${mb(baselineKb).toFixed(0)} MB, their top ${mb(quietPeakKb).toFixed(0)} MB → peak ${mb(peakKb).toFixed(0)} MB)`,
      `${mb(peakKb - baselineKb).toFixed(0)} MB`,
      `≤ ${TARGETS.rssGrowthMb} MB`,
      verdict(mb(peakKb - baselineKb) <= TARGETS.rssGrowthMb),
    ],
    ...(engine === "pglite"
      ? [
          [
            engine,
            "  of which PGlite's WebAssembly memory (estimate)",
            `${mb(baselineWasmKb).toFixed(0)} → ${mb(peakWasmKb).toFixed(0)} MB`,
            "",
            "",
          ],
        ]
      : []),
    [
      engine,
      "  the server's work after the sync (CPU, at least a minute)",
      `${settled.cpuSeconds.toFixed(1)} s of CPU in ${settled.seconds.toFixed(0)} s${settled.idle ? "" : " (not idle yet)"}`,
      "",
      "",
    ],
  );

  // The next poll, nothing new: on a restarted server, the database read before and after.
  const before = await snapshot(target);
  server = await startServer(feedEnv, log);
  await signInStaff(server.port);
  await waitIdle(server.pid, 300);
  const requestsBefore = standIn.requests.length;
  const poll = await syncNow(server.port, "wordfence");
  const pollRequests: StandInRequest[] = standIn.requests.slice(requestsBefore);
  await stopServer(server);
  const after = await snapshot(target, before.txid);
  const written = Object.values(after.writtenSince ?? {}).reduce((sum, count) => sum + count, 0);
  const statWrites =
    after.statWrites === null || before.statWrites === null ? null : after.statWrites - before.statWrites;
  const conditional304 =
    pollRequests.length === 1 && pollRequests[0]!.status === 304 && pollRequests[0]!.conditional;
  const noWrite =
    written === 0 &&
    after.dataVersion === before.dataVersion &&
    after.records === before.records &&
    (statWrites ?? 0) === 0;
  out.secondPoll = {
    outcome: poll.result.outcome,
    seconds: poll.seconds,
    requests: pollRequests,
    before,
    after,
    rowsWritten: after.writtenSince,
    statWrites,
  };
  rows.push(
    [
      engine,
      `second poll, nothing new: wall time (${poll.result.outcome}; upstream: ${pollRequests.map((entry) => `${entry.status}${entry.conditional ? " conditional" : ""}, ${entry.bytes} bytes`).join("; ")})`,
      `${poll.seconds.toFixed(2)} s`,
      `≤ ${TARGETS.pollSeconds} s`,
      verdict(
        poll.result.outcome === "not_modified" && conditional304 && poll.seconds <= TARGETS.pollSeconds,
      ),
    ],
    [
      engine,
      `second poll: record rows written (xmin)${statWrites === null ? "" : ", pg_stat rows"}, data version ${before.dataVersion} → ${after.dataVersion}`,
      `${written}${statWrites === null ? "" : `, ${statWrites}`}`,
      "0",
      verdict(noWrite),
    ],
  );
  return out;
}

async function kevEpssScenario(engine: Engine, target: Target, env: Record<string, string>, log: string) {
  if (!registered) {
    const server = await startServer(env, log);
    await signInStaff(server.port);
    registered = (await listSources(server.port)).map((source) => source.source);
    await stopServer(server);
  }
  if (!registered.includes("kev") || !registered.includes("epss")) {
    const message = `kev/epss sources not registered (the server's registry lists: ${registered.join(", ")})`;
    console.warn(`[${engine}] KEV + EPSS skipped: ${message}`);
    rows.push([
      engine,
      `KEV + EPSS for ${KEV_EPSS_RECORDS.toLocaleString("en")} records`,
      "skipped",
      `≤ ${TARGETS.kevEpssSeconds} s`,
      message,
    ]);
    return { skipped: message };
  }
  console.info(
    `[${engine}] KEV + EPSS: topping the database up to ${KEV_EPSS_RECORDS.toLocaleString("en")} records with CVEs…`,
  );
  const database = await openTarget(target);
  let cves: string[];
  let scale: { products: number; vulnerabilities: number };
  try {
    scale = await scaleDatabase(database, { products: 60_000, vulnerabilities: KEV_EPSS_RECORDS });
    // The synthetic records get CVEs too (nine in ten), as nearly every real record has one.
    await database.sql.transaction(async (tx) => {
      await tx.query("select set_config('pressguard.bulk_import', 'on', true)");
      await tx.query(
        `update vulnerabilities set cve = 'CVE-' || (2027 + n % 4) || '-' || lpad(n::text, 6, '0')
         from (select id as vid, substring(slug from 21)::int as n from vulnerabilities
               where source = 'bench-synthetic' and cve is null) s
         where id = s.vid and s.n % 10 <> 0`,
      );
    });
    await database.sql.query("analyze vulnerabilities");
    cves = (
      await database.sql.query<{ cve: string }>(
        "select distinct upper(cve) as cve from vulnerabilities where cve ~* '^CVE-[0-9]{4}-[0-9]{4,}$' order by 1",
      )
    ).rows.map((row) => row.cve);
  } finally {
    await database.close();
  }
  const kevFile = await writeKevCatalog(join(work, "kev.json"), cves, { total: 1_500, matching: 300 });
  const epssFile = await writeEpssScores(join(work, "epss_scores.csv.gz"), cves, {
    total: Math.max(300_000, cves.length + 50_000),
    date: "2026-12-01",
  });
  await keepScheduleAway(target, ["kev", "epss"]);
  const server = await startServer(
    { ...env, KEV_URL: standIn.url(KEV_PATH), EPSS_URL: standIn.url(EPSS_PATH) },
    log,
  );
  try {
    await signInStaff(server.port);
    const sources = await listSources(server.port);
    const unconfigured = ["kev", "epss"].filter(
      (name) => !sources.find((source) => source.source === name)?.configured,
    );
    if (unconfigured.length > 0)
      throw new Error(`${unconfigured.join(", ")} registered but not configured by KEV_URL/EPSS_URL`);
    await waitIdle(server.pid, 300);
    const rss = sampleRss(server.pid);
    const meter = await cpuMeter(server.pid, target);
    const kev = await syncNow(server.port, "kev");
    const epss = await syncNow(server.port, "epss");
    const cpu = meter();
    const peakMb = mb(Math.max(...rss.stop().map((sample) => sample.kb)));
    const kevAgain = await syncNow(server.port, "kev");
    const epssAgain = await syncNow(server.port, "epss");
    await stopServer(server);
    const annotated = await withDatabase(target, async (sql) => {
      const { rows: counted } = await sql.query<{ cve: number; kev: number; epss: number }>(
        `select count(*) filter (where cve is not null)::int as cve,
                count(*) filter (where s.known_exploited is not null)::int as kev,
                count(*) filter (where s.epss is not null)::int as epss
         from vulnerabilities v left join vulnerability_signals s on s.vulnerability_id = v.id`,
      );
      return counted[0]!;
    });
    const total = kev.seconds + epss.seconds;
    const ok = kev.result.outcome === "synced" && epss.result.outcome === "synced";
    rows.push(
      [
        engine,
        `KEV + EPSS for ${scale.vulnerabilities.toLocaleString("en")} records (${annotated.kev} marked known exploited, ${annotated.epss} scored of ${annotated.cve} with a CVE)`,
        `${total.toFixed(1)} s (${kev.seconds.toFixed(1)} + ${epss.seconds.toFixed(1)})`,
        `≤ ${TARGETS.kevEpssSeconds} s`,
        verdict(ok && total <= TARGETS.kevEpssSeconds),
      ],
      [
        engine,
        `  CPU during them: the server process${cpu.database === null ? "" : " / PostgreSQL"}`,
        `${cpu.server.toFixed(1)}${cpu.database === null ? "" : ` / ${cpu.database.toFixed(1)}`} s`,
        "",
        "",
      ],
      [
        engine,
        `  again, nothing new: KEV ${kevAgain.result.outcome}, EPSS ${epssAgain.result.outcome}`,
        `${kevAgain.seconds.toFixed(2)} + ${epssAgain.seconds.toFixed(2)} s`,
        "",
        "",
      ],
    );
    return {
      scale,
      kevFile,
      epssFile,
      kev: { ...kev.result, seconds: kev.seconds },
      epss: { ...epss.result, seconds: epss.seconds },
      again: {
        kev: { outcome: kevAgain.result.outcome, seconds: kevAgain.seconds },
        epss: { outcome: epssAgain.result.outcome, seconds: epssAgain.seconds },
      },
      peakRssMb: peakMb,
      cpuSeconds: cpu,
      annotated,
      seconds: total,
    };
  } finally {
    await stopServer(server);
  }
}

async function runEngine(engine: Engine) {
  const dir = temporaryDirectory(`pressguard-bench-data-sync-${engine}-`);
  const log = join(resultsDir, `data-sync-${engine}.log`);
  writeFileSync(log, "");
  let target: Target;
  let name: string | undefined;
  if (engine === "pglite") {
    target = { pgliteDir: join(dir, "pglite") };
  } else if (engine === "embedded") {
    target = { embeddedDir: join(dir, "postgres") };
  } else {
    name = `pressguard_bench_sync_${Date.now()}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    databasesToDrop.add(name);
    await admin.query(`create database ${name}`);
    await admin.end();
    target = { url: urlOf(name) };
  }
  const env = serverEnv({
    ...("url" in target
      ? { DATABASE_URL: target.url }
      : "pgliteDir" in target
        ? { PGLITE_DIR: target.pgliteDir }
        : { EMBEDDED_DB_DIR: target.embeddedDir }),
    EXPORTS_DIR: join(dir, "exports"),
    ATTACHMENTS_DIR: join(dir, "attachments"),
  });
  const out: Record<string, unknown> = {};
  staff.token = "";
  staff.secret = "";
  registered = null;
  try {
    console.info(
      `[${engine}] first start on a new database, as npm start runs it (the bundled data imported)…`,
    );
    const first = await startServer({ ...env, LOG_LEVEL: "info" }, log);
    await stopServer(first);
    const importLine = readFileSync(log, "utf8").match(/Imported .* in [\d.]+ s/)?.[0] ?? null;
    out.firstStart = { readySeconds: first.readySeconds, importLine };
    rows.push([
      engine,
      `first start, ready (${importLine ?? "no import line"})`,
      `${first.readySeconds.toFixed(1)} s`,
      "",
      "",
    ]);
    createStaff(env);
    if (scenarios.includes("wordfence")) out.wordfence = await wordfenceScenario(engine, target, env, log);
    if (scenarios.includes("kev-epss")) out.kevEpss = await kevEpssScenario(engine, target, env, log);
  } catch (error) {
    out.error = (error as Error).stack ?? String(error);
    rows.push([engine, "the run failed", (error as Error).message.split("\n")[0]!, "", "**FAIL**"]);
    console.error(`[${engine}] failed: ${(error as Error).stack}`);
    process.exitCode = 1;
  } finally {
    for (const child of children) child.kill("SIGKILL");
    children.clear();
    if (name) {
      const admin = new pg.Client({ connectionString: postgresUrl });
      await admin.connect();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
      databasesToDrop.delete(name);
    }
    removeTemporaryDirectory(dir);
  }
  return out;
}

for (const engine of engines) {
  (results.engines as Record<string, unknown>)[engine] = await runEngine(engine);
}
if (!postgresUrl) console.info("(no --postgres URL and no PG_TEST_URL: PostgreSQL skipped)");
await standIn.close();
agent.destroy();

results.machine = { ...(results.machine as object), loadAverageAtEnd: loadavg() };
const formatLoad = (load: number[]) => load.map((value) => value.toFixed(2)).join(", ");
console.info(
  `\n${cpus().length} cores, Node ${process.version}; load average (1, 5, 15 min) at start ${formatLoad((results.machine as { loadAverageAtStart: number[] }).loadAverageAtStart)}, at end ${formatLoad(loadavg())}`,
);
console.info(
  `Document: ${FEED_RECORDS.toLocaleString("en")} records, ${(document.bytes / 1e6).toFixed(1)} MB; search: ${rate} requests/s of the relevance set's ${SEARCH_QUERIES.length} queries\n`,
);
console.info("| database | measurement | figure | target | |\n| --- | --- | ---: | ---: | --- |");
for (const row of rows) console.info(`| ${row.join(" | ")} |`);
writeFileSync(join(resultsDir, "data-sync.json"), `${JSON.stringify(results, null, 2)}\n`);
process.exit(process.exitCode ?? 0);
