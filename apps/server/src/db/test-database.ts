import { randomBytes } from "node:crypto";
import { closeSync, existsSync, openSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { type Database, openDatabase, pgliteOptions } from "./client.ts";
import { readTemplate } from "./pglite-template.ts";
import { type SeedSummary, seedDatabase } from "./seed.ts";

/**
 * A fresh, migrated, empty database for one test file or test: PGlite in memory, or — when
 * DATABASE_URL is set (CI's PostgreSQL run) — a new database `pressguard_test_<random>` on that server,
 * dropped again by `close()`. Test infrastructure only: the one place besides config.ts that reads
 * process.env, so that the same suites run on both engines.
 */
export async function openTestDatabase(): Promise<Database> {
  const url = process.env.DATABASE_URL;
  return url ? openPostgresTestDatabase(url) : openPgliteTestDatabase();
}

/** Where vitest's global setup left the migrated snapshot (vitest.global-setup.ts). */
export const PGLITE_SNAPSHOT_ENV = "PRESSGUARD_TEST_PGLITE_SNAPSHOT";

/** A migrated, empty cluster as a tarball (uncompressed: it is read back at once, many times). */
async function migratedSnapshot(): Promise<Blob> {
  const instance = await PGlite.create(
    "memory://",
    pgliteOptions({ loadDataDir: readTemplate() ?? undefined }),
  );
  try {
    await (await openDatabase({ pglite: instance })).migrate();
    return (await instance.dumpDataDir("none")) as Blob;
  } finally {
    await instance.close();
  }
}

export async function writeMigratedPgliteSnapshot(path: string): Promise<string> {
  writeFileSync(path, Buffer.from(await (await migratedSnapshot()).arrayBuffer()));
  return path;
}

let snapshot: Promise<Blob> | null = null;

/**
 * Loading a migrated snapshot costs a fraction of initdb and the migrations: each database is loaded
 * from the one the global setup wrote, or, outside vitest, from one made once per process.
 */
async function openPgliteTestDatabase(): Promise<Database> {
  return openDatabase({
    pglite: await PGlite.create("memory://", pgliteOptions({ loadDataDir: await migratedBlob() })),
  });
}

/** The migrated database vitest's global setup made on the server, that test databases copy. */
export const POSTGRES_TEMPLATE_ENV = "PRESSGUARD_TEST_POSTGRES_TEMPLATE";

/** A new database `name` on the server, migrated: copied from `template` if given, else migrated here. */
async function createMigratedDatabase(serverUrl: string, name: string, template?: string): Promise<Database> {
  await withAdminClient(serverUrl, (client) =>
    client.query(`create database ${name}${template ? ` template ${template}` : ""}`),
  );
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize: 4 });
  try {
    // On a copy of the template this finds nothing to do.
    await database.migrate();
  } catch (error) {
    await database.close();
    await dropDatabase(serverUrl, name);
    throw error;
  }
  return database;
}

