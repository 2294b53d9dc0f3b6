import type { SqlRunner } from "../../db/client.ts";
import type { DeliveryPayload, ReportSnapshot, VendorComment } from "./payload.ts";

export interface TargetRow {
  id: number;
  vendor_id: number | null;
  watchlist_id: string | null;
  kind: "email" | "webhook";
  email: string | null;
  url: string | null;
  format: "json" | "slack" | "discord";
  events: string[];
  status: "pending" | "active" | "disabled";
  confirmed_at: Date | string | null;
  consecutive_failures: number;
  disabled_at: Date | string | null;
  disabled_reason: string | null;
  created_at: Date | string;
}

const TARGET_COLUMNS = `id, vendor_id, watchlist_id::text, kind, email, url, format, events, status, confirmed_at,
  consecutive_failures, disabled_at, disabled_reason, created_at`;

export interface DeliveryRow {
  id: number;
  target_id: number;
  status: "pending" | "succeeded" | "failed";
  attempts: number;
  manual: boolean;
  next_attempt_at: Date | string;
  created_at: Date | string;
  finished_at: Date | string | null;
  event_uuid: string;
  event_type: string;
}

export interface AttemptRow {
  delivery_id: number;
  attempted_at: Date | string;
  status_code: number | null;
  latency_ms: number;
  succeeded: boolean;
  response_excerpt: string | null;
}

/** A delivery claimed by the worker, with what it needs to send it. */
export interface ClaimedDelivery {
  id: number;
  attempts: number;
  manual: boolean;
  target_id: number;
  vendor_id: number | null;
  watchlist_id: string | null;
  kind: "email" | "webhook";
  email: string | null;
  url: string | null;
  format: "json" | "slack" | "discord";
  secret: string | null;
  target_status: string;
  /** The vendor's plan and name; null for a watchlist's target. */
  plan: string | null;
  vendor_name: string | null;
  event_uuid: string;
  event_type: string;
  payload: DeliveryPayload;
  event_created_at: Date | string;
}

/** Who owns a target: a vendor (report forwarding) or a watchlist (its alert webhooks, issue 20). */
export type TargetOwner = { vendorId: number } | { watchlistId: string };

/** The owner's column and value; the column name is one of two constants, never input. */
function ownerOf(owner: TargetOwner): { column: "vendor_id" | "watchlist_id"; value: number | string } {
  return "vendorId" in owner
    ? { column: "vendor_id", value: owner.vendorId }
    : { column: "watchlist_id", value: owner.watchlistId };
}

