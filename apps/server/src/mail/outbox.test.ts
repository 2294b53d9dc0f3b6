import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/client.ts";
import { openTestDatabase } from "../db/test-database.ts";
import { registerUser } from "../test/api-client.ts";
import { createTestApp } from "../test/app.ts";
import { createMailer, MAX_MAIL_ATTEMPTS } from "./outbox.ts";

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server in-process: what the product sends arrives here as raw RFC 5322 text. */
async function startSmtpServer(options: { rejectFirst?: number } = {}) {
  const received: Received[] = [];
  let rejections = options.rejectFirst ?? 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        if (rejections > 0) {
          rejections -= 1;
          const error = Object.assign(new Error("Mailbox busy, try later"), { responseCode: 451 });
          callback(error);
          return;
        }
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function waitFor<T>(probe: () => T | undefined, timeoutMs = 5_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Quoted-printable soft line breaks split long URLs; join them back for assertions. */
function decoded(raw: string): string {
  return raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
}

describe("mail over SMTP", () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    harness = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM: "Pressguard <mail@pressguard.test>" });
  });
  afterAll(async () => {
    await harness.close();
    await smtp.close();
  });

  it("delivers the verification mail of a new account, in plain text and HTML", async () => {
    const { email } = await registerUser(harness.app, { name: "Grace" });
    const mail = await waitFor(() => smtp.received.find((entry) => entry.to.includes(email)));
    expect(mail.from).toBe("mail@pressguard.test");
    const body = decoded(mail.raw);
    expect(body).toContain("Subject: Confirm your e-mail address for Pressguard");
    expect(body).toContain("Content-Type: text/plain");
    expect(body).toContain("Content-Type: text/html");
    expect(body).toContain("Hello Grace,");
    expect(body).toMatch(/http:\/\/localhost:3000\/api\/email\/verify\/[A-Za-z0-9_-]{43}/);
  });

  it("marks a delivered mail sent", async () => {
    const { email } = await registerUser(harness.app);
    await waitFor(() => smtp.received.find((entry) => entry.to.includes(email)));
    const status = async () =>
      (
        await harness.database.sql.query<{ status: string }>(
          "select status from mail_outbox where to_address = $1",
          [email],
        )
      ).rows[0]?.status;
    const started = Date.now();
    while ((await status()) !== "sent" && Date.now() - started < 5_000)
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect(await status()).toBe("sent");
  });
});

describe("the mail queue", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  it("retries a mail the SMTP server refused, then delivers it once", async () => {
    const smtp = await startSmtpServer({ rejectFirst: 1 });
    const mailer = createMailer({
      database,
      smtpUrl: smtp.url,
      from: "a@pressguard.test",
      siteName: "Pressguard",
    });
    try {
      const id = await mailer.enqueue("retry@example.test", {
        template: "magic_link",
        name: "Retry",
        url: "http://localhost/login/magic-link/x",
      });
      await mailer.kick();
      const afterFailure = await database.sql.query<{ status: string; attempts: number; last_error: string }>(
        "select status, attempts, last_error from mail_outbox where id = $1",
        [id],
      );
      expect(afterFailure.rows[0]).toMatchObject({ status: "pending", attempts: 1 });
      expect(afterFailure.rows[0]?.last_error).toContain("Mailbox busy");
      // Not due yet: the back-off holds it back.
      expect(await mailer.deliverDue()).toBe(0);
      await database.sql.query("update mail_outbox set next_attempt_at = now() where id = $1", [id]);
      expect(await mailer.deliverDue()).toBe(1);
      expect(await mailer.deliverDue()).toBe(0);
      expect(smtp.received.filter((entry) => entry.to.includes("retry@example.test"))).toHaveLength(1);
    } finally {
      await mailer.stop();
      await smtp.close();
    }
  });

  it("gives up after the last attempt", async () => {
    const smtp = await startSmtpServer({ rejectFirst: 100 });
    const mailer = createMailer({
      database,
      smtpUrl: smtp.url,
      from: "a@pressguard.test",
      siteName: "Pressguard",
    });
    try {
      const id = await mailer.enqueue("never@example.test", {
        template: "password_reset",
        name: "Never",
        url: "http://localhost/reset-password/x",
      });
      for (let attempt = 0; attempt < MAX_MAIL_ATTEMPTS; attempt += 1) {
        await database.sql.query("update mail_outbox set next_attempt_at = now() where id = $1", [id]);
        await mailer.deliverDue();
      }
      const { rows } = await database.sql.query<{ status: string; attempts: number }>(
        "select status, attempts from mail_outbox where id = $1",
        [id],
      );
      expect(rows[0]).toEqual({ status: "failed", attempts: MAX_MAIL_ATTEMPTS });
    } finally {
      await mailer.stop();
      await smtp.close();
    }
  });

  it("only stores mail when no SMTP server is configured, for the development mailbox", async () => {
    const mailer = createMailer({
      database,
      smtpUrl: undefined,
      from: "a@pressguard.test",
      siteName: "Site <b>",
    });
    await mailer.enqueue("first@example.test", {
      template: "magic_link",
      name: "<i>First</i>",
      url: "http://x/1",
    });
    await mailer.enqueue("second@example.test", {
      template: "magic_link",
      name: "Second",
      url: "http://x/2",
    });
    const [newest, older] = await mailer.listMailbox(2);
    expect(newest?.to).toBe("second@example.test");
    expect(older?.to).toBe("first@example.test");
    expect(older?.status).toBe("stored");
    // HTML is escaped, the plain text is not.
    expect(older?.html).toContain("Hello &lt;i&gt;First&lt;/i&gt;,");
    expect(older?.text).toContain("Hello <i>First</i>,");
    expect(older?.subject).toBe("Your Site <b> sign-in link");
  });
});
