import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { Agent } from "node:http";
import { join } from "node:path";
import { openDatabase } from "../apps/server/src/db/client.ts";
import { cpuMicrosecondsOf, freePort, listOption, numberOption, send, textOption } from "./support.ts";
import { type LoadRequest, runWrk, wrkInstalled } from "./wrk.ts";

/**
 * Cold-path latency of the search and the batch check (issue 5: search p95 < 20 ms, batch check of
 * 100 items p95 < 15 ms, 10 concurrent clients, PostgreSQL at 250 000 vulnerabilities), and of every
 * query of the search's relevance set and the search box's suggestions (issue 17: p95 < 50 ms and
 * < 15 ms).
 *
 *   DATABASE_URL=postgres://… npm run db:seed:scale
 *   DATABASE_URL=postgres://… node --import tsx bench/cold-latency.ts [--duration 10 --connections 10
 *     --load wrk|node --only stored,contact]
 *   PGLITE_DIR=… npm run db:seed:scale && PGLITE_DIR=… node --import tsx bench/cold-latency.ts
 *
 * Starts the API-only server on that database and keeps `connections` requests in flight, from wrk
 * when it is installed (`apt-get install wrk`), otherwise from Node's HTTP client. Every search URL
 * carries a unique cache-busting parameter, so no answer comes from the in-memory response store
 * (decision 005): each request parses, queries the database and serialises. The first row is the
 * ceiling: the same clients on an answer the response store holds. The second is the floor: the
 * cheapest 20-record answer of the API, which no search can beat (decision 033). Each row also gives
 * the CPU the server process and PostgreSQL (when it runs on this machine) spent per request. The
 * batch check runs twice: on batches of products the server has not read yet (its per-data-version
 * range cache misses), then on one batch repeated.
 */
const duration = numberOption("duration", 10);
const connections = numberOption("connections", 10);
const databaseUrl = process.env.DATABASE_URL;
const pgliteDir = process.env.PGLITE_DIR;
if (!databaseUrl && !pgliteDir)
  throw new Error("Set DATABASE_URL or PGLITE_DIR to a database seeded by `npm run db:seed:scale`.");
const PORT = await freePort();
const root = join(import.meta.dirname, "..");

/** Reads the request bodies before the server starts (the embedded database allows one process). */
async function selectSlugs(sql: string): Promise<string[]> {
  const database = await openDatabase(
    databaseUrl ? { url: databaseUrl, poolSize: 1 } : { pgliteDir: pgliteDir! },
  );
  try {
    return (await database.sql.query<{ slug: string }>(sql)).rows.map((row) => row.slug);
  } finally {
    await database.close();
  }
}

const bodyOf = (slugs: string[]) =>
  JSON.stringify({ items: slugs.map((slug) => ({ kind: "plugin", slug, version: "1.0" })) });

/** 100 real plugins with known vulnerabilities, each at version 1.0 (fixed: the same body every run). */
const checkBody = async () =>
  bodyOf(
    await selectSlugs(
      `select p.slug from products p
       where p.kind = 'plugin' and p.slug not like 'bench-%'
         and exists (select 1 from affected_ranges ar where ar.product_id = p.id)
       order by md5(p.slug) limit 100`,
    ),
  );

/**
 * Every plugin of the database in batches of 100, each batch a different request body: a check
 * whose products the server has not read before under this data version (its range cache misses).
 */
async function unseenCheckBodies(): Promise<string[]> {
  const slugs = await selectSlugs("select slug from products where kind = 'plugin' order by md5(slug) desc");
  const bodies: string[] = [];
  for (let start = 0; start + 100 <= slugs.length; start += 100)
    bodies.push(bodyOf(slugs.slice(start, start + 100)));
  return bodies;
}

/** The search's relevance set (issue 17): the queries people type, every one of them measured. */
const relevanceQueries: string[] = (
  JSON.parse(readFileSync(join(root, "apps/server/src/modules/search/relevance/queries.json"), "utf8")) as {
    queries: { q: string }[];
  }
).queries.map((entry) => entry.q);

/** What the search box asks while someone types: the first 2 to 8 letters of each query of the set. */
const typedPrefixes = [
  ...new Set(
    relevanceQueries.flatMap((q) =>
      [2, 3, 4, 5, 6, 8].filter((length) => length < q.length).map((length) => q.slice(0, length)),
    ),
  ),
].filter((prefix) => prefix.trim().length >= 2);

/**
 * The load generator: wrk when installed (`--load node` forces Node's HTTP client). Both keep
 * `connections` requests in flight; Node's client costs the shared cores about 0.5 ms of CPU per
 * request, wrk a few microseconds (bench/README.md, ninth session).
 */
const load = textOption("load") ?? (wrkInstalled() ? "wrk" : "node");
/** `--only stored,contact`: the scenarios whose names hold one of these parts (case-insensitive). */
const only = listOption("only");
const wanted = (name: string) => !only || only.some((part) => name.toLowerCase().includes(part));
if (load !== "wrk" && load !== "node") throw new Error("--load is wrk or node");

