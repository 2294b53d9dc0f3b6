import type { SqlRunner } from "../../db/client.ts";

/** The fix deadline job's claims (PRODUCT.md §2, jobs/deadline-job.ts). */
export function createDeadlineQueries(sql: SqlRunner) {
  return {
    /**
     * Flags, once, every report awaiting a fix whose deadline is at or before `now`; answers their ids.
     * The update is the claim: two instances running the job never flag one report twice.
     */
    async flagPassedDeadlines(now: Date, tx: SqlRunner = sql): Promise<string[]> {
      const { rows } = await tx.query<{ id: string }>(
        `update reports set deadline_passed_at = $1
         where status = 'awaiting_fix' and fix_deadline_at <= $1 and deadline_passed_at is null
         returning id::text`,
        [now],
      );
      return rows.map((row) => row.id);
    },

    /** Claims, once, every report awaiting a fix whose deadline is within `days` of `now` (not yet passed). */
    async claimNearDeadlines(now: Date, days: number, tx: SqlRunner = sql): Promise<string[]> {
      const { rows } = await tx.query<{ id: string }>(
        `update reports set deadline_near_notified_at = $1
         where status = 'awaiting_fix' and fix_deadline_at > $1
           and fix_deadline_at <= $1::timestamptz + make_interval(days => $2::int)
           and deadline_near_notified_at is null and deadline_passed_at is null
         returning id::text`,
        [now, days],
      );
      return rows.map((row) => row.id);
    },
  };
}
