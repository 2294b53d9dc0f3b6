// Worker thread: PGlite 0.5.16 (the repo's version) on a data directory, behind pglite-socket 0.2.17.
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

const t = performance.now();
const db = await PGlite.create(workerData.dir, { extensions: { btree_gin, pg_trgm } });
const opened = (performance.now() - t) / 1000;
const server = new PGLiteSocketServer({
  db,
  host: "127.0.0.1",
  port: workerData.port,
  maxConnections: workerData.maxConnections ?? 10,
});
await server.start();
parentPort.postMessage({ ready: true, opened, version: (await db.query("select version()")).rows[0].version });
parentPort.on("message", async (m) => {
  if (m === "close") {
    await server.stop();
    await db.close();
    parentPort.postMessage({ closed: true });
  }
});
