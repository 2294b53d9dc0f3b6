import type { SqlRunner } from "../../db/client.ts";
import { createDeadlineQueries } from "./deadline-queries.ts";
import { createReportContext, type ReportContextOptions } from "./report-context.ts";
import { createReportMail, type ReportMailOptions } from "./report-mail.ts";
import { createReportQueries, type ReportRow } from "./report-queries.ts";

/**
 * What other modules and the jobs use of `reports` besides its service (issue 36: modules meet only
 * through services; its queries and context stay its own): a report read as the CRA clocks
 * (`exploitation`) read it, with who may see it, and the fix deadline job's steps.
 */

export { REPORT_NOT_FOUND, reportIdOf, viewerOf } from "./report-context.ts";
export type { ReportRow } from "./report-queries.ts";

/** One report's row and its vendor's name. */
export function createReportReader(sql: SqlRunner) {
  const queries = createReportQueries(sql);
  return {
    /** The report, or null; `lock` takes its row `for update` in `tx` (the state read is the state changed). */
    getReport: (id: string, tx?: SqlRunner, lock?: boolean) => queries.getReport(id, tx, lock),

    /** The name of the vendor owning the report's product, null when it has none. */
    async vendorNameOf(row: ReportRow): Promise<string | null> {
      if (row.product_vendor_id === null) return null;
      return (await queries.vendorContact(row.product_vendor_id))?.vendor_name ?? null;
    },
  };
}

type DeadlineMail = "report_deadline_reminder" | "report_deadline_near" | "report_deadline_passed";

/**
 * The fix deadline job's steps (jobs/deadline-job.ts): each claim is one conditional UPDATE, so
 * concurrent runs (several instances) never repeat one; the events the vendor is told of are recorded
 * in the claim's transaction.
 */
export function createFixDeadlines(options: ReportContextOptions & ReportMailOptions) {
  const { database } = options;
  const { queries, requireReport, recordEvent } = createReportContext(options);
  const reportMail = createReportMail(options);
  const deadlines = createDeadlineQueries(database.sql);

  return {
    /**
     * Flags, once, the reports awaiting a fix whose deadline passed by `now`, each with a
     * `deadline_passed` timeline entry and event; answers their ids.
     */
    flagPassed: (now: Date): Promise<string[]> =>
      database.sql.transaction(async (tx) => {
        const ids = await deadlines.flagPassedDeadlines(now, tx);
        for (const reportId of ids) {
          await queries.insertEvent(
            {
              reportId,
              actorUserId: null,
              action: "deadline_passed",
              fromState: "awaiting_fix",
              toState: "awaiting_fix",
              note: null,
            },
            tx,
          );
          await recordEvent(
            await requireReport(reportId, tx),
            {
              type: "report.deadline_passed",
              action: "deadline_passed",
              fromState: "awaiting_fix",
              toState: "awaiting_fix",
            },
            tx,
          );
        }
        return ids;
      }),

    /** Claims, once, the reports whose deadline is within `days` of `now`, each with its event; their ids. */
    claimNear: (now: Date, days: number): Promise<string[]> =>
      database.sql.transaction(async (tx) => {
        const ids = await deadlines.claimNearDeadlines(now, days, tx);
        for (const reportId of ids) {
          await recordEvent(
            await requireReport(reportId, tx),
            {
              type: "report.deadline_near",
              action: "deadline_near",
              fromState: "awaiting_fix",
              toState: "awaiting_fix",
            },
            tx,
          );
        }
        return ids;
      }),

    /**
     * Claims, once, the first reminder of reports whose deadline is within `days` of `now` but further
     * than `nearDays`, and whose vendor was told at least `quietDays` ago; their ids.
     */
    claimReminders: (now: Date, days: number, nearDays: number, quietDays: number): Promise<string[]> =>
      deadlines.claimReminders(now, days, nearDays, quietDays),

    /** E-mails the vendor's side of the report `template` (its deadline is near, or has passed). */
    async mail(reportId: string, template: DeadlineMail): Promise<void> {
      await reportMail.deadline(await requireReport(reportId), template);
    },
  };
}
