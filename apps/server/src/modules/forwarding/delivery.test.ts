import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, buildApp } from "../../app.ts";
import { loadConfig } from "../../config.ts";
import type { Database } from "../../db/client.ts";
import { openTestDatabase } from "../../db/test-database.ts";
import { createApiCaller } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";
import { createStaffUser } from "../../test/staff.ts";
import { sha256 } from "../auth/credentials.ts";
import {
  callerFor,
  sampleValidation,
  startReceiver,
  submitReport,
  transition,
  vendorWithProgram,
  waitFor,
} from "./testing.ts";

const FAST = {
  FORWARDING_ALLOW_LOOPBACK: "true",
  FORWARDING_RETRY_BASE_SECONDS: "0.3",
  FORWARDING_POLL_SECONDS: "0.1",
};

const slugOf = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;

describe("webhook delivery through the real report lifecycle", () => {
  const attachmentsDir = mkdtempSync(join(tmpdir(), "pressguard-forwarding-"));
  const config = loadConfig({
    NODE_ENV: "test",
    CAPTCHA: "off",
    ATTACHMENTS_DIR: attachmentsDir,
    EXPORTS_DIR: join(attachmentsDir, "exports"),
    // Tests never reach the network: the upstream data sources stay off (decision 035).
    KEV_URL: "off",
    EPSS_URL: "off",
    WPORG_API_URL: "off",
    ...FAST,
  });
  let database: Database;
  let app: App | null = null;

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await app?.close();
    await database.close();
    rmSync(attachmentsDir, { recursive: true, force: true });
  });

  async function start() {
    app = await buildApp({ config, database });
    await app.ready();
    return app;
  }

  it("answers 500, 500, 200: exactly one successful delivery per event, also across an app restart", async () => {
    let secret = "";
    const receiver = await startReceiver({
      secret: () => secret,
      statusFor: (attempt) => (attempt <= 2 ? 500 : 200),
    });
    try {
      const first = await start();
      const slug = slugOf("restart-gallery");
      const vendor = await vendorWithProgram(first, database, slug);
      const created = await vendor.caller.post("/api/vendor/forwarding/targets/webhook", {
        url: receiver.url,
        format: "json",
      });
      expect(created.statusCode, created.body).toBe(201);
      secret = created.json<{ secret: string }>().secret;
      const staffId = await createStaffUser(database);
      const { id, researcher } = await submitReport(first, database, slug);

      const staff = await callerFor(first, database, staffId);
      await transition(staff, id, { action: "take_into_review" });
      await transition(staff, id, sampleValidation);
      // The first attempt is answered 500; the app goes away before the retries.
      await waitFor(() => receiver.received.length >= 1);
      await first.close();
      app = null;
      const beforeRestart = await database.sql.query<{ succeeded: boolean }>(
        "select succeeded from forward_delivery_attempts",
      );
      expect(beforeRestart.rows.length).toBeGreaterThanOrEqual(1);
      expect(beforeRestart.rows.some((row) => row.succeeded)).toBe(false);

      const second = await start();
      const staffAgain = await callerFor(second, database, staffId);
      await transition(staffAgain, id, { action: "notify_vendor" });
      expect(
        (
          await staffAgain.post(`/api/reports/${id}/comments`, {
            body: "TRIAGER-ONLY note",
            visibility: "staff",
          })
        ).statusCode,
      ).toBe(201);
      expect(
        (await staffAgain.post(`/api/reports/${id}/comments`, { body: "Please add a nonce check." }))
          .statusCode,
      ).toBe(201);

      const deliveries = await waitFor(async () => {
        const { rows } = await database.sql.query<{ type: string; status: string; attempts: number }>(
          `select e.type, d.status, d.attempts from forward_deliveries d
           join forward_events e on e.id = d.event_id order by d.id`,
        );
        return rows.length === 3 && rows.every((row) => row.status !== "pending") && rows;
      }, 20_000);
      expect(deliveries).toEqual([
        { type: "report.validated", status: "succeeded", attempts: 3 },
        { type: "report.status_changed", status: "succeeded", attempts: 3 },
        { type: "report.comment_added", status: "succeeded", attempts: 3 },
      ]);

      expect(receiver.received).toHaveLength(9);
      expect(receiver.received.every((request) => request.signatureValid)).toBe(true);
      const okPerEvent = new Map<string, number>();
      for (const request of receiver.received) {
        const eventId = String(request.headers["x-pressguard-event-id"]);
        if (request.answered === 200) okPerEvent.set(eventId, (okPerEvent.get(eventId) ?? 0) + 1);
      }
      expect([...okPerEvent.values()]).toEqual([1, 1, 1]);

      const headers = receiver.received[0]?.headers ?? {};
      expect(headers["content-type"]).toBe("application/json");
      expect(headers["user-agent"]).toBe("Pressguard-Webhooks/1");
      expect(headers["x-pressguard-event"]).toBe("report.validated");
      expect(headers["x-pressguard-delivery"]).toMatch(/^\d+$/);

      const bodies = receiver.received.map((request) => request.body).join("\n");
      const comment = receiver.received.find(
        (request) => request.headers["x-pressguard-event"] === "report.comment_added",
      );
      const payload = JSON.parse(comment?.body ?? "{}");
      expect(payload).toMatchObject({
        type: "report.comment_added",
        report: {
          id,
          title: "Stored XSS through the widget title",
          url: `${config.appUrl}/vdp/vulnerabilities/${id}/preview`,
          product: { slug, kind: "plugin", name: "Acme Gallery" },
          state: { from: "awaiting_fix", to: "awaiting_fix" },
          severity: "medium",
          cvss: { score: 5.4, vector: sampleValidation.cvss_vector },
          affected_versions: "<=2.4.1",
          fixed_version: "2.4.2",
        },
        comment: { body: "Please add a nonce check." },
      });
      expect(payload.id).toBe(comment?.headers["x-pressguard-event-id"]);
      expect(bodies).not.toContain("TRIAGER-ONLY");
      expect(bodies).not.toContain(researcher.email);
      expect(bodies).not.toContain("token=");

      const attempts = await database.sql.query<{ status_code: number; succeeded: boolean }>(
        "select status_code, succeeded from forward_delivery_attempts order by id",
      );
      expect(attempts.rows.filter((row) => row.succeeded)).toHaveLength(3);
      expect(attempts.rows.filter((row) => row.status_code === 500)).toHaveLength(6);
    } finally {
      await receiver.close();
    }
  });
});

