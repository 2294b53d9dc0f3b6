import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * A new PGlite data directory starts from a snapshot of an empty cluster, as `initdb` leaves it, taken
 * with PGlite's own `dumpDataDir` and loaded with its `loadDataDir` (decision 016). Running PGlite's
 * `initdb` instead costs 5–7 s of a 30 s first start on a quiet 2-core machine, and four times that
 * when the disk is busy; loading the snapshot costs about one second. The snapshot holds no schema and
 * no data: migrations and the seed run as on any new database. A snapshot is only valid for the PGlite
 * release that made it, so its name carries that release; with none for the installed release, a new
 * directory is made by `initdb` as before (and a test fails until `npm run db:template` is run).
 */
export const TEMPLATE_DIR = resolve(
  dirname(fileURLToPath(import.meta.url)),
  "../../../../data/pglite-template",
);

/** The installed PGlite release (its package.json is not among the package's exports). */
export function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  let directory = dirname(entry);
  while (!existsSync(join(directory, "package.json"))) directory = dirname(directory);
  return (JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as { version: string }).version;
}

export function templatePath(version = pgliteVersion()): string {
  return join(TEMPLATE_DIR, `initdb-pglite-${version}.tar.gz`);
}

/** The snapshot for the installed PGlite release, if the repository has one. */
export function readTemplate(): Blob | null {
  const path = templatePath();
  return existsSync(path) ? new Blob([readFileSync(path)]) : null;
}

/** Whether a directory already holds a PostgreSQL cluster (PGlite's own test). */
export function holdsCluster(dataDir: string): boolean {
  return existsSync(join(dataDir, "PG_VERSION"));
}
