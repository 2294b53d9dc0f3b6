import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createGunzip } from "node:zlib";
import type { Database } from "./client.ts";
import { type ImportProgress, type ImportSummary, importPlugins, importVulnerabilities } from "./import.ts";

/** The real WordPress vulnerability data shipped with the repository (see its README). */
export const DEFAULT_SEED_DIR = resolve(
  dirname(fileURLToPath(import.meta.url)),
  "../../../../data/seed/wordpress-vulns",
);

/** The seed's files in import order: the plugin directory first, so products get directory names. */
const SEED_FILES = [
  { kind: "plugins", name: "plugins.jsonl.gz", run: importPlugins },
  { kind: "vulns", name: "vulns.jsonl.gz", run: importVulnerabilities },
] as const;

export interface SeedOptions {
  /** Holds plugins.jsonl.gz and vulns.jsonl.gz; defaults to {@link DEFAULT_SEED_DIR}. */
  dataDir?: string;
  onProgress?: (progress: ImportProgress) => void;
}

export interface SeedSummary {
  /** Null when this exact file had already been imported into the database (by a seed or db:import). */
  plugins: ImportSummary | null;
  vulnerabilities: ImportSummary | null;
}

/**
 * Imports the bundled seed: the plugin directory first, so that products are created with their
 * directory names, then the vulnerabilities. A file whose exact contents an earlier seed or
 * `npm run db:import` already imported is skipped; anything else is imported (idempotently), so a
 * seed interrupted half-way resumes where its records changed.
 */
export async function seedDatabase(database: Database, options: SeedOptions = {}): Promise<SeedSummary> {
  const dataDir = options.dataDir ?? DEFAULT_SEED_DIR;
  const digests = await Promise.all(SEED_FILES.map((file) => fileDigest(join(dataDir, file.name))));
  const pending = await Promise.all(
    digests.map(async (digest) => !(await wasFileImported(database, digest))),
  );
  const summaries: (ImportSummary | null)[] = [];
  for (const [index, file] of SEED_FILES.entries()) {
    if (!pending[index]) {
      summaries.push(null);
      continue;
    }
    // The vulnerability file's statistics cover the products: the plugin file's would be gathered twice.
    const analyze = !pending.slice(index + 1).some(Boolean);
    const importOptions = { analyze, ...(options.onProgress && { onProgress: options.onProgress }) };
    summaries.push(await file.run(database, join(dataDir, file.name), importOptions));
    await recordImportedFile(database, digests[index]!);
  }
  const [plugins = null, vulnerabilities = null] = summaries;
  await markSeeded(database, { plugins: plugins?.imported, vulnerabilities: vulnerabilities?.imported });
  return { plugins, vulnerabilities };
}

/** Whether a seed import ran to its end on this database (the server seeds one that has none). */
export async function isDatabaseSeeded(database: Database): Promise<boolean> {
  const { rows } = await database.sql.query<{ seeded: boolean }>(
    "select exists (select 1 from app_state where key = 'seed') as seeded",
  );
  return rows[0]?.seeded === true;
}

/**
 * After `npm run db:import` of a file: remembers its contents, and marks the database seeded once
 * both bundled files are in, so that the next `npm start` does not import them again.
 */
export async function recordImportedSeedFile(
  database: Database,
  path: string,
  dataDir = DEFAULT_SEED_DIR,
): Promise<void> {
  await recordImportedFile(database, await fileDigest(path));
  for (const file of SEED_FILES) {
    if (!(await wasFileImported(database, await fileDigest(join(dataDir, file.name))))) return;
  }
  if (!(await isDatabaseSeeded(database))) await markSeeded(database, { by: "db:import" });
}

/**
 * The number of records in the seed's files (their lines; the seed has no blank ones): the first
 * start's progress total. Counts newline bytes of the decompressed stream, which takes a tenth of what
 * splitting it into lines does.
 */
export async function countSeedRecords(dataDir = DEFAULT_SEED_DIR): Promise<number> {
  let count = 0;
  for (const file of SEED_FILES) {
    let last = 10;
    for await (const chunk of createReadStream(join(dataDir, file.name)).pipe(
      createGunzip(),
    ) as AsyncIterable<Buffer>) {
      for (let index = chunk.indexOf(10); index !== -1; index = chunk.indexOf(10, index + 1)) count++;
      last = chunk.at(-1) ?? last;
    }
    if (last !== 10) count++;
  }
  return count;
}

async function markSeeded(database: Database, details: Record<string, unknown>): Promise<void> {
  // Recorded last: a first start interrupted half-way imports again on the next start.
  await database.sql.query(
    `insert into app_state (key, value) values ('seed', $1::jsonb)
     on conflict (key) do update set value = excluded.value, updated_at = now()`,
    [JSON.stringify({ completedAt: new Date().toISOString(), ...details })],
  );
}

const importedFileKey = (digest: string) => `imported_file:${digest}`;

async function wasFileImported(database: Database, digest: string): Promise<boolean> {
  const { rows } = await database.sql.query<{ found: boolean }>(
    "select exists (select 1 from app_state where key = $1) as found",
    [importedFileKey(digest)],
  );
  return rows[0]?.found === true;
}

async function recordImportedFile(database: Database, digest: string): Promise<void> {
  await database.sql.query(
    `insert into app_state (key, value) values ($1, $2::jsonb)
     on conflict (key) do update set value = excluded.value, updated_at = now()`,
    [importedFileKey(digest), JSON.stringify({ importedAt: new Date().toISOString() })],
  );
}

function fileDigest(path: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const hash = createHash("sha256");
    createReadStream(path)
      .on("error", reject)
      .on("data", (chunk) => hash.update(chunk))
      .on("end", () => resolvePromise(hash.digest("hex")));
  });
}
