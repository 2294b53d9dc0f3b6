// Does a CHECKPOINT shrink PGlite's WAL? (issue 37: 337 MB of WAL never recycled)
import { PGlite } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { execFileSync } from "node:child_process";
const dir = process.argv[2];
const du = () => execFileSync("du", ["-sm", `${dir}/pg_wal`]).toString().split("\t")[0];
const db = await PGlite.create(dir, { extensions: { btree_gin, pg_trgm } });
const show = async (n) => (await db.query(`show ${n}`)).rows[0][n];
console.log("max_wal_size", await show("max_wal_size"), "min_wal_size", await show("min_wal_size"), "wal_recycle", await show("wal_recycle"), "WAL MB before", du());
for (let i = 0; i < 3; i++) { await db.query("select pg_switch_wal()").catch((e) => console.log(e.message)); await db.query("checkpoint"); console.log(`after switch+checkpoint ${i + 1}: WAL MB`, du()); }
await db.close();
console.log("after close: WAL MB", du());