/** The targets API's SQL; every statement is scoped to one owner. */
export function createTargetQueries(sql: SqlRunner) {
  return {
    async planOf(vendorId: number): Promise<{ plan: string; vendor_name: string } | undefined> {
      const { rows } = await sql.query<{ plan: string; vendor_name: string }>(
        "select plan, vendor_name from vendors where id = $1",
        [vendorId],
      );
      return rows[0];
    },
    async list(owner: TargetOwner): Promise<TargetRow[]> {
      const { column, value } = ownerOf(owner);
      const { rows } = await sql.query<TargetRow>(
        `select ${TARGET_COLUMNS} from forward_targets where ${column} = $1 order by id`,
        [value],
      );
      return rows;
    },
    async find(owner: TargetOwner, id: number): Promise<TargetRow | undefined> {
      const { column, value } = ownerOf(owner);
      const { rows } = await sql.query<TargetRow>(
        `select ${TARGET_COLUMNS} from forward_targets where ${column} = $1 and id = $2`,
        [value, id],
      );
      return rows[0];
    },
    async insertEmail(input: {
      vendorId: number;
      email: string;
      events: string[];
      tokenHash: string;
      createdBy: number;
    }): Promise<TargetRow> {
      const { rows } = await sql.query<TargetRow>(
        `insert into forward_targets (vendor_id, kind, email, events, status, confirmation_token_hash, created_by)
         values ($1, 'email', $2, $3::text[], 'pending', $4, $5) returning ${TARGET_COLUMNS}`,
        [input.vendorId, input.email, input.events, input.tokenHash, input.createdBy],
      );
      return rows[0] as TargetRow;
    },
    async insertWebhook(
      owner: TargetOwner,
      input: { url: string; format: string; events: string[]; secret: string; createdBy: number },
    ): Promise<TargetRow> {
      const { column, value } = ownerOf(owner);
      const { rows } = await sql.query<TargetRow>(
        `insert into forward_targets (${column}, kind, url, format, events, secret, status, confirmed_at, created_by)
         values ($1, 'webhook', $2, $3, $4::text[], $5, 'active', now(), $6) returning ${TARGET_COLUMNS}`,
        [value, input.url, input.format, input.events, input.secret, input.createdBy],
      );
      return rows[0] as TargetRow;
    },
    async update(
      owner: TargetOwner,
      id: number,
      changes: { events?: string[]; format?: string; secret?: string; tokenHash?: string },
    ): Promise<TargetRow | undefined> {
      const { column, value } = ownerOf(owner);
      const { rows } = await sql.query<TargetRow>(
        `update forward_targets set
           events = coalesce($3::text[], events), format = coalesce($4, format),
           secret = coalesce($5, secret), confirmation_token_hash = coalesce($6, confirmation_token_hash)
         where ${column} = $1 and id = $2 returning ${TARGET_COLUMNS}`,
        [
          value,
          id,
          changes.events ?? null,
          changes.format ?? null,
          changes.secret ?? null,
          changes.tokenHash ?? null,
        ],
      );
      return rows[0];
    },
    async setStatus(
      owner: TargetOwner,
      id: number,
      status: "pending" | "active" | "disabled",
      reason: string | null,
    ): Promise<TargetRow | undefined> {
      const { column, value } = ownerOf(owner);
      const { rows } = await sql.query<TargetRow>(
        `update forward_targets set status = $3,
           disabled_at = case when $3 = 'disabled' then now() else null end,
           disabled_reason = case when $3 = 'disabled' then $4 else null end,
           consecutive_failures = case when $3 = 'active' then 0 else consecutive_failures end
         where ${column} = $1 and id = $2 returning ${TARGET_COLUMNS}`,
        [value, id, status, reason],
      );
      return rows[0];
    },
    async remove(owner: TargetOwner, id: number): Promise<boolean> {
      const { column, value } = ownerOf(owner);
      const { rows } = await sql.query(
        `delete from forward_targets where ${column} = $1 and id = $2 returning id`,
        [value, id],
      );
      return rows.length > 0;
    },
    async findByTokenHash(tokenHash: string) {
      const { rows } = await sql.query<TargetRow & { vendor_name: string }>(
        `select t.id, t.vendor_id, t.kind, t.email, t.status, t.confirmed_at, v.vendor_name
         from forward_targets t join vendors v on v.id = t.vendor_id where t.confirmation_token_hash = $1`,
        [tokenHash],
      );
      return rows[0];
    },
    async confirm(id: number): Promise<void> {
      await sql.query(
        "update forward_targets set status = 'active', confirmed_at = now() where id = $1 and status = 'pending'",
        [id],
      );
    },
    async deliveries(targetId: number, limit: number, offset: number) {
      const [{ rows }, total] = await Promise.all([
        sql.query<DeliveryRow>(
          `select d.id, d.target_id, d.status, d.attempts, d.manual, d.next_attempt_at, d.created_at,
                  d.finished_at, e.uuid as event_uuid, e.type as event_type
           from forward_deliveries d join forward_events e on e.id = d.event_id
           where d.target_id = $1 order by d.id desc limit $2 offset $3`,
          [targetId, limit, offset],
        ),
        sql.query<{ total: number }>(
          "select count(*)::int as total from forward_deliveries where target_id = $1",
          [targetId],
        ),
      ]);
      return { rows, total: total.rows[0]?.total ?? 0 };
    },
    async attemptsOf(deliveryIds: number[]): Promise<AttemptRow[]> {
      if (deliveryIds.length === 0) return [];
      const { rows } = await sql.query<AttemptRow>(
        `select delivery_id, attempted_at, status_code, latency_ms, succeeded, response_excerpt
         from forward_delivery_attempts where delivery_id = any($1::bigint[]) order by id`,
        [deliveryIds],
      );
      return rows;
    },
    async deliveryOf(owner: TargetOwner, deliveryId: number) {
      const { column, value } = ownerOf(owner);
      const { rows } = await sql.query<{ id: number; target_id: number; event_id: number }>(
        `select d.id, d.target_id, d.event_id from forward_deliveries d
         join forward_targets t on t.id = d.target_id where d.id = $1 and t.${column} = $2`,
        [deliveryId, value],
      );
      return rows[0];
    },
    /** A vendor-triggered one-off delivery (a redelivery or the test event): one attempt, no retries. */
    async insertManualDelivery(
      targetId: number,
      eventId: number,
      now: Date,
      tx: SqlRunner = sql,
    ): Promise<number> {
      const { rows } = await tx.query<{ id: number }>(
        `insert into forward_deliveries (target_id, event_id, manual, next_attempt_at) values ($1, $2, true, $3)
         returning id`,
        [targetId, eventId, now],
      );
      return Number(rows[0]?.id);
    },
  };
}

