import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AppOptions, buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import { openSeededTestDatabase, openTestDatabase } from "../db/test-database.ts";

/**
 * An API-only app (unless `web` is given) on a fresh, migrated, empty database of its own (PGlite,
 * or PostgreSQL when DATABASE_URL is set). Call `close()` in afterAll.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  web?: AppOptions["web"],
  /** Another instance on this database (decision 022): closing the app leaves the database open. */
  shared?: Database,
) {
  const database: Database = shared ?? (await openTestDatabase());
  // Attachments go to a throwaway directory, never the repository's data directory.
  const attachmentsDir = mkdtempSync(join(tmpdir(), "pressguard-attachments-"));
  const exportsDir = mkdtempSync(join(tmpdir(), "pressguard-exports-"));
  const config = loadConfig({
    NODE_ENV: "test",
    CAPTCHA: "off",
    ATTACHMENTS_DIR: attachmentsDir,
    EXPORTS_DIR: exportsDir,
    // Tests send everything from one address: the public API's limit is tested where it is meant to be.
    API_RATE_LIMIT_ANONYMOUS: "1000000000",
    // Tests never reach the network: the upstream data sources are off unless a test points them at
    // a stand-in server (decision 035).
    KEV_URL: "off",
    EPSS_URL: "off",
    WPORG_API_URL: "off",
    ...env,
  });
  const app = await buildApp({ config, database, ...(web && { web }) });
  await app.ready();
  return {
    app,
    database,
    async close() {
      await app.close();
      if (!shared) await database.close();
      rmSync(attachmentsDir, { recursive: true, force: true });
      rmSync(exportsDir, { recursive: true, force: true });
    },
  };
}

/**
 * An API-only app on a copy of the run's one seeded database (the whole bundled seed, imported once
 * per run: db/test-database.ts). `summary` is that import's; `close()` closes the app and the copy.
 */
export async function createSeededTestApp(env: Record<string, string> = {}) {
  const seeded = await openSeededTestDatabase();
  const harness = await createTestApp(env, undefined, seeded.database);
  return {
    ...harness,
    summary: seeded.summary,
    async close() {
      await harness.close();
      await seeded.database.close();
    },
  };
}
