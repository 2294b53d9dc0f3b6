import nodemailer from "nodemailer";
import type { Database, SqlRunner } from "../db/client.ts";
import {
  claimDueMail,
  insertMail,
  listMail,
  type MailboxRow,
  markMailAttemptFailed,
  markMailSent,
} from "./outbox-queries.ts";
import { type MailTemplate, renderMail } from "./templates.ts";

/** After this many failed deliveries a mail is marked failed and left for an operator. */
export const MAX_MAIL_ATTEMPTS = 5;
const BATCH_SIZE = 10;
const POLL_INTERVAL_MS = 2_000;
const KICK_AFTER_COMMIT_MS = 50;

/** A mail of the development mailbox, its time as ISO 8601. */
export type MailboxEntry = Omit<MailboxRow, "created_at"> & { created_at: string };

export interface MailerOptions {
  database: Database;
  smtpUrl: string | undefined;
  from: string;
  siteName: string;
  onError?: (error: unknown) => void;
}

/**
 * The mail queue (ARCHITECTURE.md "jobs"): `enqueue` stores a rendered mail in `mail_outbox`; with an
 * SMTP server configured a worker loop delivers pending rows with retries, claiming them with
 * `FOR UPDATE SKIP LOCKED` so several instances never send one twice. Without SMTP the mail is only
 * stored, for the development mailbox.
 */
export function createMailer({ database, smtpUrl, from, siteName, onError }: MailerOptions) {
  const transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : null;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let stopped = false;

  /**
   * Stores a rendered mail. Given a transaction, the mail is queued only if that transaction commits
   * (the sending pass then starts a moment later, once the row is visible).
   */
  async function enqueue(to: string, mail: MailTemplate, sql: SqlRunner = database.sql): Promise<number> {
    const rendered = renderMail(mail, siteName);
    const id = await insertMail(sql, {
      template: mail.template,
      to,
      ...rendered,
      status: transport ? "pending" : "stored",
    });
    if (transport && sql === database.sql) kick();
    else if (transport) setTimeout(() => void kick(), KICK_AFTER_COMMIT_MS).unref();
    return id;
  }

  /** Delivers one batch of due mail; returns how many were sent. */
  async function deliverDue(): Promise<number> {
    if (!transport) return 0;
    return database.sql.transaction(async (tx) => {
      const rows = await claimDueMail(tx, BATCH_SIZE);
      let sent = 0;
      for (const row of rows) {
        try {
          await transport.sendMail({
            from,
            to: row.to_address,
            subject: row.subject,
            text: row.text_body,
            html: row.html_body,
          });
          await markMailSent(tx, row.id);
          sent += 1;
        } catch (error) {
          const attempts = row.attempts + 1;
          const backoffSeconds = 10 * 2 ** attempts;
          await markMailAttemptFailed(tx, {
            id: row.id,
            attempts,
            error: error instanceof Error ? error.message.slice(0, 500) : String(error),
            backoffSeconds,
            maxAttempts: MAX_MAIL_ATTEMPTS,
          });
        }
      }
      return sent;
    });
  }

  /** Runs a delivery pass now unless one is running; errors go to onError, never crash the loop. */
  function kick(): Promise<number> {
    if (stopped || !transport) return Promise.resolve(0);
    running ??= deliverDue()
      .catch((error: unknown) => {
        onError?.(error);
        return 0;
      })
      .finally(() => {
        running = null;
      });
    return running;
  }

  return {
    enqueue,
    deliverDue,
    kick,
    /** The development mailbox: newest first. */
    async listMailbox(limit = 50, to?: string): Promise<MailboxEntry[]> {
      const rows = await listMail(database.sql, limit, to);
      return rows.map((row) => ({ ...row, created_at: new Date(row.created_at).toISOString() }));
    },
    start() {
      if (!transport || timer) return;
      stopped = false;
      timer = setInterval(() => void kick(), POLL_INTERVAL_MS);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await running;
      transport?.close();
    },
  };
}

export type Mailer = ReturnType<typeof createMailer>;
