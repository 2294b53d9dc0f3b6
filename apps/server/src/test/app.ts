import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AppOptions, buildApp } from "../app.ts";
import { loadConfig } from "../config.ts";
import type { Database } from "../db/client.ts";
import { openTestDatabase } from "../db/test-database.ts";

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
