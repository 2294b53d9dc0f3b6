/**
 * What the jobs use of `watchlists` besides its services (issue 36: modules meet only through
 * services; its queries stay its own): the alerts' SQL jobs/watch-alert-job.ts runs (decision 031):
 * claims of the pending records, the entries they name, the alerts kept, queued and mailed.
 */
export { createAlertQueries, type WatchedEntry } from "./alert-queries.ts";
