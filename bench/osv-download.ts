import { type ChildProcess, spawn } from "node:child_process";
import { Agent } from "node:http";
import { join } from "node:path";
import { freePort, numberOption, send, temporaryDirectory } from "./support.ts";

/**
 * A search's throughput while clients download the OSV export (issue 18, decision 027: the export
 * is built once per data version and served as files; the goal is within 10 % of the quiet figure).
 *
 *   PGLITE_DIR=<a seeded directory> node --import tsx bench/osv-download.ts [--duration 10 --connections 10]
 *   DATABASE_URL=postgres://… node --import tsx bench/osv-download.ts
 *
 * Starts the API-only server on that database with an empty export directory (so the files are built
 * on the first request for them, which the first scenario makes), and keeps `connections` searches in flight, every URL unique (no stored answer). Scenarios:
 * while the files are built; quiet; then while 1 and 2 clients download the export back to back as
 * fast as loopback allows (the gzip file as sent to `Accept-Encoding: gzip`, all.zip, and the JSON
 * Lines decompressed for a client without gzip). Prints req/s, p50/p95 and the ratio to quiet.
 */
const duration = numberOption("duration", 10);
const connections = numberOption("connections", 10);
if (!process.env.DATABASE_URL && !process.env.PGLITE_DIR)
  throw new Error("Set DATABASE_URL or PGLITE_DIR to a database holding the bundled data.");
const PORT = await freePort();
const root = join(import.meta.dirname, "..");
/** A rare word: few records match, so the search itself is cheap and any slowdown shows. */
const SEARCH = "/api/v1/vulnerabilities?q=timthumb";

const agent = new Agent({ keepAlive: true, maxSockets: connections });
const downloadAgent = new Agent({ keepAlive: true, maxSockets: 4 });

const get = (
  path: string,
  options: { headers?: Record<string, string>; via?: Agent; method?: string } = {},
) => send(options.via ?? agent, PORT, options.method ?? "GET", path, { headers: options.headers ?? {} });

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0;

let counter = 0;
const search = async () => {
  const answer = await get(`${SEARCH}&_=${counter++}`);
  if (answer.status !== 200) throw new Error(`search: ${answer.status}`);
  return answer.ms;
};

/** Searches with `connections` in flight until `until()` says stop; req/s and latencies. */
async function measure(until: () => boolean) {
  const latencies: number[] = [];
  const startedAt = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (!until()) latencies.push(await search());
    }),
  );
  const seconds = (performance.now() - startedAt) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    rps: Math.round(latencies.length / seconds),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    seconds,
  };
}

/** `clients` downloads of `path` back to back, for as long as `until()` says. */
function download(path: string, headers: Record<string, string>, clients: number, until: () => boolean) {
  const totals = { downloads: 0, bytes: 0 };
  const done = Promise.all(
    Array.from({ length: clients }, async () => {
      while (!until()) {
        const answer = await get(path, { headers, via: downloadAgent });
        if (answer.status !== 200) throw new Error(`${path}: ${answer.status}`);
        totals.downloads += 1;
        totals.bytes += answer.bytes;
      }
    }),
  );
  return { totals, done };
}

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
      // A fresh export directory: the first scenario asks for the files, and measures their build.
      ATTACHMENTS_DIR: temporaryDirectory("pressguard-osv-bench-"),
      EXPORTS_DIR: temporaryDirectory("pressguard-osv-bench-exports-"),
    },
    stdio: ["ignore", "inherit", "inherit"],
  },
);
try {
  const startedAt = performance.now();
  for (let attempt = 0; ; attempt++) {
    // The preparing server answers 503 until the app listens.
    const answer = await get("/api/public/footer/metrics").catch(() => null);
    if (answer?.status === 200) break;
    if (attempt > 600) throw new Error("the server did not start");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  for (let n = 0; n < 50; n++) await search(); // warm-up: connections, prepared plans, JIT
  console.info(`\n${connections} searches in flight (\`${SEARCH}&_=<n>\`, every URL unique):\n`);
  console.info("| scenario | search req/s | p50 | p95 | vs quiet | downloads |");
  console.info("| --- | ---: | ---: | ---: | ---: | --- |");
  const rows: { name: string; rps: number; p50: number; p95: number; downloads: string }[] = [];
  // 1. While the export files are built (they were not on disk): `duration` seconds of searches, then
  // the rest of the build unloaded (a saturated server builds slowly: the build yields to requests).
  let built = false;
  let buildSeconds = 0;
  const watcher = (async () => {
    while (!built) {
      const answer = await get("/api/v1/osv/modified_id.csv", { method: "HEAD", via: downloadAgent });
      if (answer.headers.etag) {
        built = true;
        buildSeconds = (performance.now() - startedAt) / 1000;
      } else await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  const buildEndAt = performance.now() + duration * 1000;
  const building = await measure(() => built || performance.now() >= buildEndAt);
  const buildingName = built
    ? `while the files are built (all ${building.seconds.toFixed(1)} s of it)`
    : `while the files are built (first ${building.seconds.toFixed(1)} s)`;
  rows.push({ name: buildingName, ...building, downloads: "" });
  await watcher;
  console.info(`(export files served ${buildSeconds.toFixed(1)} s after the server started)`);
  const timed = async (name: string, path?: string, headers: Record<string, string> = {}, clients = 0) => {
    const endAt = performance.now() + duration * 1000;
    const until = () => performance.now() >= endAt;
    const downloads = path ? download(path, headers, clients, until) : null;
    const result = await measure(until);
    await downloads?.done;
    const megabytes = downloads ? downloads.totals.bytes / 1e6 : 0;
    rows.push({
      name,
      ...result,
      downloads: downloads
        ? `${downloads.totals.downloads} (${Math.round(megabytes / result.seconds)} MB/s)`
        : "",
    });
  };
  await timed("quiet");
  const gzip = { "accept-encoding": "gzip" };
  await timed("1 client downloading /api/v1/osv (gzip file)", "/api/v1/osv", gzip, 1);
  await timed("2 clients downloading /api/v1/osv (gzip file)", "/api/v1/osv", gzip, 2);
  await timed("2 clients downloading /api/v1/osv/all.zip", "/api/v1/osv/all.zip", {}, 2);
  await timed("1 client downloading /api/v1/osv without gzip (decompressed)", "/api/v1/osv", {}, 1);
  const quiet = rows.find((row) => row.name === "quiet")!.rps;
  for (const row of rows)
    console.info(
      `| ${row.name} | ${row.rps} | ${row.p50.toFixed(1)} ms | ${row.p95.toFixed(1)} ms | ${((row.rps / quiet) * 100).toFixed(0)} % | ${row.downloads} |`,
    );
} finally {
  agent.destroy();
  downloadAgent.destroy();
  server.kill("SIGTERM");
}
