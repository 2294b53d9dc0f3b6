// Spike 37, option 2's crash recovery: the production server on embedded PostgreSQL (a child of this
// script, as Pressguard's own manager would hold it); a prober asks every 50 ms for an API answer the
// response store cannot hold (unique parameter) and for /healthz. Then:
//  1. kill -9 of one backend (PostgreSQL's own crash recovery: all backends reset, postmaster stays);
//  2. kill -9 of the postmaster; this script restarts it at once on its 'exit' (the supervisor sketch).
// Reports the time from the kill to postgres accepting again and to the server's first 200 again, and the
// statuses the server answered meanwhile.
// usage: node kill.mjs <ep data dir> <pg port> <database>
import { spawn } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { startCluster, stopCluster } from "./ep.mjs";

const [dir, port, database] = process.argv.slice(2);
const HTTP = 3473;
let cluster = await startCluster(dir, Number(port));
const url = cluster.url.replace(/\/postgres$/, `/${database}`);
const { DATABASE_URL, PGLITE_DIR, ...rest } = process.env;
const server = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts", "--api-only"], {
  cwd: "/work/main",
  env: { ...rest, DATABASE_URL: url, PORT: String(HTTP), HOST: "127.0.0.1", SEED: "off", LOG_LEVEL: "warn",
    API_RATE_LIMIT_ANONYMOUS: "1000000000", KEV_URL: "off", EPSS_URL: "off", WPORG_API_URL: "off", ATTACHMENTS_DIR: "/tmp/spike37/data/attachments", EXPORTS_DIR: "/tmp/spike37/data/exports" },
  stdio: ["ignore", "pipe", "pipe"],
});
let serverLog = "";
server.stdout.on("data", (c) => (serverLog += c));
server.stderr.on("data", (c) => (serverLog += c));
for (;;) {
  try { if ((await fetch(`http://127.0.0.1:${HTTP}/healthz`)).ok) break; } catch {}
  await new Promise((r) => setTimeout(r, 200));
}

let n = 0;
const events = [];
let probing = true;
async function prober() {
  while (probing) {
    const t = performance.now();
    let status, retryAfter = null, health;
    try {
      const r = await fetch(`http://127.0.0.1:${HTTP}/api/v1/vulnerabilities?page=2&_=${n++}`, { signal: AbortSignal.timeout(5000) });
      status = r.status; retryAfter = r.headers.get("retry-after"); await r.arrayBuffer();
    } catch (e) { status = e.name; }
    try { health = (await fetch(`http://127.0.0.1:${HTTP}/healthz`, { signal: AbortSignal.timeout(5000) })).status; } catch (e) { health = e.name; }
    events.push({ t, status, retryAfter, health, ms: performance.now() - t });
    await new Promise((r) => setTimeout(r, 50));
  }
}
const probe = prober();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
await sleep(1500);

function summarise(label, killedAt) {
  const after = events.filter((e) => e.t >= killedAt);
  const firstBad = after.find((e) => e.status !== 200);
  const bad = after.filter((e) => e.status !== 200);
  const lastBad = bad.at(-1);
  const firstOkAfter = lastBad ? after.find((e) => e.t > lastBad.t && e.status === 200) : after[0];
  const statuses = {};
  for (const e of bad) statuses[`${e.status}${e.retryAfter ? ` (Retry-After ${e.retryAfter})` : ""}`] = (statuses[`${e.status}${e.retryAfter ? ` (Retry-After ${e.retryAfter})` : ""}`] ?? 0) + 1;
  const healthNot200 = after.filter((e) => e.health !== 200).length;
  return { label, load: loadavg()[0], failedRequests: bad.length, statuses, healthzNot200: healthNot200,
    firstFailureAfterKillMs: firstBad ? Math.round(firstBad.t - killedAt) : null,
    answeringAgainAfterKillMs: firstOkAfter ? Math.round(firstOkAfter.t + firstOkAfter.ms - killedAt) : null,
    serverPidAlive: server.exitCode === null };
}

const results = [];
// 1. one backend killed
{
  const pm = cluster.child.pid;
  const backends = readdirSync("/proc").filter((p) => /^\d+$/.test(p)).filter((p) => {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, "utf8");
      return Number(stat.split(") ")[1].split(" ")[1]) === pm && readFileSync(`/proc/${p}/cmdline`, "utf8").includes(database);
    } catch { return false; }
  });
  const killedAt = performance.now();
  process.kill(Number(backends[0]), "SIGKILL");
  await sleep(8000);
  results.push({ ...summarise("kill -9 of one backend (postmaster resets all backends)", killedAt), backendsBefore: backends.length });
  console.log(JSON.stringify(results.at(-1)));
}
// 2. the postmaster killed, restarted by its supervisor (here: this script) on exit
for (let k = 1; k <= 3; k++) {
  const old = cluster.child;
  let restartSec = null, restartError = null;
  const restarted = new Promise((resolve) => {
    old.once("exit", async () => {
      const t = performance.now();
      for (let attempt = 0; attempt < 100; attempt++) {
        try { cluster = await startCluster(dir, Number(port)); restartSec = (performance.now() - t) / 1000; break; }
        catch (e) { restartError = e.message.split("\n").slice(-3).join(" "); await sleep(100); }
      }
      resolve();
    });
  });
  const killedAt = performance.now();
  old.kill("SIGKILL");
  await restarted;
  await sleep(8000);
  results.push({ ...summarise(`kill -9 of the postmaster #${k}, restarted on exit`, killedAt), restartSec, lastRestartError: restartError });
  console.log(JSON.stringify(results.at(-1)));
}
probing = false;
await probe;
writeFileSync("/tmp/spike37/results-kill.json", JSON.stringify({ results, serverLogTail: serverLog.slice(-3000) }, null, 2));
console.log("server log (tail):\n" + serverLog.slice(-1500));
await new Promise((r) => { server.once("exit", r); server.kill("SIGTERM"); });
await stopCluster(cluster.child);
process.exit(0);
