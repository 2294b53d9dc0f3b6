import type { Database } from "./client.ts";
import { countSeedRecords, isDatabaseSeeded, seedDatabase } from "./seed.ts";

/** Seconds between two progress lines on the console. */
const PROGRESS_EVERY_SECONDS = 2;

export interface FirstStartSeedOptions {
  /** Called after every batch with the records done and in all (the preparing page shows them). */
  onProgress?: (done: number, total: number) => void;
  log?: (line: string) => void;
  dataDir?: string;
}

/**
 * The first start's import of the bundled data, when the database has never been seeded: one progress
 * line every few seconds (records done of all, elapsed time) and a closing line with the figures.
 * Returns whether it imported.
 */
export async function seedOnFirstStart(
  database: Database,
  options: FirstStartSeedOptions = {},
): Promise<boolean> {
  if (await isDatabaseSeeded(database)) return false;
  const log = options.log ?? ((line: string) => console.info(line));
  const startedAt = performance.now();
  const elapsed = () => `${((performance.now() - startedAt) / 1000).toFixed(1)} s`;
  const total = await countSeedRecords(options.dataDir);
  log(
    `First start: importing the bundled WordPress vulnerability data (${total.toLocaleString("en")} records)…`,
  );

  const doneByKind = { plugins: 0, vulns: 0 };
  let lastLine = performance.now();
  const { plugins, vulnerabilities } = await seedDatabase(database, {
    ...(options.dataDir && { dataDir: options.dataDir }),
    onProgress(progress) {
      doneByKind[progress.kind] = progress.imported + progress.rejected;
      const done = doneByKind.plugins + doneByKind.vulns;
      options.onProgress?.(done, total);
      if (performance.now() - lastLine >= PROGRESS_EVERY_SECONDS * 1000) {
        lastLine = performance.now();
        const percent = Math.floor((done / total) * 100);
        log(
          `  ${done.toLocaleString("en")} of ${total.toLocaleString("en")} records (${percent}%), ${elapsed()}`,
        );
      }
    },
  });
  const rejected = (plugins?.rejected.length ?? 0) + (vulnerabilities?.rejected.length ?? 0);
  log(
    `Imported ${plugins?.imported ?? 0} plugins and ${vulnerabilities?.imported ?? 0} vulnerabilities ` +
      `(${rejected} rejected lines) in ${elapsed()}`,
  );
  return true;
}
