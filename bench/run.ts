import { type ChildProcess, fork, spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { openDatabase } from "../apps/server/src/db/client.ts";
import { seedDatabase } from "../apps/server/src/db/seed.ts";
import { scaleDatabase } from "./scale.ts";

/**
 * Load benchmarks (QUALITY.md): requests per second of real endpoints as ratios against a bare
 * Fastify route serving the same bytes, measured in the same run on the same machine.
 * `npm run bench [-- --duration 10 --runs 3 --connections 50]`
 */
const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};
const duration = option("duration", 10);
const runs = option("runs", 3);
const connections = option("connections", 50);
const APP_PORT = 3291;
const CEILING_PORT = 3292;
const scenarios = [
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
];

const root = join(import.meta.dirname, "..");
spawnSync("node", ["scripts/ensure-build.mjs"], { cwd: root, stdio: "inherit" });

const dataDir = join(mkdtempSync(join(tmpdir(), "pressguard-bench-")), "pglite");
console.info("Preparing the benchmark database (real data + synthetic rows to scale)…");
const database = await openDatabase({ pgliteDir: dataDir });
await database.migrate();
await seedDatabase(database);
const scale = await scaleDatabase(database);
await database.close();
console.info(`Database: ${scale.products} products, ${scale.vulnerabilities} vulnerabilities`);

const children: ChildProcess[] = [];
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});

async function waitFor(url: string) {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not come up`);
}

const app = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
  cwd: root,
  env: { ...process.env, PORT: String(APP_PORT), PGLITE_DIR: dataDir, LOG_LEVEL: "warn", SEED: "off" },
  stdio: "inherit",
});
children.push(app);
await waitFor(`http://127.0.0.1:${APP_PORT}/healthz`);

const fixtures: Record<string, { type: string; body: string }> = {};
for (const scenario of scenarios) {
  const response = await fetch(`http://127.0.0.1:${APP_PORT}${scenario.path}`);
  if (!response.ok) throw new Error(`${scenario.path} answered ${response.status}`);
  fixtures[scenario.path] = {
    type: response.headers.get("content-type") ?? "text/plain",
    body: await response.text(),
  };
}
const fixturesFile = join(dataDir, "..", "fixtures.json");
writeFileSync(fixturesFile, JSON.stringify(fixtures));
const ceiling = fork(join(import.meta.dirname, "ceiling.ts"), [String(CEILING_PORT), fixturesFile], {
  execArgv: ["--import", "tsx"],
});
children.push(ceiling);
await new Promise((resolve) => ceiling.once("message", resolve));

async function measure(url: string): Promise<number> {
  const samples: number[] = [];
  for (let run = 0; run < runs; run++) {
    const result = await autocannon({ url, connections, duration });
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    samples.push(result.requests.average);
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
}

const results = [];
for (const scenario of scenarios) {
  const ceilingRps = await measure(`http://127.0.0.1:${CEILING_PORT}${scenario.path}`);
  const appRps = await measure(`http://127.0.0.1:${APP_PORT}${scenario.path}`);
  const bytes = Buffer.byteLength(fixtures[scenario.path]!.body);
  results.push({ scenario: scenario.name, bytes, appRps, ceilingRps, ratio: appRps / ceilingRps });
}

console.info(
  `\n${connections} connections, ${duration} s × ${runs} runs (median), ${scale.vulnerabilities} vulnerabilities:\n`,
);
console.info("| scenario | bytes | app req/s | ceiling req/s | ratio |\n| --- | ---: | ---: | ---: | ---: |");
for (const r of results) {
  console.info(
    `| ${r.scenario} | ${r.bytes} | ${Math.round(r.appRps)} | ${Math.round(r.ceilingRps)} | ${r.ratio.toFixed(3)} |`,
  );
}
mkdirSync(join(import.meta.dirname, "results"), { recursive: true });
writeFileSync(
  join(import.meta.dirname, "results", "latest.json"),
  JSON.stringify({ date: new Date().toISOString(), connections, duration, runs, scale, results }, null, 2),
);
process.exit(0);
