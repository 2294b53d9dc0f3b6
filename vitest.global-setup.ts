import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startEmbeddedPostgres } from "./apps/server/src/db/embedded-postgres.ts";
import {
  createPostgresTemplate,
  dropDatabase,
  EMBEDDED_TEST_SERVER_ENV,
  POSTGRES_TEMPLATE_ENV,
  seededTemplateOf,
} from "./apps/server/src/db/test-database.ts";

/** What the embedded server says: only its warnings and errors reach the terminal. */
const quiet = {
  info() {},
  warn: (object: object, message: string) => process.stderr.write(`${message} ${JSON.stringify(object)}\n`),
  error: (object: object, message: string) => process.stderr.write(`${message} ${JSON.stringify(object)}\n`),
};

/**
 * Once per `vitest run`: the server the test databases live on and one migrated template database
 * that each of them is copied from (test-database.ts), instead of each test file running the
 * migrations itself. The server is DATABASE_URL's (CI's PostgreSQL run) or, as `npm start` runs by
 * default, an embedded PostgreSQL in a throwaway directory (decision 037). The worker processes start
 * after this and inherit the variables.
 */
export default async function setup() {
  let serverUrl = process.env.DATABASE_URL;
  let stopEmbedded = async () => {};
  if (!serverUrl) {
    const directory = mkdtempSync(join(tmpdir(), "pressguard-test-pg-"));
    // mkdtemp's 0700 would close it to the account PostgreSQL runs as when vitest runs as root.
    chmodSync(directory, 0o755);
    const embedded = await startEmbeddedPostgres({
      dir: join(directory, "cluster"),
      log: quiet,
      database: "postgres",
      fsync: false,
      // Three workers (vitest.config.ts), each file's database with its pools, and the apps some tests
      // start beside it.
      settings: ["max_connections=300", "shared_buffers=256MB"],
    }).catch((error: unknown) => {
      rmSync(directory, { recursive: true, force: true });
      throw error;
    });
    serverUrl = embedded.url;
    process.env[EMBEDDED_TEST_SERVER_ENV] = serverUrl;
    stopEmbedded = async () => {
      await embedded.stop();
      rmSync(directory, { recursive: true, force: true });
    };
  }
  const url = serverUrl;
  try {
    const template = await createPostgresTemplate(url);
    process.env[POSTGRES_TEMPLATE_ENV] = template;
    // The seeded copy (test-database.ts openSeededTestDatabase) exists if a test asked for it.
    return async () => {
      await dropDatabase(url, seededTemplateOf(template));
      await dropDatabase(url, template);
      await stopEmbedded();
    };
  } catch (error) {
    await stopEmbedded();
    throw error;
  }
}