export function dropDatabase(serverUrl: string, name: string): Promise<unknown> {
  return withAdminClient(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
}

/** For vitest's global setup: a migrated database that each test's database is copied from. */
export async function createPostgresTemplate(serverUrl: string): Promise<string> {
  const name = `pressguard_test_template_${randomBytes(6).toString("hex")}`;
  // Closed at once: PostgreSQL copies a template only while nobody is connected to it.
  await (await createMigratedDatabase(serverUrl, name)).close();
  return name;
}

async function openPostgresTestDatabase(serverUrl: string): Promise<Database> {
  const name = `pressguard_test_${randomBytes(6).toString("hex")}`;
  const database = await createMigratedDatabase(serverUrl, name, process.env[POSTGRES_TEMPLATE_ENV]);
  return {
    ...database,
    async close() {
      await database.close();
      await dropDatabase(serverUrl, name);
    },
  };
}

/** One client of its own on `url` for `work` (creating and dropping databases, test set-up), then closed. */
export async function withAdminClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A database holding the whole bundled seed (37,205 records), for the tests that read all of it (the
 * OSV and CSAF validation, the relevance set). The seed is imported once per `vitest run`, by the first
 * test that asks, and every asking test gets its own copy: on PGlite a dump beside the migrated
 * snapshot (the other worker process waits on a lock file), on PostgreSQL a template database (an
 * advisory lock; dropped by the global teardown with the migrated template). `summary` is that one
 * import's.
 */
export async function openSeededTestDatabase(): Promise<{ database: Database; summary: SeedSummary }> {
  const url = process.env.DATABASE_URL;
  return url ? openSeededPostgres(url) : openSeededPglite();
}

/** The seeded template's name on the server: beside the migrated one, which the teardown drops. */
export const seededTemplateOf = (template: string) => `${template}_seeded`;

const WAIT_FOR_SEED_MS = 10 * 60 * 1000;

let seededPglite: Promise<{ dump: Blob; summary: SeedSummary }> | null = null;

async function seedPgliteDump(): Promise<{ dump: Blob; summary: SeedSummary }> {
  const instance = await PGlite.create("memory://", pgliteOptions({ loadDataDir: await migratedBlob() }));
  try {
    const summary = await seedDatabase(await openDatabase({ pglite: instance }));
    return { dump: (await instance.dumpDataDir("none")) as Blob, summary };
  } finally {
    await instance.close();
  }
}

async function migratedBlob(): Promise<Blob> {
  snapshot ??= (async () => {
    const path = process.env[PGLITE_SNAPSHOT_ENV];
    return path ? new Blob([readFileSync(path)]) : migratedSnapshot();
  })();
  return snapshot;
}

/** Made by one process of the run (the lock file's creator); the others wait for its files. */
async function sharedPgliteDump(directory: string): Promise<{ dump: Blob; summary: SeedSummary }> {
  const dumpPath = join(directory, "seeded.tar");
  const summaryPath = join(directory, "seeded.json");
  const failedPath = join(directory, "seeded.failed");
  let mine = false;
  try {
    closeSync(openSync(join(directory, "seeded.lock"), "wx"));
    mine = true;
  } catch {
    // Another worker is seeding: wait below.
  }
  if (mine) {
    try {
      const made = await seedPgliteDump();
      writeFileSync(`${dumpPath}.tmp`, Buffer.from(await made.dump.arrayBuffer()));
      writeFileSync(summaryPath, JSON.stringify(made.summary));
      renameSync(`${dumpPath}.tmp`, dumpPath);
      return made;
    } catch (error) {
      writeFileSync(failedPath, String(error));
      throw error;
    }
  }
  const deadline = Date.now() + WAIT_FOR_SEED_MS;
  while (!existsSync(dumpPath)) {
    if (existsSync(failedPath))
      throw new Error(`seeding the shared test database failed: ${readFileSync(failedPath, "utf8")}`);
    if (Date.now() > deadline) throw new Error("the shared seeded test database was not made in time");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    dump: new Blob([readFileSync(dumpPath)]),
    summary: JSON.parse(readFileSync(summaryPath, "utf8")) as SeedSummary,
  };
}

async function openSeededPglite(): Promise<{ database: Database; summary: SeedSummary }> {
  seededPglite ??= (() => {
    const path = process.env[PGLITE_SNAPSHOT_ENV];
    return path ? sharedPgliteDump(dirname(path)) : seedPgliteDump();
  })();
  const { dump, summary } = await seededPglite;
  const database = await openDatabase({
    pglite: await PGlite.create("memory://", pgliteOptions({ loadDataDir: dump })),
  });
  return { database, summary };
}

async function openSeededPostgres(serverUrl: string): Promise<{ database: Database; summary: SeedSummary }> {
  const migrated = process.env[POSTGRES_TEMPLATE_ENV];
  // Outside vitest's global setup: a seeded database of its own.
  if (!migrated) {
    const database = await openPostgresTestDatabase(serverUrl);
    return { database, summary: await seedDatabase(database) };
  }
  const seeded = seededTemplateOf(migrated);
  const summary = await withAdminClient(serverUrl, async (client) => {
    // One seeding per run: the other workers wait on the lock, then find the template made.
    await client.query("select pg_advisory_lock(hashtext($1))", [seeded]);
    try {
      const found = await client.query<{ summary: string | null }>(
        "select shobj_description(oid, 'pg_database') as summary from pg_database where datname = $1",
        [seeded],
      );
      if (found.rows[0]?.summary) return JSON.parse(found.rows[0].summary) as SeedSummary;
      if (found.rows[0]) await client.query(`drop database ${seeded} with (force)`);
      const database = await createMigratedDatabase(serverUrl, seeded, migrated);
      let made: SeedSummary;
      try {
        made = await seedDatabase(database);
      } finally {
        // Closed before it is copied: PostgreSQL copies a template only while nobody is connected.
        await database.close();
      }
      // The summary rides on the template itself, for the workers that did not seed.
      await client.query(`comment on database ${seeded} is ${client.escapeLiteral(JSON.stringify(made))}`);
      return made;
    } finally {
      await client.query("select pg_advisory_unlock(hashtext($1))", [seeded]);
    }
  });
  const name = `pressguard_test_${randomBytes(6).toString("hex")}`;
  const database = await createMigratedDatabase(serverUrl, name, seeded);
  return {
    summary,
    database: {
      ...database,
      async close() {
        await database.close();
        await dropDatabase(serverUrl, name);
      },
    },
  };
}