describe("e-mail targets", () => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp(FAST);
  });
  afterAll(() => harness.close());

  const mailsTo = async (address: string) =>
    (
      await harness.database.sql.query<{ template: string; text_body: string }>(
        "select template, text_body from mail_outbox where to_address = $1 order by id",
        [address],
      )
    ).rows;

  const deliveriesTo = async (address: string) =>
    (
      await harness.database.sql.query<{ status: string; attempts: number; recorded: number }>(
        `select d.status, d.attempts,
           (select count(*)::int from forward_delivery_attempts a where a.delivery_id = d.id) as recorded
         from forward_deliveries d join forward_targets t on t.id = d.target_id
         where t.email = $1 order by d.id`,
        [address],
      )
    ).rows;

  it("receive nothing before the mailed link is confirmed (by POST), then receive the events", async () => {
    const { app, database } = harness;
    const slug = slugOf("mail-gallery");
    const vendor = await vendorWithProgram(app, database, slug, "free");
    const address = `security-${Math.random().toString(36).slice(2, 8)}@acme.example`;
    const created = await vendor.caller.post("/api/vendor/forwarding/targets/email", {
      email: address.toUpperCase(),
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ kind: "email", email: address, status: "pending" });
    const [confirmation] = await mailsTo(address);
    expect(confirmation?.template).toBe("forwarding_confirm");
    const link = /\/forwarding\/confirm\/(\S+)/.exec(confirmation?.text_body ?? "")?.[1] ?? "";
    expect(link).not.toBe("");

    const staff = await callerFor(app, database, await createStaffUser(database));
    const { id } = await submitReport(app, database, slug);
    await transition(staff, id, { action: "take_into_review" });
    await transition(staff, id, sampleValidation);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await mailsTo(address)).map((mail) => mail.template)).toEqual(["forwarding_confirm"]);
    expect((await database.sql.query("select id from forward_deliveries")).rows).toHaveLength(0);

    const stranger = createApiCaller(app, { ip: "10.62.0.1" });
    expect((await stranger.post("/api/forwarding/confirm", { token: "unknown.token" })).statusCode).toBe(404);
    const confirmed = await stranger.post("/api/forwarding/confirm", { token: decodeURIComponent(link) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ email: address });
    expect(
      (await stranger.post("/api/forwarding/confirm", { token: decodeURIComponent(link) })).statusCode,
    ).toBe(409);

    await transition(staff, id, { action: "notify_vendor" });
    const forwarded = await waitFor(async () =>
      (await mailsTo(address)).find((mail) => mail.template === "forwarded_report_event"),
    );
    expect(forwarded.text_body).toContain("Stored XSS through the widget title");
    expect(forwarded.text_body).toContain(`/vdp/vulnerabilities/${id}/preview`);
    expect(forwarded.text_body).not.toContain("token=");
    const log = await vendor.caller.get(
      `/api/vendor/forwarding/targets/${created.json<{ id: number }>().id}/deliveries`,
    );
    expect(log.json<{ data: { event_type: string; status: string }[] }>().data).toEqual([
      expect.objectContaining({ event_type: "report.status_changed", status: "succeeded" }),
    ]);
  });

  it("queue the forwarded mail with the attempt's record: a record that fails queues nothing, the retry queues one", async () => {
    const { app, database } = harness;
    const slug = slugOf("atomic-gallery");
    const vendor = await vendorWithProgram(app, database, slug, "free");
    const address = `atomic-${Math.random().toString(36).slice(2, 8)}@acme.example`;
    expect(
      (await vendor.caller.post("/api/vendor/forwarding/targets/email", { email: address })).statusCode,
    ).toBe(201);
    const [confirmation] = await mailsTo(address);
    const link = /\/forwarding\/confirm\/(\S+)/.exec(confirmation?.text_body ?? "")?.[1] ?? "";
    const stranger = createApiCaller(app, { ip: "10.62.0.3" });
    expect(
      (await stranger.post("/api/forwarding/confirm", { token: decodeURIComponent(link) })).statusCode,
    ).toBe(200);
    // The database refuses to record any attempt, as a fault after the mail was queued would.
    await database.sql.query(`create function refuse_attempt() returns trigger language plpgsql as
      $$ begin raise exception 'attempt not recorded'; end $$`);
    await database.sql.query(`create trigger refuse_attempt before insert on forward_delivery_attempts
      for each row execute function refuse_attempt()`);
    try {
      const staff = await callerFor(app, database, await createStaffUser(database));
      const { id } = await submitReport(app, database, slug);
      await transition(staff, id, { action: "take_into_review" });
      await transition(staff, id, sampleValidation);
      await transition(staff, id, { action: "notify_vendor" });
      // Two events reach the target (validated, then status changed): each is claimed and sent.
      await waitFor(async () => {
        const rows = await deliveriesTo(address);
        return rows.length === 2 && rows.every((row) => row.attempts >= 1);
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await mailsTo(address)).map((mail) => mail.template)).toEqual(["forwarding_confirm"]);
    } finally {
      await database.sql.query("drop trigger refuse_attempt on forward_delivery_attempts");
      await database.sql.query("drop function refuse_attempt()");
    }
    // The leases run out (as after 120 s): each delivery is taken up again and its mail queued once.
    await database.sql.query(
      `update forward_deliveries set locked_until = null where target_id in
         (select id from forward_targets where email = $1)`,
      [address],
    );
    const finished = await waitFor(async () => {
      const rows = await deliveriesTo(address);
      return rows.every((row) => row.status === "succeeded") && rows;
    });
    expect(finished.map((row) => row.recorded)).toEqual([1, 1]);
    expect((await mailsTo(address)).map((mail) => mail.template)).toEqual([
      "forwarding_confirm",
      "forwarded_report_event",
      "forwarded_report_event",
    ]);
  });

  it("refuses an expired confirmation link with 410", async () => {
    const { app, database } = harness;
    const vendor = await vendorWithProgram(app, database, slugOf("expired-gallery"), "free");
    const created = await vendor.caller.post("/api/vendor/forwarding/targets/email", {
      email: "late@acme.example",
    });
    const eightDaysAgo = Math.floor((Date.now() - 8 * 86_400_000) / 1000).toString(36);
    const token = `oldtoken.${eightDaysAgo}`;
    await database.sql.query("update forward_targets set confirmation_token_hash = $2 where id = $1", [
      created.json<{ id: number }>().id,
      sha256(token),
    ]);
    const answer = await createApiCaller(app, { ip: "10.62.0.2" }).post("/api/forwarding/confirm", { token });
    expect(answer.statusCode).toBe(410);
    expect(answer.json<{ message: string }>().message).toContain("expired");
  });
});
