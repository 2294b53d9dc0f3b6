import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { btree_gin } from "@electric-sql/pglite/contrib/btree_gin";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { isDatabaseUnavailable } from "./connection-errors.ts";
import { acquireDirectoryLock, type DirectoryLock } from "./directory-lock.ts";
import { holdsCluster, readTemplate } from "./pglite-template.ts";
import * as schema from "./schema/index.ts";

const MIGRATIONS_FOLDER = resolve(dirname(fileURLToPath(import.meta.url)), "migrations");

type Schema = typeof schema;
/** The Drizzle API shared by both drivers. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/** Raw parameterised SQL, for bulk work Drizzle's builder would expand badly (e.g. `unnest($1::text[])`). */
export interface SqlRunner {
  query<Row = Record<string, unknown>>(
    text: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<{ rows: Row[] }>;
  /** Runs `work` in one transaction on one connection. */
  transaction<T>(work: (tx: SqlRunner) => Promise<T>): Promise<T>;
}

interface QueryOptions {
  /**
   * The hottest public reads (the search, the batch check): on PostgreSQL a named statement per
   * distinct text, run on connections that plan each statement once (`plan_cache_mode =
   * force_generic_plan`): parsing and planning were a third of a search's cost, and PostgreSQL's own
   * choice kept re-planning (bench/README.md). Only for statements whose best plan does not hinge on
   * a parameter's value. PGlite runs it as any other query.
   */
  prepare?: boolean;
}

/** One name per statement text: node-postgres refuses a name reused for another text. */
const statementNames = new Map<string, string>();
function statementNameOf(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `q_${createHash("sha1").update(text).digest("hex").slice(0, 24)}`;
    // Texts are built from fixed fragments, so there are few; the bound only guards against a bug.
    if (statementNames.size >= 10_000) statementNames.clear();
    statementNames.set(text, name);
  }
  return name;
}

export interface Database {
  kind: "pglite" | "postgres";
  db: Db;
  sql: SqlRunner;
  /** Public reads: the replica when DATABASE_READ_URL is set, otherwise the primary. */
  read: Db;
  /** The embedded database's lock file, which this process alone holds (null without one). */
  lockPath: string | null;
  /** How another thread opens its own connections to this database; null on PGlite, held by one. */
  connection: { url: string; readUrl?: string | undefined } | null;
  /** The embedded PostgreSQL's postmaster pid, kept current across its restarts (embedded-postgres.ts). */
  enginePid?: Int32Array<SharedArrayBuffer>;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseOptions =
  | { url: string; readUrl?: string | undefined; poolSize?: number }
  | { pgliteDir: string }
  | { pglite: PGlite };

/**
 * Every PGlite cluster is created with these: the extensions the migrations create (PostgreSQL has
 * them in its contrib package). `pg_trgm`: typo and prefix matching of the search (issue 17);
 * `btree_gin`: the search's filters in the GIN index of its words (migration 0024).
 */
export const pgliteOptions = (options: Omit<PGliteOptions, "extensions"> = {}): PGliteOptions => ({
  ...options,
  extensions: { btree_gin, pg_trgm },
});

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if ("url" in options) return openPostgres(options.url, options.readUrl, options.poolSize ?? 10);
  if ("pglite" in options) return wrapPglite(options.pglite, null);
  return openPgliteDir(options.pgliteDir);
}

async function openPgliteDir(dataDir: string): Promise<Database> {
  if (dataDir.startsWith("memory://")) return wrapPglite(await PGlite.create(dataDir, pgliteOptions()), null);
  const absolute = resolve(dataDir);
  // PGlite's own mkdir is not recursive, and it has no cross-process lock: two processes on one
  // data dir corrupt it silently, so we take our own lock before opening it.
  mkdirSync(dirname(absolute), { recursive: true });
  const lock = acquireDirectoryLock(absolute);
  try {
    // A new directory starts from the snapshot of an empty cluster instead of running initdb.
    const template = holdsCluster(absolute) ? null : readTemplate();
    return wrapPglite(
      await PGlite.create(absolute, pgliteOptions(template ? { loadDataDir: template } : {})),
      lock,
    );
  } catch (error) {
    lock.release();
    throw error;
  }
}

function wrapPglite(client: PGlite, lock: DirectoryLock | null): Database {
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  const runner = (q: Pick<PGlite, "query">): SqlRunner => ({
    async query<Row>(text: string, params?: unknown[]) {
      const result = await q.query<Row>(text, params);
      return { rows: result.rows };
    },
    transaction: (work) => client.transaction((tx) => work(runner(tx))),
  });
  return {
    kind: "pglite",
    db,
    read: db,
    lockPath: lock?.path ?? null,
    connection: null,
    sql: runner(client),
    migrate: () => migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_FOLDER }),
    async close() {
      try {
        if (!client.closed) await client.close();
      } finally {
        lock?.release();
      }
    },
  };
}

/**
 * Runs `work` on a client checked out of `pool`. While checked out, a client's lost connection (a
 * restart or failover: 57P01, a reset socket) is an 'error' event on the client itself — the pool's
 * listener covers idle clients only — and an unhandled one ends the process. So it is listened to for
 * the whole checkout: the query in flight rejects (the request answers 503), and the client goes back
 * to the pool as broken, to be replaced by a new connection.
 */
async function withClient<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let lost: Error | undefined;
  const onError = (error: Error) => {
    lost = error;
  };
  client.on("error", onError);
  try {
    return await work(client);
  } catch (error) {
    if (isDatabaseUnavailable(error)) lost ??= error as Error;
    throw error;
  } finally {
    client.off("error", onError);
    client.release(lost);
  }
}

function openPostgres(url: string, readUrl: string | undefined, poolSize: number): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client losing its server (restart, failover) must not crash the process; the pool
  // replaces it on the next checkout.
  pool.on("error", () => {});
  const readPool = readUrl ? new pg.Pool({ connectionString: readUrl, max: poolSize }) : null;
  readPool?.on("error", () => {});
  // Connections for `prepare: true` statements only (decision 014); opened on first use.
  const preparedPool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    options: "-c plan_cache_mode=force_generic_plan",
  });
  preparedPool.on("error", () => {});
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  const clientRunner = (client: pg.PoolClient): SqlRunner => ({
    async query<Row>(text: string, params?: unknown[]) {
      const result = await client.query(text, params);
      return { rows: result.rows as Row[] };
    },
    transaction: (work) => work(clientRunner(client)),
  });
  return {
    kind: "postgres",
    db,
    read: readPool ? (drizzlePg(readPool, { schema }) as unknown as Db) : db,
    lockPath: null,
    connection: { url, readUrl },
    sql: {
      async query<Row>(text: string, params?: unknown[], options?: QueryOptions) {
        const result = options?.prepare
          ? await preparedPool.query({ name: statementNameOf(text), text, values: params })
          : await pool.query(text, params);
        return { rows: result.rows as Row[] };
      },
      transaction: (work) =>
        withClient(pool, async (client) => {
          await client.query("begin");
          try {
            const result = await work(clientRunner(client));
            await client.query("commit");
            return result;
          } catch (error) {
            await client.query("rollback").catch(() => {});
            throw error;
          }
        }),
    },
    async migrate() {
      // Several instances may start at once on one database: serialise their migrations.
      await withClient(pool, async (client) => {
        try {
          await client.query("select pg_advisory_lock(72707370)");
          await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_FOLDER });
        } finally {
          await client.query("select pg_advisory_unlock(72707370)").catch(() => {});
        }
      });
    },
    async close() {
      await Promise.all([pool.end(), readPool?.end(), preparedPool.end()]);
    },
  };
}
