import type { SqlRunner } from "../../db/client.ts";

export interface PinRow {
  pin_hash: string;
  contact_email: string;
  failed_attempts: number;
  /** Seconds until the lock ends; null or ≤ 0 when not locked. */
  locked_seconds: number | null;
  locked_until: Date | string | null;
}

/** The PIN of a report on a product with no program (PRODUCT.md §2). */
export function createPinQueries(sql: SqlRunner) {
  return {
    /** A new PIN for the report (replacing an older one, its tries and lock). */
    async savePin(reportId: string, pinHash: string, contactEmail: string, tx: SqlRunner = sql) {
      await tx.query(
        `insert into report_pins (report_id, pin_hash, contact_email) values ($1, $2, $3)
         on conflict (report_id) do update set pin_hash = excluded.pin_hash,
           contact_email = excluded.contact_email, failed_attempts = 0, locked_until = null, created_at = now()`,
        [reportId, pinHash, contactEmail],
      );
    },

    /** The PIN row, locked for the caller's transaction so that concurrent tries count one by one. */
    async lockPin(reportId: string, tx: SqlRunner): Promise<PinRow | null> {
      const { rows } = await tx.query<PinRow>(
        `select pin_hash, contact_email, failed_attempts, locked_until,
           extract(epoch from locked_until - now())::float8 as locked_seconds
         from report_pins where report_id = $1 for update`,
        [reportId],
      );
      return rows[0] ?? null;
    },

    /** A wrong PIN: counts it; the `maxAttempts`-th locks the PIN for `lockSeconds` and restarts the count. */
    async recordWrongPin(
      reportId: string,
      maxAttempts: number,
      lockSeconds: number,
      tx: SqlRunner,
    ): Promise<{ locked: boolean; attemptsLeft: number }> {
      const { rows } = await tx.query<{ failed_attempts: number; locked: boolean }>(
        `update report_pins set
           failed_attempts = case when failed_attempts + 1 >= $2 then 0 else failed_attempts + 1 end,
           locked_until = case when failed_attempts + 1 >= $2 then now() + make_interval(secs => $3::int)
             else locked_until end
         where report_id = $1
         returning failed_attempts, (locked_until is not null and locked_until > now()) as locked`,
        [reportId, maxAttempts, lockSeconds],
      );
      const row = rows[0];
      return { locked: row?.locked ?? false, attemptsLeft: maxAttempts - (row?.failed_attempts ?? 0) };
    },

    async clearPinFailures(reportId: string, tx: SqlRunner) {
      await tx.query("update report_pins set failed_attempts = 0, locked_until = null where report_id = $1", [
        reportId,
      ]);
    },

    /** Where the PIN went: the product contact who hears of the vendor's side of the report. */
    async pinContactEmail(reportId: string): Promise<string | null> {
      const { rows } = await sql.query<{ contact_email: string }>(
        "select contact_email from report_pins where report_id = $1",
        [reportId],
      );
      return rows[0]?.contact_email ?? null;
    },
  };
}
