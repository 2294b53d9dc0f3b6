import { randomBytes } from "node:crypto";
import pg from "pg";
import { type Database, openDatabase } from "./client.ts";
import { type SeedSummary, seedDatabase } from "./seed.ts";

/**
 * Where vitest's global setup started the embedded PostgreSQL server that the run's test databases
 * live on, when DATABASE_URL names no server of its own (vitest.global-setup.ts).
 */
export const EMBEDDED_TEST_SERVER_ENV = "PRESSGUARD_TEST_EMBEDDED_URL";

/** The server test databases are made on: DATABASE_URL (CI's PostgreSQL run), else the run's embedded one. */
function requireTestServerUrl(): string {
  const url = process.env.DATABASE_URL || process.env[EMBEDDED_TEST_SERVER_ENV];
  if (!url)
    throw new Error("Test databases need vitest's global setup (vitest.global-setup.ts) or DATABASE_URL.");
  return url;
}

/**
 * A fresh, migrated, empty database for one test file or test: a new database
 * `pressguard_test_<random>` on the run's server (testServerUrl), dropped again by `close()`. Test
 * infrastructure only: the one place besides config.ts that reads process.env, so that the same
 * suites run on both servers.
 */
export async function openTestDatabase(): Promise<Database> {
  return openPostgresTestDatabase(requireTestServerUrl());
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
 * test that asks, and every asking test gets its own copy of a template database (an advisory lock
 * makes the other workers wait; the global teardown drops it with the migrated template). `summary`
 * is that one import's.
 */
export async function openSeededTestDatabase(): Promise<{ database: Database; summary: SeedSummary }> {
  return openSeededPostgres(requireTestServerUrl());
}

/** The seeded template's name on the server: beside the migrated one, which the teardown drops. */
export const seededTemplateOf = (template: string) => `${template}_seeded`;

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
