import type { SqlRunner } from "../db/client.ts";

/** The statements on idempotency_keys (schema/idempotency.ts) of http/idempotency.ts. */

/** A key's row as a retry finds it. */
export interface IdempotencyKeyRow {
  request_hash: string;
  response_status: number | null;
  response_body: string | null;
}

/** Removes the keys older than `ttlHours`. */
export async function purgeIdempotencyKeys(sql: SqlRunner, ttlHours: number) {
  await sql.query("delete from idempotency_keys where created_at < now() - make_interval(hours => $1::int)", [
    ttlHours,
  ]);
}

/**
 * Takes `key` for `claimSeconds`: a new key, one whose request failed and whose claim ran out, or one
 * older than `ttlHours`. False when another request holds it or its answer is stored.
 */
export async function claimIdempotencyKey(
  sql: SqlRunner,
  {
    scope,
    key,
    requestHash,
    claimSeconds,
    ttlHours,
  }: {
    scope: string;
    key: string;
    requestHash: string;
    claimSeconds: number;
    ttlHours: number;
  },
): Promise<boolean> {
  const { rows } = await sql.query(
    `insert into idempotency_keys (scope, key, request_hash, locked_until)
     values ($1, $2, $3, now() + make_interval(secs => $4::int))
     on conflict (scope, key) do update
       set request_hash = excluded.request_hash, locked_until = excluded.locked_until,
           response_status = null, response_body = null, created_at = now()
       where (idempotency_keys.response_status is null and idempotency_keys.locked_until < now())
          or idempotency_keys.created_at < now() - make_interval(hours => $5::int)
     returning 1 as claimed`,
    [scope, key, requestHash, claimSeconds, ttlHours],
  );
  return rows.length > 0;
}

export async function findIdempotencyKey(
  sql: SqlRunner,
  scope: string,
  key: string,
): Promise<IdempotencyKeyRow | undefined> {
  const { rows } = await sql.query<IdempotencyKeyRow>(
    "select request_hash, response_status, response_body from idempotency_keys where scope = $1 and key = $2",
    [scope, key],
  );
  return rows[0];
}

/** Stores the answer of the request holding `key` and frees its claim. */
export async function completeIdempotencyKey(
  sql: SqlRunner,
  scope: string,
  key: string,
  status: number,
  body: string,
) {
  await sql.query(
    `update idempotency_keys set response_status = $3, response_body = $4, locked_until = null
     where scope = $1 and key = $2`,
    [scope, key, status, body],
  );
}

/** Frees a key whose request failed before its answer was recorded. */
export async function releaseIdempotencyKey(sql: SqlRunner, scope: string, key: string) {
  await sql.query("delete from idempotency_keys where scope = $1 and key = $2 and response_status is null", [
    scope,
    key,
  ]);
}
