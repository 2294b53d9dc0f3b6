/**
 * What the jobs use of `watchlists` besides its services (issue 36: modules meet only through
 * services; its queries stay its own): the alert pass jobs/watch-alert-job.ts runs on its timer
 * (decision 031): the pending records claimed and fingerprinted, their watchers' alerts kept, queued
 * to the watchlists' webhooks and mailed.
 */
export { createWatchAlertService, type WatchAlertServiceOptions } from "./alert-service.ts";
