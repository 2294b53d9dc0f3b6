import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createPostgresTemplate,
  dropDatabase,
  PGLITE_SNAPSHOT_ENV,
  POSTGRES_TEMPLATE_ENV,
  seededTemplateOf,
  writeMigratedPgliteSnapshot,
} from "./apps/server/src/db/test-database.ts";

/**
 * Once per `vitest run`, one migrated database that every test database is copied from
 * (test-database.ts), instead of each test file running initdb and the migrations itself — that was
 * most of the embedded run's time. On PGlite a dump in a file every test process loads; on PostgreSQL
 * (DATABASE_URL) a template database. The worker processes start after this and inherit the variable.
 */
export default async function setup() {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const template = await createPostgresTemplate(serverUrl);
    process.env[POSTGRES_TEMPLATE_ENV] = template;
    // The seeded copy (test-database.ts openSeededTestDatabase) exists if a test asked for it.
    return async () => {
      await dropDatabase(serverUrl, seededTemplateOf(template));
      await dropDatabase(serverUrl, template);
    };
  }
  const directory = mkdtempSync(join(tmpdir(), "pressguard-test-snapshot-"));
  process.env[PGLITE_SNAPSHOT_ENV] = await writeMigratedPgliteSnapshot(join(directory, "migrated.tar"));
  return () => rmSync(directory, { recursive: true, force: true });
}
