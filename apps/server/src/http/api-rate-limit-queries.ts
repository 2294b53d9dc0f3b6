import type { SqlRunner } from "../db/client.ts";

/** The statement on rate_limits of http/api-rate-limit.ts. */

/** One key's hits counted in this instance since its last write, and when its window ends (ms). */
export interface CountedHits {
  key: string;
  hits: number;
  windowEndMs: number;
}

/**
 * Adds each key's hits to the shared counts (a new window's row created) and returns every key's total
 * across the instances. `counted` in the same order in every instance: two instances' statements never
 * wait on each other crosswise.
 */
export async function addRateLimitHits(sql: SqlRunner, counted: CountedHits[]): Promise<Map<string, number>> {
  const { rows } = await sql.query<{ key: string; hits: number }>(
    `insert into rate_limits (key, hits, reset_at)
     select key, hits, to_timestamp(window_end) from unnest($1::text[], $2::int[], $3::float8[])
       as counted(key, hits, window_end)
     on conflict (key) do update set hits = rate_limits.hits + excluded.hits
     returning key, hits`,
    [
      counted.map((entry) => entry.key),
      counted.map((entry) => entry.hits),
      counted.map((entry) => entry.windowEndMs / 1000),
    ],
  );
  return new Map(rows.map((row) => [row.key, Number(row.hits)]));
}
