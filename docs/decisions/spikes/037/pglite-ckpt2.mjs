// PGlite with max_wal_size 64MB (ALTER SYSTEM, kept in postgresql.auto.conf): does the WAL come down?
import { PGlite } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { execFileSync } from "node:child_process";
const dir = process.argv[2];
const du = (p = "pg_wal") => execFileSync("du", ["-sm", `${dir}/${p}`]).toString().split("\t")[0];
let db = await PGlite.create(dir, { extensions: { btree_gin, pg_trgm } });
await db.query("alter system set max_wal_size = '64MB'");
await db.query("alter system set min_wal_size = '32MB'");
await db.close();
db = await PGlite.create(dir, { extensions: { btree_gin, pg_trgm } });
console.log("max_wal_size now", (await db.query("show max_wal_size")).rows[0].max_wal_size, "WAL MB", du());
for (let i = 0; i < 12; i++) { await db.query("select pg_switch_wal()"); await db.query("checkpoint"); }
console.log("after 12 switch+checkpoint: WAL MB", du(), "base MB", du("base"));
await db.close();
