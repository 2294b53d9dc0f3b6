import { index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The answers to requests sent with an `Idempotency-Key` (http/idempotency.ts), kept 24 hours: a
 * retry with the same key by the same caller gets the stored answer instead of a second effect.
 * A row without a status is a request in progress, claimed until `locked_until`.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    /** The caller: `user:{id}` signed in, `anon:{ip}` signed out. */
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    /** sha256 of the method, route, parameters, query and body: the same key with another request is a 422. */
    requestHash: text("request_hash").notNull(),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.scope, table.key] }),
    index("idempotency_keys_created_at_idx").on(table.createdAt),
  ],
);
