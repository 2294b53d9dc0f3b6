import type { Database } from "../db/client.ts";
import type { Mailer } from "../mail/outbox.ts";
import type { ReportEventSink } from "../modules/reports/events.ts";
import type { PreviewTokens } from "../modules/reports/preview-tokens.ts";
import { createFixDeadlines } from "../modules/reports/public.ts";
import { periodicRunner } from "./periodic-job.ts";

/** The deadline job e-mails "deadline near" this many days before the fix deadline. */
const DEADLINE_NEAR_DAYS = 7;
/**
 * And a first reminder this many days before it (issue 19: follow-ups before the deadline), to a vendor
 * told at least REMINDER_QUIET_DAYS before.
 */
const DEADLINE_REMINDER_DAYS = 30;
const REMINDER_QUIET_DAYS = 7;

interface DeadlineJobOptions {
  database: Database;
  mailer: Pick<Mailer, "enqueue">;
  /** Signs the vendor links of the mails (PREVIEW_TOKEN_KEY). */
  previewTokens: PreviewTokens;
  appUrl: string;
  /** Report forwarding: told of `deadline_near` and `deadline_passed`, inside the claim's transaction. */
  events?: ReportEventSink;
  /** A mail that could not be queued: logged, the job goes on. */
  onMailError?: (error: unknown) => void;
}

/**
 * The fix deadline job (PRODUCT.md §2, issue 7; ARCHITECTURE.md `jobs/`): reports awaiting a fix whose
 * deadline is within DEADLINE_REMINDER_DAYS get one reminder, within DEADLINE_NEAR_DAYS one "deadline
 * near" e-mail; those whose deadline passed
 * are flagged once (deadline_passed_at, a `deadline_passed` timeline event) and their vendor contact
 * is e-mailed. Claims are single UPDATEs, so concurrent runs (several instances) never repeat one.
 */
export function createDeadlineJob(options: DeadlineJobOptions) {
  const deadlines = createFixDeadlines(options);

  /** One pass; `now` is the job's clock. */
  async function runOnce(
    now: Date = new Date(),
  ): Promise<{ reminded: number; near: number; passed: number }> {
    const passed = await deadlines.flagPassed(now);
    const near = await deadlines.claimNear(now, DEADLINE_NEAR_DAYS);
    const reminded = await deadlines.claimReminders(
      now,
      DEADLINE_REMINDER_DAYS,
      DEADLINE_NEAR_DAYS,
      REMINDER_QUIET_DAYS,
    );
    for (const [ids, template] of [
      [reminded, "report_deadline_reminder"],
      [near, "report_deadline_near"],
      [passed, "report_deadline_passed"],
    ] as const) {
      for (const reportId of ids) await deadlines.mail(reportId, template);
    }
    return { reminded: reminded.length, near: near.length, passed: passed.length };
  }

  return { runOnce, ...periodicRunner(runOnce) };
}