const agent = new Agent({ keepAlive: true, maxSockets: connections });

/** One request of the load; its time in ms, or an error for any status but 200. */
async function sendLoad({ method, path, body }: LoadRequest): Promise<number> {
  const answer = await send(agent, PORT, method, path, body === undefined ? {} : { body });
  if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status}`);
  return answer.ms;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** Node's client: `requests` in turn, each GET path made unique, for `seconds` or `limit` requests. */
async function nodeLoad(requests: LoadRequest[], seconds: number, unique: boolean, limit: number) {
  const nth = (n: number): LoadRequest => {
    const entry = requests[Math.abs(n) % requests.length]!;
    if (!unique || entry.method !== "GET") return entry;
    return { ...entry, path: `${entry.path}${entry.path.includes("?") ? "&" : "?"}_=${n}` };
  };
  const latencies: number[] = [];
  /** Each request's latency under its path as given (no cache-busting parameter). */
  const byPath = new Map<string, number[]>();
  let counter = 0;
  const startedAt = performance.now();
  const endAt = startedAt + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < endAt && counter < limit) {
        const n = counter++;
        const latency = await sendLoad(nth(n));
        latencies.push(latency);
        const path = requests[n % requests.length]!.path;
        byPath.set(path, [...(byPath.get(path) ?? []), latency]);
      }
    }),
  );
  const elapsed = (performance.now() - startedAt) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    rps: Math.round(latencies.length / elapsed),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    byPath,
  };
}

/**
 * Warms up (connections, prepared plans, JIT), then measures, with the CPU the server process and
 * PostgreSQL spent during the measured part only.
 */
async function generate(requests: LoadRequest[], seconds: number, unique: boolean, limit: number) {
  if (load === "node") {
    for (let n = 0; n < 50; n++) await sendLoad(requests[n % requests.length]!);
  } else {
    await runWrk({ port: PORT, requests: requests.slice(-50), seconds: 1, connections, unique });
  }
  const before = cpuNow();
  // A limited run (each body once) lasts as long as its caller allows, and is checked afterwards.
  const row =
    load === "node"
      ? await nodeLoad(requests, seconds, unique, limit)
      : await runWrk({ port: PORT, requests: requests.slice(0, limit), seconds, connections, unique });
  const after = cpuNow();
  const perRequest = (micros: number) => micros / 1000 / Math.max(1, row.requests);
  let database = 0;
  // A backend opened during the run (the pool grows on demand) counts from its start.
  for (const [pid, micros] of after.database) database += micros - (before.database.get(pid) ?? 0);
  return {
    ...row,
    byPath: "byPath" in row ? (row.byPath as Map<string, number[]>) : undefined,
    serverCpu: perRequest(after.server - before.server),
    databaseCpu: databaseUrl && after.database.size > 0 ? perRequest(database) : undefined,
  };
}

/** CPU of the server process and, when PostgreSQL runs on this machine, of its processes. */
const postgresPids = () =>
  readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "postgres";
      } catch {
        return false;
      }
    })
    .map(Number);
/** CPU used so far: the server process's, and each PostgreSQL process's (backends come and go). */
function cpuNow() {
  const database = new Map<number, number>();
  for (const pid of postgresPids()) {
    try {
      database.set(pid, cpuMicrosecondsOf(pid));
    } catch {
      // a backend that ended meanwhile
    }
  }
  return { server: cpuMicrosecondsOf(server.pid!), database };
}

/** One scenario: its row in the table, with the server's and PostgreSQL's CPU per request. */
async function measure(
  name: string,
  requests: LoadRequest[],
  { unique = true, limit = Number.POSITIVE_INFINITY, seconds = duration } = {},
) {
  if (!wanted(name)) return null;
  const row = await generate(requests, seconds, unique, limit);
  console.info(
    `| ${name} | ${row.rps} | ${row.p50.toFixed(1)} ms | ${row.p95.toFixed(1)} ms | ${row.p99.toFixed(1)} ms | ${row.serverCpu.toFixed(2)} | ${row.databaseCpu?.toFixed(2) ?? "–"} |`,
  );
  return row;
}

/**
 * One scenario over many queries. Node's client keeps each query's latencies apart in the same run;
 * wrk reports a run's percentiles only, so with wrk each query also gets a run of its own (1 s), unless
 * `perQuery` is off. The three slowest queries' p95 are reported, not a mean that hides them.
 */
async function measureEach(name: string, paths: string[], perQuery: boolean) {
  const row = await measure(
    name,
    paths.map((path) => ({ method: "GET", path })),
  );
  if (!row || (!perQuery && load === "wrk")) return row;
  const byQuery: { path: string; p95: number }[] = [];
  if (load === "wrk") {
    for (const path of paths)
      byQuery.push({
        path,
        p95: (
          await runWrk({
            port: PORT,
            requests: [{ method: "GET", path }],
            seconds: 1,
            connections,
            unique: true,
          })
        ).p95,
      });
  } else {
    for (const [path, values] of row.byPath ?? new Map<string, number[]>())
      byQuery.push({
        path,
        p95: percentile(
          values.sort((a, b) => a - b),
          95,
        ),
      });
  }
  const worst = byQuery.sort((a, b) => b.p95 - a.p95).slice(0, 3);
  const queryOf = (path: string) => new URL(path, "http://x").searchParams.get("q");
  console.info(
    `|   slowest p95: ${worst.map((entry) => `\`${queryOf(entry.path)}\` ${entry.p95.toFixed(1)} ms`).join(", ")} | | | | | | |`,
  );
  return row;
}

const get = (path: string): LoadRequest => ({ method: "GET", path });
const body = await checkBody();
const unseenBodies = await unseenCheckBodies();
const server: ChildProcess = spawn(
  process.execPath,
  ["--import", "tsx", "apps/server/src/main.ts", "--api-only"],
  {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(PORT),
      LOG_LEVEL: "warn",
      SEED: "off",
      NODE_ENV: "production",
      // Every request comes from 127.0.0.1: the public API's limit (decision 028) counts, never refuses.
      API_RATE_LIMIT_ANONYMOUS: "1000000000",
      // A measurement never reaches the network: the upstream data sources stay off (decision 035).
      KEV_URL: "off",
      EPSS_URL: "off",
      WPORG_API_URL: "off",
    },
    stdio: ["ignore", "inherit", "inherit"],
  },
);
try {
  for (let attempt = 0; ; attempt++) {
    try {
      await sendLoad(get("/api/public/footer/metrics"));
      break;
    } catch (error) {
      if (attempt > 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  console.info(
    `\n${connections} clients from ${load === "wrk" ? "wrk" : "Node's HTTP client"}, ${duration} s per scenario, every search URL unique${await databaseSettings()}:\n`,
  );
  console.info(
    "| scenario | req/s | p50 | p95 | p99 | server CPU ms/req | PostgreSQL CPU ms/req |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  // The ceiling: a route the response store answers (no database, no serialisation), same clients.
  await measure(
    "ceiling: `/api/public/footer/metrics` from the response store",
    [get("/api/public/footer/metrics")],
    {
      unique: false,
    },
  );
  // The floor: the least a 20-record answer of this API costs, one statement and no words (the
  // unfiltered list's second page, its total known from the headline count). No search can cost less.
  await measure("floor: `/api/v1/vulnerabilities?page=2`, 20 records without words", [
    get("/api/v1/vulnerabilities?page=2"),
  ]);
  await measure("search `q=stored xss&kind=plugin`", [
    get("/api/v1/vulnerabilities?q=stored%20xss&kind=plugin"),
  ]);
  await measure("search `q=contact form&severity=high`", [
    get("/api/v1/vulnerabilities?q=contact%20form&severity=high"),
  ]);
  // A search as broad as they come: 229 000 of 250 000 records match (decision 015's match limit).
  await measure("search `q=cross site scripting` (broad)", [
    get("/api/v1/vulnerabilities?q=cross%20site%20scripting"),
  ]);
  await measureEach(
    `search, the ${relevanceQueries.length} queries of the relevance set in turn`,
    relevanceQueries.map((q) => `/api/v1/vulnerabilities?q=${encodeURIComponent(q)}`),
    true,
  );
  await measureEach(
    `autocomplete, ${typedPrefixes.length} prefixes of the relevance set in turn`,
    typedPrefixes.map((q) => `/api/v1/autocomplete?q=${encodeURIComponent(q)}`),
    false,
  );
  // First, batches of products never checked before: each batch once, so every item misses the cache.
  const unseen = unseenBodies.map(
    (text): LoadRequest => ({ method: "POST", path: "/api/v1/check", body: text }),
  );
  const first = await measure("batch check, 100 unseen products", unseen, {
    limit: unseen.length - 50,
    seconds: Math.max(1, Math.min(duration, Math.floor((unseen.length - 50) / 150))),
  });
  if (first && first.requests > unseen.length - 50)
    console.info(
      `|   (${first.requests - (unseen.length - 50)} of those batches were sent a second time) | | | | | | |`,
    );
  // Then the same 100 plugins every time: a scanner's repeated check, answered from the range cache.
  await measure("batch check, 100 items", [{ method: "POST", path: "/api/v1/check", body }], {
    unique: false,
  });
} finally {
  agent.destroy();
  server.kill("SIGTERM");
}

/** The PostgreSQL settings the figures depend on, against the size of what a search reads. */
async function databaseSettings(): Promise<string> {
  if (!databaseUrl) return " (PGlite)";
  const database = await openDatabase({ url: databaseUrl, poolSize: 1 });
  try {
    const { rows } = await database.sql.query<{ buffers: string; searched: string; socket: boolean }>(
      `select current_setting('shared_buffers') as buffers,
              pg_size_pretty(pg_total_relation_size('vulnerabilities')) as searched,
              inet_server_addr() is null as socket`,
    );
    const row = rows[0]!;
    return ` (PostgreSQL over ${row.socket ? "its Unix socket" : "TCP"}, shared_buffers ${row.buffers}; the vulnerabilities table and its indexes: ${row.searched})`;
  } finally {
    await database.close();
  }
}
