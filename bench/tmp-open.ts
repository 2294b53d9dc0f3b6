import { openDatabase } from "../apps/server/src/db/client.ts";
const t0 = performance.now();
const database = await openDatabase({ pgliteDir: process.env.PGLITE_DIR } as never);
const t1 = performance.now();
await database.migrate();
const t2 = performance.now();
console.log({ open: t1 - t0, migrate: t2 - t1 });
await database.close();
