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

    /**
     * Claims, once, the first reminder of reports awaiting a fix whose deadline is within `days` of
     * `now` but further than `nearDays` (the "deadline near" mail covers those), and whose vendor was
     * told at least `quietDays` ago: a short deadline gets no reminder right after the notification.
     */
    async claimReminders(
      now: Date,
      days: number,
      nearDays: number,
      quietDays: number,
      tx: SqlRunner = sql,
    ): Promise<string[]> {
      const { rows } = await tx.query<{ id: string }>(
        `update reports set deadline_reminder_notified_at = $1
         where status = 'awaiting_fix'
           and fix_deadline_at > $1::timestamptz + make_interval(days => $3::int)
           and fix_deadline_at <= $1::timestamptz + make_interval(days => $2::int)
           and vendor_notified_at <= $1::timestamptz - make_interval(days => $4::int)
           and deadline_reminder_notified_at is null and deadline_near_notified_at is null
         returning id::text`,
        [now, days, nearDays, quietDays],
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
