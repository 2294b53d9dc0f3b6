import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { freePort, removeTemporaryDirectory, temporaryDirectory } from "./support.ts";

/**
 * The first start and the import of the bundled data, measured as a user meets them (issue 14,
 * QUALITY.md targets: ready in 30 s, later starts in 5 s (issue 37); the vulnerability file
 * imported in 20 s on PostgreSQL). `npm run bench:first-start [-- --postgres postgres://user:pass@host/postgres]`
 *
 * - first start: `node --import tsx apps/server/src/main.ts` exactly as `npm start` runs it after its
 *   build check, on a new data directory: seconds to the first answer (the preparing page) and to
 *   ready (`/healthz` 200), and the import's own figure from the log; then a second start on the same
 *   directory.
 * - the same two starts on PGlite (PGLITE_DIR), the engine before decision 037, in the same run.
 * - db:import: `npm run db:import` of the bundled plugin and vulnerability files into a new embedded
 *   PostgreSQL directory (and a new PostgreSQL database with `--postgres`, or PG_TEST_URL), then the
 *   same files again (unchanged data).
 */
const args = process.argv.slice(2);
const postgresIndex = args.indexOf("--postgres");
const postgresUrl = postgresIndex >= 0 ? args[postgresIndex + 1] : process.env.PG_TEST_URL;
const root = join(import.meta.dirname, "..");
const seedDir = join(root, "data/seed/wordpress-vulns");
const TARGETS = { ready: 30, laterStart: 5, importPostgres: 20 };

const formatLoad = (load: unknown) => (load as number[]).map((value) => value.toFixed(2)).join(", ");
const seconds = (since: number) => (performance.now() - since) / 1000;
const childEnv = (extra: Record<string, string>) => {
  // The operator's database settings must not leak into a measurement of the embedded default.
  const {
    DATABASE_URL: _url,
    DATABASE_READ_URL: _read,
    PGLITE_DIR: _dir,
    EMBEDDED_DB_DIR: _embedded,
    ...env
  } = process.env;
  // A measurement never reaches the network: the upstream data sources stay off (decision 035).
  return { ...env, LOG_LEVEL: "info", KEV_URL: "off", EPSS_URL: "off", WPORG_API_URL: "off", ...extra };
};

interface StartFigures {
  firstAnswer: number;
  ready: number;
  importLine: string | null;
}

async function measureStart(databaseEnv: Record<string, string>): Promise<StartFigures> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
    cwd: root,
    env: childEnv({ PORT: String(port), HOST: "127.0.0.1", ...databaseEnv }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr.on("data", (chunk) => {
    output += chunk;
  });
  let firstAnswer = Number.NaN;
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited early:\n${output}`);
      if (seconds(started) > 900) throw new Error(`not ready after 900 s:\n${output}`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/healthz`);
        if (Number.isNaN(firstAnswer)) firstAnswer = seconds(started);
        if (response.ok) break;
      } catch {}
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const ready = seconds(started);
    return { firstAnswer, ready, importLine: output.match(/Imported .* in [\d.]+ s/)?.[0] ?? null };
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  }
}

interface ImportFigures {
  file: string;
  /** The whole command: start, migrations, import, close. */
  command: number;
  /** What the command reports for the import itself. */
  importSeconds: number;
  line: string;
}

function measureImport(file: string, env: Record<string, string>): ImportFigures {
  const started = performance.now();
  const result = spawnSync(process.execPath, ["--import", "tsx", "apps/server/src/db/import-cli.ts", file], {
    cwd: root,
    env: childEnv(env),
    encoding: "utf8",
  });
  const command = seconds(started);
  if (result.status !== 0) throw new Error(`db:import ${file} failed:\n${result.stdout}${result.stderr}`);
  const line = result.stdout.trim().split("\n").at(-1) ?? "";
  const importSeconds = Number(line.match(/in ([\d.]+) s$/)?.[1] ?? Number.NaN);
  return { file: file.replace(`${root}/`, ""), command, importSeconds, line };
}

