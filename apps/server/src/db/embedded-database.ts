import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { type Database, type DatabaseOptions, openDatabase } from "./client.ts";
import { acquireDirectoryLock, DirectoryLockedError } from "./directory-lock.ts";
import { type EmbeddedPostgres, runningServerUrl, startEmbeddedPostgres } from "./embedded-postgres.ts";
import { holdsCluster } from "./pglite-template.ts";
import { copyPgliteToPostgres } from "./pglite-to-postgres.ts";

/** The embedded PostgreSQL server the product starts itself when DATABASE_URL is unset (decision 037). */
interface EmbeddedDatabaseOptions {
  embeddedDir: string;
  /** As root: the account PostgreSQL runs as (EMBEDDED_DB_USER). */
  runAs?: string | undefined;
  /** A PGlite directory from an earlier install, copied into a new cluster on its first start. */
  legacyPgliteDir?: string | undefined;
}

/** What config.ts's `database` may be: a server's URL, a PGlite directory, or the embedded server. */
export type ConfiguredDatabase = DatabaseOptions | EmbeddedDatabaseOptions;

/** pino's shape, as much of it as the embedded server's supervisor uses. */
export interface DatabaseLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/** For the command-line tools: the supervisor's warnings and errors go to stderr, one line each. */
const stderrLogger: DatabaseLogger = {
  info: () => {},
  warn: (object, message) => process.stderr.write(`warning: ${message} ${JSON.stringify(object)}\n`),
  error: (object, message) => process.stderr.write(`error: ${message} ${JSON.stringify(object)}\n`),
};

/** Opens the database the configuration names; the embedded server is started (and stopped by `close()`). */
export function openConfiguredDatabase(
  options: ConfiguredDatabase,
  log: DatabaseLogger = stderrLogger,
  /** Tables copied so far and in all, while an earlier install's PGlite data is copied in. */
  onCopyProgress?: (done: number, total: number) => void,
): Promise<Database> {
  return "embeddedDir" in options
    ? openEmbeddedDatabase(options, log, onCopyProgress)
    : openDatabase(options);
}

/** The database Pressguard's tables live in, in the embedded cluster. */
const DATABASE_NAME = "pressguard";

/**
 * For the command-line tools (`db:import`, `data:sync`, `user:create`): as `openConfiguredDatabase`,
 * but while a Pressguard server runs the embedded PostgreSQL of the data directory, the tool connects
 * to that server (closing leaves it running) instead of refusing. A PGlite directory, which one
 * process holds, is still refused.
 */
export async function openDatabaseForCommand(
  options: ConfiguredDatabase,
  log: DatabaseLogger = stderrLogger,
): Promise<Database> {
  try {
    return await openConfiguredDatabase(options, log);
  } catch (error) {
    if (!(error instanceof DirectoryLockedError) || !("embeddedDir" in options)) throw error;
    const url = runningServerUrl(resolve(options.embeddedDir), DATABASE_NAME);
    if (!url) throw error;
    log.info({ pid: error.ownerPid }, "using the embedded PostgreSQL server of the running process");
    return openDatabase({ url, poolSize: 2 });
  }
}

/**
 * Takes the directory's lock (one process per data directory: the supervisor would otherwise stop the
 * other process's server as an orphan), starts the server, and on the very first start of an install
 * that ran PGlite before, copies that data in: `migrate()` is then already done.
 */
async function openEmbeddedDatabase(
  options: EmbeddedDatabaseOptions,
  log: DatabaseLogger,
  onCopyProgress?: (done: number, total: number) => void,
): Promise<Database> {
  const dir = resolve(options.embeddedDir);
  mkdirSync(dirname(dir), { recursive: true });
  const lock = acquireDirectoryLock(dir);
  let server: EmbeddedPostgres | null = null;
  let database: Database | null = null;
  const isNew = !holdsCluster(dir);
  try {
    server = await startEmbeddedPostgres({ dir, log, database: DATABASE_NAME, runAs: options.runAs });
    database = await openDatabase({ url: server.url });
    const legacy = options.legacyPgliteDir ? resolve(options.legacyPgliteDir) : null;
    if (isNew && legacy && holdsCluster(legacy))
      await copyLegacyPglite(legacy, database, log, onCopyProgress);
  } catch (error) {
    await database?.close().catch(() => {});
    await server?.stop().catch(() => {});
    // A cluster made by this failed start holds nothing of the user's: the next start begins afresh.
    if (isNew && server) rmSync(dir, { recursive: true, force: true });
    lock.release();
    throw error;
  }
  const opened = database;
  const running = server;
  return {
    ...opened,
    lockPath: lock.path,
    enginePid: running.pidCell,
    async close() {
      try {
        await opened.close();
        await running.stop();
      } finally {
        lock.release();
      }
    },
  };
}

/**
 * PostgreSQL cannot open PGlite's directory, so an earlier install's data is copied row by row. The
 * PGlite directory is kept, renamed, until its owner removes it.
 */
async function copyLegacyPglite(
  legacy: string,
  target: Database,
  log: DatabaseLogger,
  onProgress?: (done: number, total: number) => void,
) {
  log.info({ from: legacy }, "copying the data of the earlier embedded engine (PGlite) into PostgreSQL");
  const source = await openDatabase({ pgliteDir: legacy });
  try {
    await source.migrate();
    await target.migrate();
    const copied = await copyPgliteToPostgres(source, target, {
      onProgress: (progress) => onProgress?.(progress.done, progress.tables),
    });
    // A copy leaves the planner no statistics until autovacuum comes round: the first pages would pay.
    await target.sql.query("analyze");
    log.info({ ...copied, from: legacy }, "copied the PGlite data into the embedded PostgreSQL");
  } finally {
    await source.close();
  }
  let kept = `${legacy}.copied-to-postgres`;
  for (let n = 2; existsSync(kept); n++) kept = `${legacy}.copied-to-postgres-${n}`;
  renameSync(legacy, kept);
  log.warn({ kept }, "the PGlite directory is no longer used: remove it once the copy is checked");
}
