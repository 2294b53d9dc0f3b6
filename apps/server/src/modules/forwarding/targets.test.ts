import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiCaller } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";
import { seatIn, startReceiver, vendorWithProgram, verifySignature, waitFor } from "./testing.ts";

let harness: Awaited<ReturnType<typeof createTestApp>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let secret = "";

beforeAll(async () => {
  harness = await createTestApp({ FORWARDING_ALLOW_LOOPBACK: "true", FORWARDING_POLL_SECONDS: "0.1" });
  receiver = await startReceiver({ secret: () => secret });
});
afterAll(async () => {
  await receiver.close();
  await harness.close();
});

const slug = () => `targets-${Math.random().toString(36).slice(2, 10)}`;
type Target = { id: number; status: string; events: string[]; format: string };
type DeliveryPage = {
  data: {
    id: number;
    event_type: string;
    status: string;
    manual: boolean;
    last_status_code: number | null;
    attempt_log: { status_code: number | null }[];
  }[];
  pagination: { total: number };
};

/** Every targets route with a target id of `id` and a delivery id of `deliveryId`. */
function everyRoute(
  id: number,
  deliveryId: number,
): [string, (caller: ApiCaller) => ReturnType<ApiCaller["get"]>][] {
  const base = "/api/vendor/forwarding";
  return [
    ["list", (caller) => caller.get(`${base}/targets`)],
    ["add e-mail", (caller) => caller.post(`${base}/targets/email`, { email: "x@acme.example" })],
    ["add webhook", (caller) => caller.post(`${base}/targets/webhook`, { url: receiver.url })],
    ["update", (caller) => caller.put(`${base}/targets/${id}`, { events: [] })],
    ["resend", (caller) => caller.post(`${base}/targets/${id}/resend-confirmation`)],
    ["rotate", (caller) => caller.post(`${base}/targets/${id}/rotate-secret`)],
    ["disable", (caller) => caller.post(`${base}/targets/${id}/disable`)],
    ["enable", (caller) => caller.post(`${base}/targets/${id}/enable`)],
    ["test", (caller) => caller.post(`${base}/targets/${id}/test`)],
    ["deliveries", (caller) => caller.get(`${base}/targets/${id}/deliveries`)],
    ["redeliver", (caller) => caller.post(`${base}/deliveries/${deliveryId}/redeliver`)],
    ["delete", (caller) => caller.delete(`${base}/targets/${id}`)],
  ];
}

describe("webhook targets", () => {
  it("are premium only: a free vendor is told to upgrade", async () => {
    const vendor = await vendorWithProgram(harness.app, harness.database, slug(), "free");
    const answer = await vendor.caller.post("/api/vendor/forwarding/targets/webhook", { url: receiver.url });
    expect(answer.statusCode).toBe(403);
    expect(answer.json<{ message: string }>().message).toContain("premium plan");
    expect((await vendor.caller.get("/api/vendor/forwarding/targets")).json()).toEqual({
      plan: "free",
      data: [],
    });
  });

  it("show the secret once, send a signed test event, log it, redeliver it and rotate the secret", async () => {
    const vendor = await vendorWithProgram(harness.app, harness.database, slug());
    const created = await vendor.caller.post("/api/vendor/forwarding/targets/webhook", {
      url: receiver.url,
      format: "json",
      events: ["report.validated", "report.validated", "report.comment_added"],
    });
    expect(created.statusCode, created.body).toBe(201);
    const { target, secret: shown } = created.json<{ target: Target; secret: string }>();
    secret = shown;
    expect(shown).toMatch(/^whsec_/);
    expect(target).toMatchObject({ status: "active", events: ["report.validated", "report.comment_added"] });
    const listed = await vendor.caller.get("/api/vendor/forwarding/targets");
    expect(listed.body).not.toContain(shown);
    expect(listed.json<{ plan: string; data: Target[] }>()).toMatchObject({
      plan: "premium",
      data: [{ id: target.id }],
    });

    const sent = await vendor.caller.post(`/api/vendor/forwarding/targets/${target.id}/test`);
    expect(sent.statusCode, sent.body).toBe(202);
    const page = await waitFor(async () => {
      const log = (
        await vendor.caller.get(`/api/vendor/forwarding/targets/${target.id}/deliveries`)
      ).json<DeliveryPage>();
      return log.data[0]?.status === "succeeded" && log;
    });
    expect(page.data[0]).toMatchObject({ event_type: "report.test", manual: true, last_status_code: 200 });
    const testRequest = receiver.received.at(-1);
    expect(testRequest?.headers["x-pressguard-event"]).toBe("report.test");
    expect(testRequest?.signatureValid).toBe(true);

    const again = await vendor.caller.post(`/api/vendor/forwarding/deliveries/${page.data[0]?.id}/redeliver`);
    expect(again.statusCode, again.body).toBe(202);
    const redelivered = await waitFor(async () => {
      const log = (
        await vendor.caller.get(`/api/vendor/forwarding/targets/${target.id}/deliveries`)
      ).json<DeliveryPage>();
      return log.data.length === 2 && log.data.every((row) => row.status === "succeeded") && log;
    });
    expect(redelivered.pagination.total).toBe(2);
    const [latest, earlier] = receiver.received.slice(-2);
    expect(latest?.headers["x-pressguard-event-id"]).toBe(earlier?.headers["x-pressguard-event-id"]);
    expect(latest?.headers["x-pressguard-delivery"]).not.toBe(earlier?.headers["x-pressguard-delivery"]);

    const rotated = await vendor.caller.post(`/api/vendor/forwarding/targets/${target.id}/rotate-secret`);
    const newSecret = rotated.json<{ secret: string }>().secret;
    expect(newSecret).not.toBe(shown);
    secret = newSecret;
    await vendor.caller.post(`/api/vendor/forwarding/targets/${target.id}/test`);
    await waitFor(() => receiver.received.length >= 3 && receiver.received.at(-1)?.signatureValid);
    expect(
      verifySignature(
        shown,
        receiver.received.at(-1)?.headers["x-pressguard-signature"] as string,
        receiver.received.at(-1)?.body ?? "",
      ),
    ).toBe(false);

    const updated = await vendor.caller.put(`/api/vendor/forwarding/targets/${target.id}`, {
      format: "discord",
      events: [],
    });
    expect(updated.json()).toMatchObject({ format: "discord", events: [] });
    expect(
      (await vendor.caller.put(`/api/vendor/forwarding/targets/${target.id}`, { events: ["report.nope"] }))
        .statusCode,
    ).toBe(422);

    expect(
      (await vendor.caller.post(`/api/vendor/forwarding/targets/${target.id}/disable`)).json(),
    ).toMatchObject({
      status: "disabled",
      disabled_reason: "Disabled by your organisation.",
    });
    expect((await vendor.caller.post(`/api/vendor/forwarding/targets/${target.id}/test`)).statusCode).toBe(
      409,
    );
    expect(
      (await vendor.caller.post(`/api/vendor/forwarding/targets/${target.id}/enable`)).json(),
    ).toMatchObject({
      status: "active",
    });
    // Downgraded to free: the webhook stays listed but sends nothing.
    await harness.database.sql.query("update vendors set plan = 'free' where id = $1", [vendor.vendorId]);
    expect((await vendor.caller.post(`/api/vendor/forwarding/targets/${target.id}/test`)).statusCode).toBe(
      403,
    );

    expect((await vendor.caller.delete(`/api/vendor/forwarding/targets/${target.id}`)).statusCode).toBe(204);
    expect(
      (await vendor.caller.get(`/api/vendor/forwarding/targets/${target.id}/deliveries`)).statusCode,
    ).toBe(404);
  });
});