/** The report as its forwarded events tell it, read inside the change's transaction. */
export async function findReportSnapshot(tx: SqlRunner, reportId: string): Promise<ReportSnapshot | null> {
  const { rows } = await tx.query<ReportSnapshot>(
    `select r.id, r.title, p.name as product_name, p.slug as product_slug, p.kind as product_kind,
            r.severity, r.cvss_score, r.cvss_vector, r.type_code, r.affected_version_prefix,
            r.affected_version, r.fixed_version, r.fix_deadline_at
     from reports r join products p on p.id = r.product_id where r.id = $1`,
    [reportId],
  );
  return rows[0] ?? null;
}

/** The comment when the vendor reads it; staff-only notes never leave the platform (null). */
export async function findVendorComment(
  tx: SqlRunner,
  reportId: string,
  commentId: number,
): Promise<VendorComment | null> {
  const { rows } = await tx.query<VendorComment>(
    `select id, body, created_at from report_comments
     where id = $1 and report_id = $2 and visibility = 'vendor_researcher'`,
    [commentId, reportId],
  );
  return rows[0] ?? null;
}

/** Targets of `vendorId` that receive `type` now: active, subscribed, and webhooks only on premium. */
export async function receivingTargets(tx: SqlRunner, vendorId: number, type: string): Promise<number[]> {
  const { rows } = await tx.query<{ id: number }>(
    `select t.id from forward_targets t join vendors v on v.id = t.vendor_id
     where t.vendor_id = $1 and t.status = 'active' and (cardinality(t.events) = 0 or $2 = any(t.events))
       and (t.kind = 'email' or v.plan = 'premium')
     order by t.id`,
    [vendorId, type],
  );
  return rows.map((row) => row.id);
}

export async function insertEvent(
  tx: SqlRunner,
  owner: TargetOwner,
  reportId: string | null,
  payload: DeliveryPayload,
  now: Date,
): Promise<number> {
  const { column, value } = ownerOf(owner);
  const { rows } = await tx.query<{ id: number }>(
    `insert into forward_events (uuid, ${column}, type, report_id, payload, created_at)
     values ($1, $2, $3, $4, $5::jsonb, $6) returning id`,
    [payload.id, value, payload.type, reportId, JSON.stringify(payload), now],
  );
  return Number(rows[0]?.id);
}

/**
 * Queues `payload` as an event of `owner` and one manual delivery of it to the target `targetId` only
 * (a test event: one attempt, no retries), in one transaction; answers the delivery's id.
 */
export function queueTestDelivery(
  sql: SqlRunner,
  owner: TargetOwner,
  targetId: number,
  payload: DeliveryPayload,
  at: Date,
): Promise<number> {
  return sql.transaction(async (tx) => {
    const eventId = await insertEvent(tx, owner, null, payload, at);
    return createTargetQueries(sql).insertManualDelivery(targetId, eventId, at, tx);
  });
}

/**
 * Many watchlists' events at once, each with its deliveries: two statements whatever their number
 * (a publication can alert thousands of watchlists with webhooks).
 */
export async function insertWatchlistEvents(
  tx: SqlRunner,
  events: { watchlistId: string; payload: DeliveryPayload; targetIds: number[] }[],
  now: Date,
): Promise<void> {
  if (events.length === 0) return;
  const { rows } = await tx.query<{ id: number; uuid: string }>(
    `insert into forward_events (uuid, watchlist_id, type, payload, created_at)
     select u, w, t, p, $5 from unnest($1::uuid[], $2::uuid[], $3::text[], $4::jsonb[]) as e(u, w, t, p)
     returning id, uuid::text`,
    [
      events.map((event) => event.payload.id),
      events.map((event) => event.watchlistId),
      events.map((event) => event.payload.type),
      events.map((event) => JSON.stringify(event.payload)),
      now,
    ],
  );
  const eventIds = new Map(rows.map((row) => [row.uuid, Number(row.id)]));
  const pairs = events.flatMap((event) =>
    event.targetIds.map((targetId) => [targetId, eventIds.get(event.payload.id)] as const),
  );
  await tx.query(
    `insert into forward_deliveries (target_id, event_id, next_attempt_at)
     select t, e, $3 from unnest($1::int[], $2::bigint[]) as d(t, e)`,
    [pairs.map(([targetId]) => targetId), pairs.map(([, eventId]) => eventId), now],
  );
}

