import type { SqlRunner } from "../../db/client.ts";
import { updateInferredFixes } from "../../db/infer-fixed.ts";
import { DIRECTORY_SLUG_PATTERN, type DirectoryKind } from "./wporg.ts";

/** The SQL of the WordPress.org directory source (sync-wporg.ts): which products to ask about, what they answered. */

export interface DueProduct {
  id: number;
  kind: DirectoryKind;
  slug: string;
}

/** The directory's products checked longest ago (never first), at most `limit`, none within `recheckSeconds`. */
export async function dueProducts(
  sql: SqlRunner,
  limit: number,
  recheckSeconds: number,
): Promise<DueProduct[]> {
  const { rows } = await sql.query<DueProduct>(
    `select id, kind, slug from products
     where kind in ('plugin', 'theme') and plan <> 'premium' and slug ~ $3
       and (directory_checked_at is null
         or directory_checked_at <= now() - make_interval(secs => $2::float8))
     order by directory_checked_at nulls first, id
     limit $1`,
    [limit, recheckSeconds, DIRECTORY_SLUG_PATTERN.source],
  );
  return rows;
}

/** How many products were ever checked against the directory. */
export async function checkedProductCount(sql: SqlRunner): Promise<number> {
  const { rows } = await sql.query<{ count: number }>(
    "select count(*)::int as count from products where directory_checked_at is not null",
  );
  return rows[0]?.count ?? 0;
}

/** The directory's answers about products, one per product, as columns (`closedAt`: ISO 8601). */
interface DirectoryValues {
  ids: number[];
  states: string[];
  versions: (string | null)[];
  installs: (number | null)[];
  updated: (string | null)[];
  closedAt: (string | null)[];
}

/**
 * Writes the directory's values of the open and closed products whose values change (one
 * statement): a closed product keeps its version and installs; its `closed_at` is the directory's
 * closing date, else when first seen closed. An open one clears `closed_at`. Answers how many changed
 * and closed, and whether a version changed.
 */
export async function writeDirectoryValues(
  tx: SqlRunner,
  values: DirectoryValues,
): Promise<{ changed: number; closed: number; versionChanged: boolean }> {
  const { rows } = await tx.query<{ changed: number; closed: number; version_changed: boolean }>(
    `with input as (
       select * from unnest($1::int[], $2::text[], $3::text[], $4::int[], $5::text[], $6::timestamptz[])
         as u(id, state, version, installs, updated, closed_at)
     ), target as (
       select p.id, p.closed_at as old_closed_at, p.version as old_version,
         case when i.state = 'open' then i.version else p.version end as version,
         case when i.state = 'open' then i.installs else p.active_installs end as installs,
         case when i.state = 'open' then coalesce(i.updated, p.directory_updated)
           else p.directory_updated end as updated,
         case when i.state = 'open' then null
           else coalesce(i.closed_at, p.closed_at, date_trunc('second', now())) end as closed_at
       from input i join products p on p.id = i.id
     ), written as (
       update products p set version = t.version, active_installs = t.installs,
         directory_updated = t.updated, closed_at = t.closed_at, updated_at = now()
       from target t
       where p.id = t.id and (p.version, p.active_installs, p.directory_updated, p.closed_at)
         is distinct from (t.version, t.installs, t.updated, t.closed_at)
       returning t.old_closed_at is null and t.closed_at is not null as closed,
         t.old_version is distinct from t.version as version_changed
     )
     select count(*) filter (where not closed)::int as changed, count(*) filter (where closed)::int as closed,
       coalesce(bool_or(version_changed), false) as version_changed
     from written`,
    [values.ids, values.states, values.versions, values.installs, values.updated, values.closedAt],
  );
  const result = rows[0]!;
  return { changed: result.changed, closed: result.closed, versionChanged: result.version_changed };
}

/** Every product asked about was checked now. */
export async function markChecked(tx: SqlRunner, ids: number[]): Promise<void> {
  await tx.query("update products set directory_checked_at = now() where id = any($1::int[])", [ids]);
}

/** Re-runs the inferred fixes of every record after new versions, as a bulk import (db/infer-fixed.ts). */
export async function refreshInferredFixes(sql: SqlRunner): Promise<void> {
  await sql.transaction(async (tx) => {
    await tx.query("select set_config('pressguard.bulk_import', 'on', true)");
    return updateInferredFixes(tx);
  });
}