describe("e-mail targets API", () => {
  it("validates the address and can resend the confirmation until it is confirmed", async () => {
    const vendor = await vendorWithProgram(harness.app, harness.database, slug(), "free");
    const bad = await vendor.caller.post("/api/vendor/forwarding/targets/email", { email: "nope" });
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ errors: Record<string, string[]> }>().errors.email).toEqual([
      "Enter a valid e-mail address.",
    ]);
    const created = await vendor.caller.post("/api/vendor/forwarding/targets/email", {
      email: "triage@acme.example",
      events: ["report.deadline_near"],
    });
    const id = created.json<Target>().id;
    expect(
      (await vendor.caller.post(`/api/vendor/forwarding/targets/${id}/resend-confirmation`)).statusCode,
    ).toBe(200);
    const { rows } = await harness.database.sql.query(
      "select id from mail_outbox where to_address = 'triage@acme.example' and template = 'forwarding_confirm'",
    );
    expect(rows).toHaveLength(2);
    expect((await vendor.caller.post(`/api/vendor/forwarding/targets/${id}/test`)).statusCode).toBe(409);
    expect((await vendor.caller.post(`/api/vendor/forwarding/targets/${id}/rotate-secret`)).statusCode).toBe(
      409,
    );
  });
});

describe("who may manage forwarding", () => {
  it("refuses members (403) on every route; admins may; another vendor's ids do not exist (404)", async () => {
    const owner = await vendorWithProgram(harness.app, harness.database, slug());
    secret = "irrelevant";
    const created = await owner.caller.post("/api/vendor/forwarding/targets/webhook", { url: receiver.url });
    const targetId = created.json<{ target: Target }>().target.id;
    await owner.caller.post(`/api/vendor/forwarding/targets/${targetId}/test`);
    const deliveryId = await waitFor(async () => {
      const log = (
        await owner.caller.get(`/api/vendor/forwarding/targets/${targetId}/deliveries`)
      ).json<DeliveryPage>();
      return log.data[0]?.id;
    });

    const member = await seatIn(harness.app, harness.database, owner.vendorId, "member");
    for (const [name, call] of everyRoute(targetId, deliveryId)) {
      const answer = await call(member.caller);
      expect(answer.statusCode, name).toBe(403);
      expect(answer.json<{ message: string }>().message, name).toContain("owners and admins");
    }

    const other = await vendorWithProgram(harness.app, harness.database, slug());
    for (const [name, call] of everyRoute(targetId, deliveryId).filter(
      ([route]) => !route.startsWith("add") && route !== "list",
    ))
      expect((await call(other.caller)).statusCode, name).toBe(404);

    const admin = await seatIn(harness.app, harness.database, owner.vendorId, "admin");
    const listed = await admin.caller.get("/api/vendor/forwarding/targets");
    expect(listed.statusCode).toBe(200);
    expect(listed.json<{ data: Target[] }>().data.map((target) => target.id)).toEqual([targetId]);
  });
});
