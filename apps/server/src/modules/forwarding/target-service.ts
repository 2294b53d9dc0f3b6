import type { Database, SqlRunner } from "../../db/client.ts";
import type { PageRequest } from "../../http/pagination.ts";
import type { DeliveryPayload } from "./payload.ts";
import {
  createTargetQueries,
  insertWatchlistEvents,
  queueTestDelivery,
  type TargetOwner,
} from "./queries.ts";
import { deliveryPageOf } from "./service.ts";

/**
 * The targets of an owner other than a vendor (the watchlists' alert webhooks, issue 20), kept by
 * forwarding as it keeps a vendor's: so they are signed, retried and logged by the one delivery queue.
 * Every call names the owner; the caller checks that the owner is the user's. Rows as stored: the
 * caller answers them with `targetOf` (`service.ts`), never with their secret.
 */
export function createTargetService({ database }: { database: Database }) {
  const queries = createTargetQueries(database.sql);
  return {
    /** The owner's targets, oldest first. */
    list: (owner: TargetOwner) => queries.list(owner),

    /** One of the owner's targets, or undefined. */
    find: (owner: TargetOwner, id: number) => queries.find(owner, id),

    /** A webhook target of the owner, active at once; `secret` signs its deliveries. */
    createWebhook: (
      owner: TargetOwner,
      input: { url: string; format: string; events: string[]; secret: string; createdBy: number },
    ) => queries.insertWebhook(owner, input),

    /** Switches one of the owner's targets on or off; undefined when it is not the owner's. */
    setStatus: (owner: TargetOwner, id: number, status: "active" | "disabled", reason: string | null) =>
      queries.setStatus(owner, id, status, reason),

    /** Deletes one of the owner's targets; false when it is not the owner's. */
    remove: (owner: TargetOwner, id: number) => queries.remove(owner, id),

    /** A target's delivery log, newest first (the caller has checked it is the owner's). */
    deliveries: (targetId: number, page: PageRequest) => deliveryPageOf(queries, targetId, page),

    /**
     * Queues `payload` as an event of `owner` with one manual delivery to the target `targetId` only (a
     * test event: one attempt, no retries); answers the delivery's id. The caller wakes the worker.
     */
    queueTest: (owner: TargetOwner, targetId: number, payload: DeliveryPayload, at: Date) =>
      queueTestDelivery(database.sql, owner, targetId, payload, at),
  };
}

export type TargetService = ReturnType<typeof createTargetService>;

/**
 * Queues many watchlists' events (alerts, notices), each to the targets given, in the caller's
 * transaction `tx`: the events and their deliveries commit with what raised them. Two statements
 * whatever their number (a publication can alert thousands of watchlists with webhooks). The caller
 * wakes the worker once `tx` has committed.
 */
export function queueWatchlistEvents(
  tx: SqlRunner,
  events: { watchlistId: string; payload: DeliveryPayload; targetIds: number[] }[],
  now: Date,
): Promise<void> {
  return insertWatchlistEvents(tx, events, now);
}
