import nodemailer from "nodemailer";
import type { Database, SqlRunner } from "../db/client.ts";
import { type MailTemplate, renderMail } from "./templates.ts";

/** After this many failed deliveries a mail is marked failed and left for an operator. */
export const MAX_MAIL_ATTEMPTS = 5;
const BATCH_SIZE = 10;
const POLL_INTERVAL_MS = 2_000;
const KICK_AFTER_COMMIT_MS = 50;

export interface MailboxEntry {
  id: number;
  template: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  status: string;
  created_at: string;
}

export interface MailerOptions {
  database: Database;
  smtpUrl: string | undefined;
  from: string;
  siteName: string;
  onError?: (error: unknown) => void;
}

interface OutboxRow {
  id: number;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: number;
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
    const { rows } = await sql.query<{ id: number }>(
      `insert into mail_outbox (template, to_address, subject, text_body, html_body, status)
       values ($1, $2, $3, $4, $5, $6) returning id`,
      [mail.template, to, rendered.subject, rendered.text, rendered.html, transport ? "pending" : "stored"],
    );
    if (transport && sql === database.sql) kick();
    else if (transport) setTimeout(() => void kick(), KICK_AFTER_COMMIT_MS).unref();
    return rows[0]?.id ?? 0;
  }

  /** Delivers one batch of due mail; returns how many were sent. */
  async function deliverDue(): Promise<number> {
    if (!transport) return 0;
    return database.sql.transaction(async (tx) => {
      const { rows } = await tx.query<OutboxRow>(
        `select id, to_address, subject, text_body, html_body, attempts from mail_outbox
         where status = 'pending' and next_attempt_at <= now()
         order by id limit ${BATCH_SIZE} for update skip locked`,
      );
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
          await tx.query(
            `update mail_outbox set status = 'sent', sent_at = now(), attempts = attempts + 1 where id = $1`,
            [row.id],
          );
          sent += 1;
        } catch (error) {
          const attempts = row.attempts + 1;
          const backoffSeconds = 10 * 2 ** attempts;
          await tx.query(
            `update mail_outbox set attempts = $2::int, last_error = $3,
               status = case when $2::int >= ${MAX_MAIL_ATTEMPTS} then 'failed' else 'pending' end,
               next_attempt_at = now() + make_interval(secs => $4::int)
             where id = $1`,
            [
              row.id,
              attempts,
              error instanceof Error ? error.message.slice(0, 500) : String(error),
              backoffSeconds,
            ],
          );
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
      const { rows } = await database.sql.query<MailboxEntry & { created_at: Date | string }>(
        `select id, template, to_address as "to", subject, text_body as "text", html_body as "html", status, created_at
         from mail_outbox where ($2::text is null or to_address = $2) order by id desc limit $1`,
        [limit, to ?? null],
      );
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
