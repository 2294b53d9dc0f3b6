import { createWatchAlertService, type WatchAlertServiceOptions } from "../modules/watchlists/public.ts";
import { periodicRunner } from "./periodic-job.ts";

/**
 * The watchlist alert job (issue 20, decision 031): every WATCH_ALERT_INTERVAL_SECONDS, the
 * watchlists module's alert pass (`watchlists/alert-service.ts`): the records written since the last
 * run are fingerprinted, those that moved are matched against the watched entries, kept, queued to
 * the watchlists' webhooks and mailed. Several instances share the work: its claims skip the rows
 * another holds (FOR UPDATE SKIP LOCKED).
 */
export function createWatchAlertJob(options: WatchAlertServiceOptions) {
  const alerts = createWatchAlertService(options);

  /** One pass; `now` is the job's clock. */
  const runOnce = (now: Date = new Date()) => alerts.alertPending(now);

  // Not at start: the first start's import leaves every record pending, and the first pages come first.
  return { runOnce, ...periodicRunner(runOnce, { runNow: false }) };
}
