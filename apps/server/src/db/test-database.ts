import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { type Database, openDatabase, pgliteOptions } from "./client.ts";
import { readTemplate } from "./pglite-template.ts";

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
  snapshot ??= (async () => {
    const path = process.env[PGLITE_SNAPSHOT_ENV];
    return path ? new Blob([readFileSync(path)]) : migratedSnapshot();
  })();
  return openDatabase({
    pglite: await PGlite.create("memory://", pgliteOptions({ loadDataDir: await snapshot })),
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
