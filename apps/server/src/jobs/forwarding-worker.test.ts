import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "../db/client.ts";
import { openTestDatabase } from "../db/test-database.ts";
import type { MailTemplate } from "../mail/templates.ts";
import { testPayload } from "../modules/forwarding/payload.ts";
import { insertDeliveries, insertEvent } from "../modules/forwarding/queries.ts";
import { startReceiver } from "../modules/forwarding/testing.ts";
import {
  backoffSeconds,
  createForwardingWorker,
  GIVE_UP_AFTER_MS,
  MAX_CONSECUTIVE_FAILURES,
} from "./forwarding-worker.ts";

let database: Database;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let status = 500;
const mails: { to: string; mail: MailTemplate }[] = [];
let clock = new Date("2026-03-01T12:00:00Z");

beforeAll(async () => {
  database = await openTestDatabase();
  receiver = await startReceiver({ statusFor: () => status });
});
afterAll(async () => {
  await receiver.close();
  await database.close();
});
beforeEach(() => {
  status = 500;
  mails.length = 0;
  clock = new Date("2026-03-01T12:00:00Z");
});

const worker = () =>
  createForwardingWorker({
    database,
    mailer: {
      enqueue: async (to, mail) => {
        mails.push({ to, mail });
        return 1;
      },
    },
    appUrl: "http://pressguard.test",
    allowLoopback: true,
    retryBaseSeconds: 30,
    pollSeconds: 60,
    now: () => clock,
  });

/** A premium vendor with one owner and one webhook target pointing at the receiver. */
async function webhookTarget() {
  const suffix = Math.random().toString(36).slice(2, 8);
  const { rows: vendors } = await database.sql.query<{ id: number }>(
    `insert into vendors (vendor_name, contact_email, contact_person, plan)
     values ($1, 'sec@acme.example', 'Ada', 'premium') returning id`,
    [`Acme ${suffix}`],
  );
  const vendorId = vendors[0]?.id ?? 0;
  const { rows: users } = await database.sql.query<{ id: number }>(
    "insert into users (name, email, password_hash) values ('Olivia Owner', $1, 'x') returning id",
    [`owner-${suffix}@acme.example`],
  );
  await database.sql.query("insert into vendor_members (vendor_id, user_id, role) values ($1, $2, 'owner')", [
    vendorId,
    users[0]?.id,
  ]);
  const { rows } = await database.sql.query<{ id: number }>(
    `insert into forward_targets (vendor_id, kind, url, secret, status) values ($1, 'webhook', $2, 'whsec_test', 'active')
     returning id`,
    [vendorId, receiver.url],
  );
  return { vendorId, targetId: rows[0]?.id ?? 0, ownerEmail: `owner-${suffix}@acme.example` };
}

async function queueEvent(vendorId: number, targetId: number) {
  const eventId = await insertEvent(
    database.sql,
    { vendorId },
    null,
    testPayload("http://pressguard.test", clock),
    clock,
  );
  await insertDeliveries(database.sql, eventId, [targetId], clock);
  const { rows } = await database.sql.query<{ id: number }>(
    "select id from forward_deliveries where event_id = $1",
    [eventId],
  );
  return Number(rows[0]?.id);
}

async function deliveryOf(id: number) {
  const { rows } = await database.sql.query<{
    status: string;
    attempts: number;
    next_attempt_at: Date | string;
  }>("select status, attempts, next_attempt_at from forward_deliveries where id = $1", [id]);
  const row = rows[0];
  return row && { ...row, next_attempt_at: new Date(row.next_attempt_at).toISOString() };
}

const advance = (seconds: number) => {
  clock = new Date(clock.getTime() + seconds * 1000);
};

