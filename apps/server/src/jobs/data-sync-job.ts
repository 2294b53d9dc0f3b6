import type { DataSourceService } from "../modules/data-sources/service.ts";
import { periodicRunner } from "./periodic-job.ts";

/** The schedule looks for due sources this often at most (seconds); each source runs once per interval. */
const MAX_TICK_SECONDS = 60;
/** The first look, soon after start: a source whose last success is older than the interval runs then. */
const FIRST_TICK_SECONDS = 10;

/**
 * The data sources' schedule (issue 34, decision 035): every configured source runs once per
 * DATA_SYNC_INTERVAL_SECONDS across all instances (the claim in `data_sources` decides which), soon
 * after start when its last success is older than that, and not before its back-off after failures.
 */
export function createDataSyncJob(dataSources: Pick<DataSourceService, "runDue">) {
  const runner = periodicRunner(() => dataSources.runDue(), { firstRunAfterSeconds: FIRST_TICK_SECONDS });
  return {
    start(intervalSeconds: number, onError: (error: unknown) => void) {
      runner.start(Math.min(intervalSeconds, MAX_TICK_SECONDS), onError);
    },
    stop: () => runner.stop(),
  };
}