/** The table rows of a fresh import and an import of the same files again; the target is the vulns file's. */
function pushImportRows(engine: string, fresh: ImportFigures[], again: ImportFigures[], target: number) {
  for (const [label, figures] of [
    [engine, fresh],
    [`${engine}, unchanged data again`, again],
  ] as const) {
    for (const figure of figures) {
      const isFreshVulns = figures === fresh && figure.file.endsWith("vulns.jsonl.gz");
      rows.push([
        `db:import ${figure.file.split("/").at(-1)} (${label}): import / whole command`,
        `${figure.importSeconds.toFixed(1)} / ${figure.command.toFixed(1)}`,
        isFreshVulns ? `≤ ${target}` : "",
      ]);
    }
  }
}

function importBoth(env: Record<string, string>) {
  return ["plugins.jsonl.gz", "vulns.jsonl.gz"].map((name) => measureImport(join(seedDir, name), env));
}

// Two cores shared with anything else running: the load average says how quiet the machine was.
const results: Record<string, unknown> = {
  date: new Date().toISOString(),
  targets: TARGETS,
  loadAverageAtStart: loadavg(),
};
const rows: string[][] = [];

const build = performance.now();
spawnSync(process.execPath, ["scripts/ensure-build.mjs"], { cwd: root, stdio: "inherit" });
results.buildCheck = seconds(build);

console.info("First start on a new data directory (the embedded PostgreSQL, the default)…");
const startDir = temporaryDirectory("pressguard-bench-first-start-");
const embeddedStart = { EMBEDDED_DB_DIR: join(startDir, "postgres") };
const first = await measureStart(embeddedStart);
const second = await measureStart(embeddedStart);
if (first.importLine) console.info(`  ${first.importLine}`);
// The engine before decision 037, in the same run: what the change is measured against.
console.info("First start on PGlite (PGLITE_DIR)…");
const pgliteStart = { PGLITE_DIR: join(startDir, "pglite") };
const firstPglite = await measureStart(pgliteStart);
const secondPglite = await measureStart(pgliteStart);
removeTemporaryDirectory(startDir);
results.firstStart = first;
results.secondStart = second;
results.firstStartPglite = firstPglite;
results.secondStartPglite = secondPglite;
rows.push(
  ["first start: first answer (preparing page)", first.firstAnswer.toFixed(1), ""],
  ["first start: ready (/healthz 200)", first.ready.toFixed(1), `≤ ${TARGETS.ready}`],
  ["second start: ready", second.ready.toFixed(1), `≤ ${TARGETS.laterStart}`],
  ["first start on PGlite (PGLITE_DIR): ready", firstPglite.ready.toFixed(1), ""],
  ["second start on PGlite: ready", secondPglite.ready.toFixed(1), ""],
);

console.info("db:import into a new embedded PostgreSQL directory…");
const importDir = temporaryDirectory("pressguard-bench-import-");
const embeddedEnv = { EMBEDDED_DB_DIR: join(importDir, "postgres") };
const embedded = importBoth(embeddedEnv);
const embeddedAgain = importBoth(embeddedEnv);
removeTemporaryDirectory(importDir);
results.importEmbedded = { fresh: embedded, again: embeddedAgain };
pushImportRows("embedded PostgreSQL", embedded, embeddedAgain, TARGETS.importPostgres);

if (postgresUrl) {
  console.info("db:import into a new PostgreSQL database…");
  const name = `pressguard_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  try {
    const url = new URL(postgresUrl);
    url.pathname = `/${name}`;
    const env = { DATABASE_URL: url.toString() };
    const fresh = importBoth(env);
    const again = importBoth(env);
    results.importPostgres = { fresh, again };
    pushImportRows("PostgreSQL", fresh, again, TARGETS.importPostgres);
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
} else {
  console.info("(no --postgres URL and no PG_TEST_URL: PostgreSQL import skipped)");
}

results.loadAverageAtEnd = loadavg();
console.info(
  `\nLoad average (1, 5, 15 min) at start ${formatLoad(results.loadAverageAtStart)}, at end ${formatLoad(results.loadAverageAtEnd)}`,
);
console.info("\n| measurement | seconds | target |\n| --- | ---: | ---: |");
for (const row of rows) console.info(`| ${row.join(" | ")} |`);
mkdirSync(join(import.meta.dirname, "results"), { recursive: true });
writeFileSync(
  join(import.meta.dirname, "results", "first-start.json"),
  `${JSON.stringify(results, null, 2)}\n`,
);
