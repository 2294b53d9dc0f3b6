// Spike 37, option 1: PGlite 0.5.16 in a worker thread behind @electric-sql/pglite-socket 0.2.17, the
// main thread speaking `pg`. Correctness with several connections, throughput against in-process PGlite,
// the main thread's event loop during a long statement, and terminate + reopen of a worker mid-statement.
// usage: node sock.mjs <pglite data dir (a copy: it is written to)>
import { Worker } from "node:worker_threads";
import { loadavg } from "node:os";
import pg from "pg";
import { PGlite } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

const dir = process.argv[2];
const PORT = 5499;
const url = `postgres://postgres@127.0.0.1:${PORT}/postgres`;
const out = { loadAtStart: loadavg() };
const log = (k, v) => { out[k] = v; console.log(k, JSON.stringify(v)); };
const withTimeout = (p, ms) => Promise.race([p, new Promise((_, rej) => setTimeout(() => rej(new Error(`timeout ${ms} ms`)), ms))]);

function startWorker(maxConnections = 10) {
  const t = performance.now();
  const worker = new Worker(new URL("./sock-worker.mjs", import.meta.url), { workerData: { dir, port: PORT, maxConnections } });
  return new Promise((resolve, reject) => {
    worker.once("error", reject);
    worker.on("message", (m) => { if (m.ready) resolve({ worker, ...m, startSec: (performance.now() - t) / 1000 }); });
  });
}
const closeWorker = (worker) => new Promise((r) => { worker.on("message", (m) => m.closed && r()); worker.postMessage("close"); });

async function client(options = {}) {
  const c = new pg.Client({ connectionString: url, ...options });
  c.on("error", () => {});
  await c.connect();
  return c;
}

// ---------- start
let w = await startWorker(20);
log("workerStart", { seconds: w.startSec, opened: w.opened, version: w.version });


// ---------- B. correctness with 10 connections, unnamed extended-protocol statements
{
  const clients = await Promise.all(Array.from({ length: 10 }, () => client()));
  let wrong = 0, errors = 0, done = 0;
  const t = performance.now();
  await Promise.all(clients.map(async (c, i) => {
    for (let k = 0; k < 200; k++) {
      const v = i * 1000 + k;
      try {
        const r = await withTimeout(c.query("select $1::int as v, $2::text as s", [v, `c${i}`]), 10000);
        if (r.rows[0]?.v !== v || r.rows[0]?.s !== `c${i}`) wrong++;
        done++;
      } catch (e) { errors++; if (errors < 4) console.log("B error:", e.message); }
    }
  }));
  log("B_concurrentUnnamed", { queries: 2000, done, wrong, errors, seconds: (performance.now() - t) / 1000 });
  // Named statement of the same name on two connections (pg's `name`, what client.ts's preparedPool does)
  const named = [];
  for (const c of clients.slice(0, 2)) {
    try { await withTimeout(c.query({ name: "q_same", text: "select 1 as one" }), 5000); named.push("ok"); } catch (e) { named.push(e.message); }
  }
  try { await withTimeout(clients[2].query({ name: "q_other", text: "select 2 as two" }), 5000); named.push("ok"); } catch (e) { named.push(e.message); }
  log("B_namedStatementSameNameTwoConnections", named);
  // A SET on one connection seen from another?
  await clients[0].query("set statement_timeout = '1234ms'");
  const seen = (await clients[1].query("show statement_timeout")).rows[0].statement_timeout;
  await clients[0].query("reset statement_timeout");
  log("B_setLeaksToOtherConnection", { setOnFirst: "1234ms", seenOnSecond: seen });
  // Startup options (client.ts's preparedPool passes -c plan_cache_mode=force_generic_plan)
  const opt = await client({ options: "-c plan_cache_mode=force_generic_plan" });
  const own = (await opt.query("show plan_cache_mode")).rows[0].plan_cache_mode;
  const other = (await clients[3].query("show plan_cache_mode")).rows[0].plan_cache_mode;
  log("B_startupOption", { onItsConnection: own, onAnother: other });
  await opt.end();
  // Transaction on one connection, a read on another while it is open
  await clients[4].query("create table if not exists spike37_tx (x int)");
  await clients[4].query("begin");
  await clients[4].query("insert into spike37_tx values (1)");
  let otherRead;
  const tr = performance.now();
  try {
    otherRead = (await withTimeout(clients[5].query("select count(*)::int as n from spike37_tx"), 3000)).rows[0].n;
  } catch (e) { otherRead = e.message; }
  const waited = (performance.now() - tr) / 1000;
  await clients[4].query("rollback");
  log("B_readDuringOtherConnectionsTransaction", { uncommittedRowsSeen: otherRead, waitedSeconds: waited });
  // Connection dropped in the middle of a transaction: does the next client inherit it?
  await clients[6].query("begin");
  await clients[6].query("insert into spike37_tx values (2)");
  await clients[6].end();
  await new Promise((r) => setTimeout(r, 300));
  try {
    const n = (await withTimeout(clients[7].query("select count(*)::int as n from spike37_tx"), 3000)).rows[0].n;
    log("B_afterClientDroppedMidTransaction", { rowsSeen: n, note: "0 = rolled back" });
  } catch (e) { log("B_afterClientDroppedMidTransaction", { error: e.message }); }
  // connections up to and over maxConnections (20)
  const extra = [];
  for (let k = 0; k < 15; k++) {
    try { extra.push(await withTimeout(client(), 3000)); } catch (e) { log("B_overMaxConnections", { openBefore: 9 + extra.length, error: e.message }); break; }
  }
  for (const c of [...clients.filter((_, i) => i !== 6), ...extra]) await c.end().catch(() => {});
}

