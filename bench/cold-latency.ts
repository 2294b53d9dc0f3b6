import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { join } from "node:path";
import { openDatabase } from "../apps/server/src/db/client.ts";
import { freePort, numberOption } from "./support.ts";

/**
 * Cold-path latency of the search and the batch check (issue 5: search p95 < 20 ms, batch check of
 * 100 items p95 < 15 ms, 10 concurrent clients, PostgreSQL at 250 000 vulnerabilities), and of every
 * query of the search's relevance set and the search box's suggestions (issue 17: p95 < 50 ms and
 * < 15 ms).
 *
 *   DATABASE_URL=postgres://… npm run db:seed:scale
 *   DATABASE_URL=postgres://… node --import tsx bench/cold-latency.ts [--duration 10 --connections 10]
 *   PGLITE_DIR=… npm run db:seed:scale && PGLITE_DIR=… node --import tsx bench/cold-latency.ts
 *
 * Starts the API-only server on that database and keeps `connections` requests in flight. Every search
 * URL carries a unique cache-busting parameter, so no answer comes from the in-memory response store
 * (decision 005): each request parses, queries the database and serialises. Latencies are measured per
 * request here (autocannon reports no p95). The batch check runs twice: on batches of products the
 * server has not read yet (its per-data-version range cache misses), then on one batch repeated.
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

const agent = new Agent({ keepAlive: true, maxSockets: connections });

function send(method: "GET" | "POST", path: string, body?: string): Promise<number> {
  const startedAt = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: "127.0.0.1",
        port: PORT,
        method,
        path,
        agent,
        headers: body
          ? { "content-type": "application/json", "content-length": Buffer.byteLength(body) }
          : {},
      },
      (response) => {
        response.resume();
        response.on("end", () => {
          if (response.statusCode !== 200) reject(new Error(`${method} ${path}: ${response.statusCode}`));
          else resolve(performance.now() - startedAt);
        });
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/**
 * One scenario over many queries: the latencies of each query kept apart, so that the slowest query's
 * p95 is reported, not a mean that hides it.
 */
async function measureEach(name: string, queries: string[], path: (query: string, n: number) => string) {
  const byQuery = new Map<string, number[]>();
  const row = await measure(name, async (n) => {
    const query = queries[Math.abs(n) % queries.length]!;
    const latency = await send("GET", path(query, n));
    if (n >= 0) byQuery.set(query, [...(byQuery.get(query) ?? []), latency]);
    return latency;
  });
  const worst = [...byQuery.entries()]
    .map(([query, latencies]) => ({
      query,
      p95: percentile(
        latencies.sort((a, b) => a - b),
        95,
      ),
    }))
    .sort((a, b) => b.p95 - a.p95)
    .slice(0, 3);
  console.info(
    `|   slowest p95: ${worst.map((entry) => `\`${entry.query}\` ${entry.p95.toFixed(1)} ms`).join(", ")} | | | | |`,
  );
  return row;
}

/** Runs `duration` seconds, or until `limit` requests were sent. */
async function measure(name: string, next: (n: number) => Promise<number>, limit = Number.POSITIVE_INFINITY) {
  for (let n = 0; n < 50; n++) await next(-n - 1); // warm-up: connections, prepared plans, JIT
  const latencies: number[] = [];
  let counter = 0;
  const startedAt = performance.now();
  const endAt = startedAt + duration * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < endAt && counter < limit) latencies.push(await next(counter++));
    }),
  );
  const seconds = (performance.now() - startedAt) / 1000;
  latencies.sort((a, b) => a - b);
  const row = {
    scenario: name,
    requests: latencies.length,
    rps: Math.round(latencies.length / seconds),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
  };
  console.info(
    `| ${row.scenario} | ${row.rps} | ${row.p50.toFixed(1)} ms | ${row.p95.toFixed(1)} ms | ${row.p99.toFixed(1)} ms |`,
  );
  return row;
}

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
    },
    stdio: ["ignore", "inherit", "inherit"],
  },
);
try {
  for (let attempt = 0; ; attempt++) {
    try {
      await send("GET", "/api/public/footer/metrics");
      break;
    } catch (error) {
      if (attempt > 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  console.info(`\n${connections} clients, ${duration} s per scenario, every search URL unique:\n`);
  console.info("| scenario | req/s | p50 | p95 | p99 |\n| --- | ---: | ---: | ---: | ---: |");
  await measure("search `q=stored xss&kind=plugin`", (n) =>
    send("GET", `/api/v1/vulnerabilities?q=stored%20xss&kind=plugin&_=${n}`),
  );
  await measure("search `q=contact form&severity=high`", (n) =>
    send("GET", `/api/v1/vulnerabilities?q=contact%20form&severity=high&_=${n}`),
  );
  // A search as broad as they come: 229 000 of 250 000 records match (decision 015's match limit).
  await measure("search `q=cross site scripting` (broad)", (n) =>
    send("GET", `/api/v1/vulnerabilities?q=cross%20site%20scripting&_=${n}`),
  );
  await measureEach(
    `search, the ${relevanceQueries.length} queries of the relevance set in turn`,
    relevanceQueries,
    (q, n) => `/api/v1/vulnerabilities?q=${encodeURIComponent(q)}&_=${n}`,
  );
  await measureEach(
    `autocomplete, ${typedPrefixes.length} prefixes of the relevance set in turn`,
    typedPrefixes,
    (q, n) => `/api/v1/autocomplete?q=${encodeURIComponent(q)}&_=${n}`,
  );
  // First, batches of products never checked before: each batch once, so every item misses the cache.
  await measure(
    "batch check, 100 unseen products",
    (n) => send("POST", "/api/v1/check", unseenBodies[n < 0 ? unseenBodies.length + n : n] ?? body),
    unseenBodies.length - 50,
  );
  // Then the same 100 plugins every time: a scanner's repeated check, answered from the range cache.
  await measure("batch check, 100 items", () => send("POST", "/api/v1/check", body));
} finally {
  agent.destroy();
  server.kill("SIGTERM");
}
