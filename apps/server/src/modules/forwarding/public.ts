/**
 * What other modules and the jobs use of `forwarding` besides its service (issue 36: modules meet
 * only through services; its queries stay its own). Forwarding owns the targets, events and
 * deliveries of every owner: a vendor's, and a watchlist's alert webhooks (`watchlists`).
 */

/**
 * The delivery queue jobs/forwarding-worker.ts runs: claims under a lease, attempts, retries, a
 * target's failure streak, and whom to tell when a target is switched off.
 */
/**
 * The targets of an owner, as the forwarding service keeps a vendor's and the watchlists their alert
 * webhooks; a test event to one target; the watchlists' events (alerts, notices) with their
 * deliveries, in the caller's transaction.
 */
export {
  type ClaimedDelivery,
  createDeliveryQueries,
  createTargetQueries,
  insertWatchlistEvents,
  queueTestDelivery,
} from "./queries.ts";
