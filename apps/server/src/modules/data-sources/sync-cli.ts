/**
 * `npm run data:sync`: runs every configured data source once (decision 035), whatever its schedule,
 * against the database the server uses (DATABASE_URL, else PGlite at PGLITE_DIR, migrated first), and
 * prints per source what it did. Exit status: 0 when every configured source synced (or was not
 * modified), 1 when one failed, was being synced elsewhere, or the database could not be opened.
 */
import { ConfigError, loadConfig } from "../../config.ts";
import { DirectoryLockedError } from "../../db/directory-lock.ts";
import { openDatabaseForCommand } from "../../db/embedded-database.ts";
import { dataSourcesOf } from "./registry.ts";
import { createDataSourceService, type SyncOutcome } from "./service.ts";

/** One line per source: `wordfence: 12 new, 3 changed, 42489 unchanged, 0 withdrawn, 1 rejected`. */
function describeOutcome(outcome: SyncOutcome): string {
  switch (outcome.outcome) {
    case "synced": {
      const { counts } = outcome;
      return `${outcome.source}: ${counts.new} new, ${counts.changed} changed, ${counts.unchanged} unchanged, ${counts.withdrawn} withdrawn, ${counts.rejected} rejected`;
    }
    case "not_modified":
      return `${outcome.source}: not modified since the last sync (0 new, 0 changed, 0 withdrawn)`;
    case "failed":
      return `${outcome.source}: failed: ${outcome.error}`;
    case "skipped":
      return `${outcome.source}: skipped: a sync of this source is under way elsewhere`;
  }
}

async function main(): Promise<number> {
  const config = loadConfig();
  const sources = dataSourcesOf(config);
  const database = await openDatabaseForCommand(config.database);
  try {
    await database.migrate();
    const service = createDataSourceService({
      database,
      sources,
      intervalSeconds: config.dataSources.intervalSeconds,
    });
    if (!service.hasConfiguredSources()) {
      process.stdout.write("No data source is configured (see the README's data sources).\n");
      return 0;
    }
    let failed = false;
    for (const outcome of await service.runAll()) {
      process.stdout.write(`${describeOutcome(outcome)}\n`);
      if (outcome.outcome === "synced") {
        for (const rejection of outcome.rejections) {
          process.stdout.write(`  rejected ${rejection.id}: ${rejection.reason}\n`);
        }
      }
      if (outcome.outcome === "failed" || outcome.outcome === "skipped") failed = true;
    }
    return failed ? 1 : 0;
  } finally {
    await database.close();
  }
}

main().then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    const known = error instanceof ConfigError || error instanceof DirectoryLockedError;
    process.stderr.write(`${known ? (error as Error).message : ((error as Error).stack ?? String(error))}\n`);
    process.exitCode = 1;
  },
);
