// pglite-socket: a connection whose startup message carries `options` (client.ts's preparedPool does).
import { Worker } from "node:worker_threads";
import pg from "pg";
const dir = process.argv[2];
const worker = new Worker(new URL("./sock-worker.mjs", import.meta.url), { workerData: { dir, port: 5499, maxConnections: 10 } });
worker.on("error", (e) => console.log("worker error:", e.message));
worker.on("exit", (c) => console.log("worker exit", c));
await new Promise((r) => worker.on("message", (m) => m.ready && r()));
process.on("uncaughtException", (e) => console.log("uncaught:", e.message));
const url = "postgres://postgres@127.0.0.1:5499/postgres";
const a = new pg.Client({ connectionString: url }); a.on("error", (e) => console.log("a error", e.message)); await a.connect();
const b = new pg.Client({ connectionString: url, options: "-c plan_cache_mode=force_generic_plan" });
b.on("error", (e) => console.log("b error:", e.message));
try { await b.connect(); console.log("b connected", (await b.query("show plan_cache_mode")).rows); } catch (e) { console.log("b connect failed:", e.message); }
try { console.log("a after:", (await a.query("show plan_cache_mode")).rows); } catch (e) { console.log("a failed after:", e.message); }
const c = new pg.Client({ connectionString: url }); c.on("error", (e) => console.log("c error", e.message));
try { await c.connect(); console.log("c:", (await c.query("select 1 as one")).rows); } catch (e) { console.log("c failed:", e.message); }
// over the limit
const extra = [];
for (let i = 0; i < 10; i++) { const x = new pg.Client({ connectionString: url }); x.on("error", (e) => console.log("x error", e.message)); try { await x.connect(); extra.push(x); } catch (e) { console.log(`connection ${i + 3} failed:`, e.message); break; } }
console.log("open connections:", 2 + extra.length);
process.exit(0);
