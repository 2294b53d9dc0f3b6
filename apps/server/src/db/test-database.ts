import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { type Database, openDatabase } from "./client.ts";

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

let template: Promise<PGlite> | null = null;

/** Migrating costs ~2 s, cloning ~0.4 s: migrate one instance per process and clone it per database. */
async function openPgliteTestDatabase(): Promise<Database> {
  template ??= (async () => {
    const instance = await PGlite.create("memory://");
    await (await openDatabase({ pglite: instance })).migrate();
    return instance;
  })();
  // clone() is typed as the interface, but returns a PGlite.
  const copy = (await (await template).clone()) as PGlite;
  return openDatabase({ pglite: copy });
}

async function openPostgresTestDatabase(serverUrl: string): Promise<Database> {
  const name = `pressguard_test_${randomBytes(6).toString("hex")}`;
  await withAdminClient(serverUrl, (client) => client.query(`create database ${name}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize: 4 });
  try {
    await database.migrate();
  } catch (error) {
    await database.close();
    await withAdminClient(serverUrl, (client) => client.query(`drop database if exists ${name}`));
    throw error;
  }
  return {
    ...database,
    async close() {
      await database.close();
      await withAdminClient(serverUrl, (client) =>
        client.query(`drop database if exists ${name} with (force)`),
      );
    },
  };
}

async function withAdminClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
