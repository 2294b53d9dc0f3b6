import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Database } from "./client.ts";
import { type ImportProgress, type ImportSummary, importPlugins, importVulnerabilities } from "./import.ts";

/** The real WordPress vulnerability data shipped with the repository (see its README). */
export const DEFAULT_SEED_DIR = resolve(
  dirname(fileURLToPath(import.meta.url)),
  "../../../../data/seed/wordpress-vulns",
);

export interface SeedOptions {
  /** Holds plugins.jsonl.gz and vulns.jsonl.gz; defaults to {@link DEFAULT_SEED_DIR}. */
  dataDir?: string;
  onProgress?: (progress: ImportProgress) => void;
}

export interface SeedSummary {
  plugins: ImportSummary;
  vulnerabilities: ImportSummary;
}

/**
 * Imports the bundled seed: the plugin directory first, so that products are created with their
 * directory names, then the vulnerabilities. Safe to run again (the imports are idempotent).
 */
export async function seedDatabase(database: Database, options: SeedOptions = {}): Promise<SeedSummary> {
  const dataDir = options.dataDir ?? DEFAULT_SEED_DIR;
  const importOptions = options.onProgress ? { onProgress: options.onProgress } : {};
  const plugins = await importPlugins(database, join(dataDir, "plugins.jsonl.gz"), importOptions);
  const vulnerabilities = await importVulnerabilities(
    database,
    join(dataDir, "vulns.jsonl.gz"),
    importOptions,
  );
  // Recorded last: a first start interrupted half-way imports again on the next start.
  await database.sql.query(
    `insert into app_state (key, value) values ('seed', $1::jsonb)
     on conflict (key) do update set value = excluded.value, updated_at = now()`,
    [
      JSON.stringify({
        completedAt: new Date().toISOString(),
        plugins: plugins.imported,
        vulnerabilities: vulnerabilities.imported,
      }),
    ],
  );
  return { plugins, vulnerabilities };
}

/** Whether a seed import ran to its end on this database (the server seeds one that has none). */
export async function isDatabaseSeeded(database: Database): Promise<boolean> {
  const { rows } = await database.sql.query<{ seeded: boolean }>(
    "select exists (select 1 from app_state where key = 'seed') as seeded",
  );
  return rows[0]?.seeded === true;
}
