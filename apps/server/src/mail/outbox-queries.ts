import type { SqlRunner } from "../db/client.ts";

/** The statements on mail_outbox of mail/outbox.ts. */

export interface OutboxRow {
  id: number;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: number;
}

export interface MailboxRow {
  id: number;
  template: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  status: string;
  created_at: Date | string;
}

/** Stores a rendered mail, `pending` (to be sent) or `stored` (no SMTP server); its id. */
export async function insertMail(
  sql: SqlRunner,
  mail: {
    template: string;
    to: string;
    subject: string;
    text: string;
    html: string;
    status: "pending" | "stored";
  },
): Promise<number> {
  const { rows } = await sql.query<{ id: number }>(
    `insert into mail_outbox (template, to_address, subject, text_body, html_body, status)
     values ($1, $2, $3, $4, $5, $6) returning id`,
    [mail.template, mail.to, mail.subject, mail.text, mail.html, mail.status],
  );
  return rows[0]?.id ?? 0;
}

/** Up to `limit` due mails, locked for this transaction; others' locked rows are skipped. */
export async function claimDueMail(tx: SqlRunner, limit: number): Promise<OutboxRow[]> {
  const { rows } = await tx.query<OutboxRow>(
    `select id, to_address, subject, text_body, html_body, attempts from mail_outbox
     where status = 'pending' and next_attempt_at <= now()
     order by id limit $1 for update skip locked`,
    [limit],
  );
  return rows;
}

export async function markMailSent(tx: SqlRunner, id: number) {
  await tx.query(
    `update mail_outbox set status = 'sent', sent_at = now(), attempts = attempts + 1 where id = $1`,
    [id],
  );
}

/** Records a failed delivery: tried again after `backoffSeconds`, or `failed` at `maxAttempts`. */
export async function markMailAttemptFailed(
  tx: SqlRunner,
  failure: { id: number; attempts: number; error: string; backoffSeconds: number; maxAttempts: number },
) {
  await tx.query(
    `update mail_outbox set attempts = $2::int, last_error = $3,
       status = case when $2::int >= $5::int then 'failed' else 'pending' end,
       next_attempt_at = now() + make_interval(secs => $4::int)
     where id = $1`,
    [failure.id, failure.attempts, failure.error, failure.backoffSeconds, failure.maxAttempts],
  );
}

/** The newest `limit` mails, to `to` only when given. */
export async function listMail(sql: SqlRunner, limit: number, to?: string): Promise<MailboxRow[]> {
  const { rows } = await sql.query<MailboxRow>(
    `select id, template, to_address as "to", subject, text_body as "text", html_body as "html", status, created_at
     from mail_outbox where ($2::text is null or to_address = $2) order by id desc limit $1`,
    [limit, to ?? null],
  );
  return rows;
}
