/**
 * What other modules and the jobs use of `forwarding` besides its service (issue 36: modules meet
 * only through services; its queries stay its own). Forwarding owns the targets, events and
 * deliveries of every owner: a vendor's, and a watchlist's alert webhooks (`watchlists`).
 */

/**
 * The delivery queue jobs/forwarding-worker.ts runs on its timer: a batch of due deliveries claimed
 * under a lease, attempted, retried with backoff, and a target switched off (its owners told) after a
 * streak of failures.
 */
export {
  backoffSeconds,
  createDeliveryService,
  type DeliveryServiceOptions,
  GIVE_UP_AFTER_MS,
  MAX_CONSECUTIVE_FAILURES,
} from "./delivery-service.ts";
/**
 * The targets of another owner and a test event to one of them: the service a watchlist's alert
 * webhooks are kept by (`watchlists/webhooks.ts`; built by composition/services.ts); and the
 * watchlists' events (alerts, notices) with their deliveries, queued in the caller's transaction
 * (`watchlists/alert-service.ts`, `watchlists/webhooks.ts`).
 */
export { queueWatchlistEvents, type TargetService } from "./target-service.ts";
