import type { Database } from "../db/client.ts";

/**
 * How many scans PostgreSQL's statistics count on an index: a test that a query used it polls this
 * (the statistics of the connection that ran it reach the view within its flush interval).
 */
export async function indexScansOf(database: Database, index: string): Promise<number> {
  const { rows } = await database.sql.query<{ scans: string }>(
    "select coalesce(sum(idx_scan), 0)::text as scans from pg_stat_user_indexes where indexrelname = $1",
    [index],
  );
  return Number(rows[0]!.scans);
}