// ---------- C. throughput: simple query loop
const slugs = await (async () => {
  const c = await client();
  const r = await c.query("select slug from products order by md5(slug) limit 1000");
  await c.end();
  return r.rows.map((x) => x.slug);
})();
const Q = "select p.id, p.slug, p.name, (select count(*) from vulnerabilities v where v.product_id = p.id)::int as n from products p where p.slug = $1";
const QS = "select $1::int as v";
async function loopPool(size, seconds, text) {
  const pool = new pg.Pool({ connectionString: url, max: size });
  pool.on("error", () => {});
  for (let i = 0; i < 50; i++) await pool.query(text, text === QS ? [i] : [slugs[i % slugs.length]]);
  let n = 0;
  const end = performance.now() + seconds * 1000;
  const lags = [];
  let last = performance.now();
  const timer = setInterval(() => { const now = performance.now(); lags.push(now - last - 10); last = now; }, 10);
  await Promise.all(Array.from({ length: size }, async () => {
    while (performance.now() < end) { const k = n++; await pool.query(text, text === QS ? [k] : [slugs[k % slugs.length]]); }
  }));
  clearInterval(timer);
  await pool.end();
  return { qps: Math.round(n / seconds), maxLoopLagMs: Math.round(Math.max(...lags)) };
}
const runs = {};
for (const [name, size, text] of [["socket_simple_1conn", 1, QS], ["socket_simple_10conn", 10, QS], ["socket_product_1conn", 1, Q], ["socket_product_10conn", 10, Q]]) {
  const xs = [];
  for (let r = 0; r < 3; r++) xs.push({ ...(await loopPool(size, 3, text)), load: loadavg()[0] });
  runs[name] = xs;
  log(name, xs);
}

// ---------- D. main thread's loop while the worker runs a 3+ s statement
{
  const c = await client();
  const lags = [];
  let last = performance.now();
  const timer = setInterval(() => { const now = performance.now(); lags.push(now - last - 10); last = now; }, 10);
  const t = performance.now();
  await c.query("select count(*) from generate_series(1, 20000000)");
  const stmt = (performance.now() - t) / 1000;
  clearInterval(timer);
  await c.end();
  log("D_mainLoopDuringLongStatementInWorker", { statementSeconds: stmt, maxLagMs: Math.round(Math.max(...lags)), ticks: lags.length });
}

// ---------- E. stall: terminate the worker mid-statement, reopen, check committed data
{
  const c = await client();
  await c.query("create table if not exists spike37_durable (x int)");
  await c.query("insert into spike37_durable values (42)");
  const hung = c.query("select count(*) from generate_series(1, 2000000000)").catch((e) => e.message);
  await new Promise((r) => setTimeout(r, 1000));
  const t = performance.now();
  const code = await w.worker.terminate();
  const terminateSec = (performance.now() - t) / 1000;
  const clientSaw = await withTimeout(hung, 5000).catch((e) => e.message);
  const t2 = performance.now();
  w = await startWorker(20);
  const reopenSec = (performance.now() - t2) / 1000;
  const c2 = await client();
  const rows = (await c2.query("select count(*)::int as n from spike37_durable where x = 42")).rows[0].n;
  await c2.end();
  log("E_terminateMidStatement", { terminateSec, exitCode: code, clientSaw, reopenSec, committedRowStillThere: rows === 1 });
}
await closeWorker(w.worker);
await w.worker.terminate();

// ---------- C'. the same loops in process (the repo's design today)
{
  const t = performance.now();
  const db = await PGlite.create(dir, { extensions: { btree_gin, pg_trgm } });
  const openSec = (performance.now() - t) / 1000;
  const res = {};
  for (const [name, text] of [["inprocess_simple", QS], ["inprocess_product", Q]]) {
    const xs = [];
    for (let r = 0; r < 3; r++) {
      for (let i = 0; i < 50; i++) await db.query(text, text === QS ? [i] : [slugs[i]]);
      let n = 0;
      const end = performance.now() + 3000;
      while (performance.now() < end) { const k = n++; await db.query(text, text === QS ? [k] : [slugs[k % slugs.length]]); }
      xs.push({ qps: Math.round(n / 3), load: loadavg()[0] });
    }
    res[name] = xs;
    log(name, xs);
  }
  log("inprocessOpenSec", openSec);
  await db.close();
}
out.loadAtEnd = loadavg();
const { writeFileSync } = await import("node:fs");
writeFileSync("/tmp/spike37/results-socket.json", JSON.stringify(out, null, 2));
process.exit(0);
