/**
 * `npm run db:template`: writes the snapshot of an empty PGlite cluster that new data directories start
 * from (see pglite-template.ts). Run it after upgrading @electric-sql/pglite, and commit the file.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pgliteVersion, TEMPLATE_DIR, templatePath } from "./pglite-template.ts";

const cluster = await PGlite.create("memory://");
const snapshot = await cluster.dumpDataDir("gzip");
await cluster.close();
mkdirSync(TEMPLATE_DIR, { recursive: true });
const path = templatePath();
// Snapshots of other releases are useless once this one is installed.
for (const name of readdirSync(TEMPLATE_DIR)) {
  if (name.startsWith("initdb-pglite-") && join(TEMPLATE_DIR, name) !== path)
    rmSync(join(TEMPLATE_DIR, name));
}
writeFileSync(path, Buffer.from(await snapshot.arrayBuffer()));
process.stdout.write(`Wrote ${path} (${snapshot.size} bytes) for PGlite ${pgliteVersion()}\n`);
