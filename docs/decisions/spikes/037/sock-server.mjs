// Option 1 as a child process: PGlite 0.5.16 on a data directory behind pglite-socket 0.2.17 on TCP.
// usage: node sock-server.mjs <dir> <port> [maxConnections]
import { PGlite } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
const [dir, port, max] = process.argv.slice(2);
const db = await PGlite.create(dir, { extensions: { btree_gin, pg_trgm } });
const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: Number(port), maxConnections: Number(max ?? 40) });
server.addEventListener("error", (e) => console.error("socket server error:", e.detail?.message ?? e.detail));
await server.start();
console.log("ready");
process.on("SIGTERM", async () => { await server.stop(); await db.close(); process.exit(0); });