export async function insertDeliveries(tx: SqlRunner, eventId: number, targetIds: number[], now: Date) {
  await tx.query(
    `insert into forward_deliveries (target_id, event_id, next_attempt_at)
     select target_id, $2, $3 from unnest($1::int[]) as target_id`,
    [targetIds, eventId, now],
  );
}

/** The worker's SQL: a short claiming statement, then one transaction per recorded attempt. */
export function createDeliveryQueries(sql: SqlRunner) {
  return {
    /** Takes up to `limit` due deliveries under a lease; a crashed worker's lease expires and they are due again. */
    async claim(now: Date, leaseSeconds: number, limit: number): Promise<ClaimedDelivery[]> {
      const { rows } = await sql.query<ClaimedDelivery>(
        `with claimed as (
           update forward_deliveries set locked_until = $1::timestamptz + make_interval(secs => $2::int),
             attempts = attempts + 1
           where id in (
             select id from forward_deliveries
             where status = 'pending' and next_attempt_at <= $1 and (locked_until is null or locked_until <= $1)
             order by next_attempt_at, id limit $3 for update skip locked)
           returning id, attempts, manual, target_id, event_id)
         select c.id, c.attempts, c.manual, c.target_id, t.vendor_id, t.watchlist_id::text, t.kind, t.email, t.url, t.format, t.secret,
                t.status as target_status, v.plan, v.vendor_name, e.uuid as event_uuid, e.type as event_type,
                e.payload, e.created_at as event_created_at
         from claimed c join forward_targets t on t.id = c.target_id
         join forward_events e on e.id = c.event_id left join vendors v on v.id = t.vendor_id
         order by c.id`,
        [now, leaseSeconds, limit],
      );
      return rows.map((row) => ({ ...row, id: Number(row.id) }));
    },
    async insertAttempt(
      tx: SqlRunner,
      deliveryId: number,
      now: Date,
      result: { statusCode: number | null; latencyMs: number; succeeded: boolean; excerpt: string },
    ) {
      await tx.query(
        `insert into forward_delivery_attempts (delivery_id, attempted_at, status_code, latency_ms, succeeded, response_excerpt)
         values ($1, $2, $3, $4, $5, $6)`,
        [deliveryId, now, result.statusCode, result.latencyMs, result.succeeded, result.excerpt],
      );
    },
    async finish(tx: SqlRunner, deliveryId: number, status: "succeeded" | "failed", now: Date) {
      await tx.query(
        "update forward_deliveries set status = $2, finished_at = $3, locked_until = null where id = $1",
        [deliveryId, status, now],
      );
    },
    async reschedule(tx: SqlRunner, deliveryId: number, nextAttemptAt: Date) {
      await tx.query(
        "update forward_deliveries set next_attempt_at = $2, locked_until = null where id = $1",
        [deliveryId, nextAttemptAt],
      );
    },
    async resetFailures(tx: SqlRunner, targetId: number) {
      // Most deliveries succeed on a healthy target: write only when there is a streak to end.
      await tx.query(
        "update forward_targets set consecutive_failures = 0 where id = $1 and consecutive_failures <> 0",
        [targetId],
      );
    },
    async countFailure(tx: SqlRunner, targetId: number): Promise<number> {
      const { rows } = await tx.query<{ consecutive_failures: number }>(
        `update forward_targets set consecutive_failures = consecutive_failures + 1 where id = $1
         returning consecutive_failures`,
        [targetId],
      );
      return rows[0]?.consecutive_failures ?? 0;
    },
    /** Disables an active target and ends its pending deliveries; false when it was not active. */
    async disableAfterFailures(tx: SqlRunner, targetId: number, reason: string, now: Date): Promise<boolean> {
      const { rows } = await tx.query(
        `update forward_targets set status = 'disabled', disabled_at = $3, disabled_reason = $2
         where id = $1 and status = 'active' returning id`,
        [targetId, reason, now],
      );
      if (rows.length === 0) return false;
      await tx.query(
        `update forward_deliveries set status = 'failed', finished_at = $2, locked_until = null
         where target_id = $1 and status = 'pending'`,
        [targetId, now],
      );
      return true;
    },
    /** Who is told when the target is switched off: the vendor's owners, or the watchlist's owner. */
    async ownersOf(owner: TargetOwner) {
      const { rows } = await sql.query<{ email: string; name: string }>(
        "vendorId" in owner
          ? `select u.email, u.name from vendor_members m join users u on u.id = m.user_id
             where m.vendor_id = $1 and m.role = 'owner' order by u.id`
          : "select u.email, u.name from watchlists w join users u on u.id = w.user_id where w.id = $1",
        ["vendorId" in owner ? owner.vendorId : owner.watchlistId],
      );
      return rows;
    },
  };
}