describe("the forwarding worker", () => {
  it("backs off 30 s · 2^n, capped at one hour", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((attempts) => backoffSeconds(30, attempts))).toEqual([
      30, 60, 120, 240, 480, 960, 1920, 3600,
    ]);
    expect(backoffSeconds(30, 20)).toBe(3600);
  });

  it("retries on that schedule and not before it is due", async () => {
    const { vendorId, targetId } = await webhookTarget();
    const id = await queueEvent(vendorId, targetId);
    const jobs = worker();
    const started = clock.getTime();
    expect(await jobs.runOnce()).toBe(1);
    expect(await deliveryOf(id)).toMatchObject({
      status: "pending",
      attempts: 1,
      next_attempt_at: new Date(started + 30_000).toISOString(),
    });
    advance(29);
    expect(await jobs.runOnce()).toBe(0);
    advance(1);
    expect(await jobs.runOnce()).toBe(1);
    expect((await deliveryOf(id))?.next_attempt_at).toBe(new Date(clock.getTime() + 60_000).toISOString());
    advance(60);
    status = 200;
    expect(await jobs.runOnce()).toBe(1);
    expect(await deliveryOf(id)).toMatchObject({ status: "succeeded", attempts: 3 });
    const { rows } = await database.sql.query<{ consecutive_failures: number }>(
      "select consecutive_failures from forward_targets where id = $1",
      [targetId],
    );
    expect(rows[0]?.consecutive_failures).toBe(0);
  });

  it("gives up 24 h after the event", async () => {
    const { vendorId, targetId } = await webhookTarget();
    const id = await queueEvent(vendorId, targetId);
    const jobs = worker();
    await jobs.runOnce();
    // Near the end of the window the next retry would fall after it: the delivery fails.
    advance(GIVE_UP_AFTER_MS / 1000 - 30);
    expect(await jobs.runOnce()).toBe(1);
    expect(await deliveryOf(id)).toMatchObject({ status: "failed", attempts: 2 });
    advance(7200);
    expect(await jobs.runOnce()).toBe(0);
  });

  it(`disables a target after ${MAX_CONSECUTIVE_FAILURES} failures in a row and e-mails the owners`, async () => {
    const { vendorId, targetId, ownerEmail } = await webhookTarget();
    for (let index = 0; index < MAX_CONSECUTIVE_FAILURES + 1; index += 1)
      await queueEvent(vendorId, targetId);
    const jobs = worker();
    await jobs.runOnce();
    await jobs.runOnce();
    const { rows } = await database.sql.query<{
      status: string;
      disabled_reason: string;
      consecutive_failures: number;
    }>("select status, disabled_reason, consecutive_failures from forward_targets where id = $1", [targetId]);
    expect(rows[0]).toMatchObject({ status: "disabled", consecutive_failures: MAX_CONSECUTIVE_FAILURES });
    expect(rows[0]?.disabled_reason).toContain("20 failed deliveries in a row");
    expect(mails.map(({ to, mail }) => [to, mail.template])).toEqual([
      [ownerEmail, "forwarding_target_disabled"],
    ]);
    // The 21st delivery ended with the target; nothing more is sent.
    const pending = await database.sql.query(
      "select id from forward_deliveries where target_id = $1 and status = 'pending'",
      [targetId],
    );
    expect(pending.rows).toHaveLength(0);
    advance(3600);
    expect(await jobs.runOnce()).toBe(0);
  });

  it("does not let a receiver that hangs hold up another target's delivery", async () => {
    const hanging = await startReceiver({ handle: () => true });
    try {
      const slow = await webhookTarget();
      await database.sql.query("update forward_targets set url = $2 where id = $1", [
        slow.targetId,
        hanging.url,
      ]);
      const fast = await webhookTarget();
      status = 200;
      await queueEvent(slow.vendorId, slow.targetId);
      const fastDelivery = await queueEvent(fast.vendorId, fast.targetId);
      const jobs = createForwardingWorker({
        database,
        mailer: { enqueue: async () => 1 },
        appUrl: "http://pressguard.test",
        allowLoopback: true,
        retryBaseSeconds: 30,
        pollSeconds: 60,
        timeoutMs: 3_000,
        now: () => clock,
      });
      const started = performance.now();
      const pass = jobs.runOnce();
      // The other vendor's delivery is done long before the hanging one is cut off.
      for (let waited = 0; (await deliveryOf(fastDelivery))?.status !== "succeeded"; waited += 50) {
        expect(waited).toBeLessThan(2_000);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(performance.now() - started).toBeLessThan(2_500);
      expect(await pass).toBe(2);
      // The cut-off delivery waits for a retry: out of the way of the next tests.
      await database.sql.query("update forward_deliveries set status = 'failed' where target_id = $1", [
        slow.targetId,
      ]);
    } finally {
      await hanging.close();
    }
  });

  it("takes up a delivery whose lease expired (a crashed worker)", async () => {
    const { vendorId, targetId } = await webhookTarget();
    const id = await queueEvent(vendorId, targetId);
    await database.sql.query("update forward_deliveries set locked_until = $2 where id = $1", [
      id,
      new Date(clock.getTime() + 60_000),
    ]);
    const jobs = worker();
    expect(await jobs.runOnce()).toBe(0);
    advance(61);
    status = 200;
    expect(await jobs.runOnce()).toBe(1);
    expect((await deliveryOf(id))?.status).toBe("succeeded");
  });
});
