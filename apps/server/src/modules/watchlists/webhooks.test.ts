import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importVulnerabilities } from "../../db/import.ts";
import { WEB_DIRECTORY_SQLI } from "../../db/import-fixtures.ts";
import { createWatchAlertJob } from "../../jobs/watch-alert-job.ts";
import { createMailer } from "../../mail/outbox.ts";
import { registerUser } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";
import { startReceiver, vendorWithProgram, waitFor } from "../forwarding/testing.ts";

/**
 * Issue 20: a watchlist's alerts reach its webhooks — Pressguard's signed JSON, Slack's and Discord's
 * own formats — through the report forwarding's queue, once per alert, never for a cosmetic edit.
 */
let harness: Awaited<ReturnType<typeof createTestApp>>;
let job: ReturnType<typeof createWatchAlertJob>;
let testSecret = "";
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  harness = await createTestApp({
    FORWARDING_ALLOW_LOOPBACK: "true",
    FORWARDING_POLL_SECONDS: "0.1",
    FORWARDING_RETRY_BASE_SECONDS: "0.3",
  });
  receiver = await startReceiver({ secret: () => testSecret });
  job = createWatchAlertJob({
    database: harness.database,
    mailer: createMailer({
      database: harness.database,
      smtpUrl: undefined,
      from: "t@example.test",
      siteName: "P",
    }),
    appUrl: "http://localhost:3000",
  });
});
afterAll(async () => {
  await receiver.close();
  await harness.close();
});

const line = (record: unknown) => [JSON.stringify(record)];
const LATER = {
  ...WEB_DIRECTORY_SQLI,
  id: "6b1b7c1e-8d4f-4f57-9a53-3f5f0c2b9e11",
  title: "Web Directory Free <= 1.6.9 - Unauthenticated SQL Injection via <orderby>",
};

async function deliveriesOf(targetIds: number[]) {
  const { rows } = await harness.database.sql.query<{ target_id: number; type: string; payload: unknown }>(
    `select d.target_id, e.type, e.payload from forward_deliveries d join forward_events e on e.id = d.event_id
     where d.target_id = any($1::int[]) order by d.id`,
    [targetIds],
  );
  return rows;
}

describe("watchlist alert webhooks", () => {
  it("are the owner's alone, checked like forwarding's, at most five per watchlist", async () => {
    const owner = await registerUser(harness.app);
    const stranger = await registerUser(harness.app);
    const created = await owner.caller.post("/api/watchlists", {
      name: "shop.example",
      entries: [{ kind: "plugin", slug: "web-directory-free", version: "1.6.0" }],
    });
    const id = created.json<{ id: string }>().id;

    const made = await owner.caller.post(`/api/watchlists/${id}/webhooks`, {
      url: receiver.url,
      format: "slack",
    });
    expect(made.statusCode, made.body).toBe(201);
    const { target, secret } = made.json<{
      target: { id: number; format: string; status: string };
      secret: string;
    }>();
    expect(target).toMatchObject({ format: "slack", status: "active" });
    expect(secret).toMatch(/^whsec_/);
    expect((await owner.caller.get(`/api/watchlists/${id}/webhooks`)).json()).toMatchObject({
      data: [{ id: target.id, url: receiver.url, format: "slack" }],
    });

    // Another user: the watchlist and its webhooks do not exist for them.
    expect((await stranger.caller.get(`/api/watchlists/${id}/webhooks`)).statusCode).toBe(404);
    expect((await stranger.caller.delete(`/api/watchlists/${id}/webhooks/${target.id}`)).statusCode).toBe(
      404,
    );
    expect(
      (await stranger.caller.post(`/api/watchlists/${id}/webhooks/${target.id}/test`, {})).statusCode,
    ).toBe(404);

    const bad = await owner.caller.post(`/api/watchlists/${id}/webhooks`, {
      url: "ftp://x.example",
      format: "json",
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ errors: Record<string, string[]> }>().errors.url).toBeDefined();
    for (let index = 1; index < 5; index += 1)
      expect(
        (await owner.caller.post(`/api/watchlists/${id}/webhooks`, { url: receiver.url })).statusCode,
      ).toBe(201);
    const sixth = await owner.caller.post(`/api/watchlists/${id}/webhooks`, { url: receiver.url });
    expect(sixth.statusCode).toBe(409);
    expect(sixth.json<{ message: string }>().message).toContain("at most 5 webhooks");
    // Deleting the watchlist deletes its webhooks.
    expect((await owner.caller.delete(`/api/watchlists/${id}`)).statusCode).toBe(204);
    const { rows } = await harness.database.sql.query(
      "select 1 from forward_targets where watchlist_id = $1",
      [id],
    );
    expect(rows).toEqual([]);
  });

  it("sends a test event, signed, and logs its delivery", async () => {
    const owner = await registerUser(harness.app);
    const id = (await owner.caller.post("/api/watchlists", { name: "blog.example", entries: [] })).json<{
      id: string;
    }>().id;
    const made = await owner.caller.post(`/api/watchlists/${id}/webhooks`, {
      url: receiver.url,
      format: "json",
    });
    const { target, secret } = made.json<{ target: { id: number }; secret: string }>();
    testSecret = secret;
    const before = receiver.received.length;
    const test = await owner.caller.post(`/api/watchlists/${id}/webhooks/${target.id}/test`, {});
    expect(test.statusCode, test.body).toBe(202);
    const got = await waitFor(() => receiver.received.length > before && receiver.received.at(-1));
    expect(got.signatureValid).toBe(true);
    expect(JSON.parse(got.body)).toMatchObject({ type: "watchlist.test", test: true, watchlist: { id } });
    const log = await waitFor(async () => {
      const page = (await owner.caller.get(`/api/watchlists/${id}/webhooks/${target.id}/deliveries`)).json<{
        data: { status: string; event_type: string }[];
      }>();
      return page.data[0]?.status === "succeeded" && page;
    });
    expect(log.data[0]?.event_type).toBe("watchlist.test");
  });

  it("carries a new record's alert once to JSON, Slack and Discord, in their formats; a cosmetic edit sends nothing", async () => {
    expect((await importVulnerabilities(harness.database, line(WEB_DIRECTORY_SQLI))).rejected).toEqual([]);
    await job.runOnce();
    const owner = await registerUser(harness.app);
    const id = (
      await owner.caller.post("/api/watchlists", {
        name: "agency client",
        entries: [{ kind: "plugin", slug: "web-directory-free", version: "1.6.0" }],
      })
    ).json<{ id: string }>().id;
    // E-mail off: the webhooks still get the alerts (alert_mode is the e-mail's).
    await owner.caller.patch(`/api/watchlists/${id}`, { alert_mode: "off" });
    // One receiver per format, each checking its own webhook's secret.
    const targetIds: number[] = [];
    const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
    for (const format of ["json", "slack", "discord"]) {
      let secret = "";
      const own = await startReceiver({ secret: () => secret });
      receivers.push(own);
      const made = await owner.caller.post(`/api/watchlists/${id}/webhooks`, { url: own.url, format });
      const answer = made.json<{ target: { id: number }; secret: string }>();
      secret = answer.secret;
      targetIds.push(answer.target.id);
    }
    await job.runOnce();
    expect(await deliveriesOf(targetIds)).toEqual([]);

    expect((await importVulnerabilities(harness.database, line(LATER))).rejected).toEqual([]);
    expect(await job.runOnce()).toMatchObject({ changed: 1, alerts: 1 });
    const queued = await deliveriesOf(targetIds);
    expect(queued.map((row) => row.type)).toEqual(["watchlist.alert", "watchlist.alert", "watchlist.alert"]);
    expect(queued[0]?.payload).toMatchObject({
      watchlist: { id, name: "agency client", url: `http://localhost:3000/watchlists/${id}` },
      alerts: [
        {
          change: "new",
          entry: { kind: "plugin", slug: "web-directory-free", version: "1.6.0" },
          vulnerability: { id: LATER.id, title: LATER.title, severity: "critical", fixed_in: "1.7.0" },
          action: "Update web-directory-free to 1.7.0 or later.",
        },
      ],
    });

    // The worker sends each once, signed; the bodies are each receiver's own format.
    const bodies = await waitFor(
      () => receivers.every((own) => own.received.length > 0) && receivers.map((own) => own.received[0]),
    );
    expect(
      bodies.map((request) => [request?.signatureValid, request?.headers["x-pressguard-event"]]),
    ).toEqual([
      [true, "watchlist.alert"],
      [true, "watchlist.alert"],
      [true, "watchlist.alert"],
    ]);
    const [json, slack, discord] = bodies.map((request) => JSON.parse(request?.body ?? ""));
    expect(json.alerts[0].action).toBe("Update web-directory-free to 1.7.0 or later.");
    expect(slack.blocks[1].text.text).toContain(
      "via &lt;orderby&gt; (critical). Update web-directory-free to 1.7.0",
    );
    expect(slack.text).toBe(`A vulnerability affects agency client — http://localhost:3000/watchlists/${id}`);
    expect(discord.embeds).toHaveLength(1);
    expect(discord.embeds[0].description).toContain("Update web-directory-free to 1.7.0 or later.");

    // Once: a second run, then a cosmetic edit, queue nothing more.
    await job.runOnce();
    await harness.database.sql.query(
      "update vulnerabilities set title = title || ' (edited)' where id = $1",
      [LATER.id],
    );
    expect(await job.runOnce()).toMatchObject({ changed: 0, alerts: 0 });
    expect(await deliveriesOf(targetIds)).toHaveLength(3);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receivers.map((own) => own.received.length)).toEqual([1, 1, 1]);
    for (const own of receivers) await own.close();
  });
});

describe("a vendor's notice to its product's users (CRA Art. 14(8))", () => {
  it("reaches the webhooks of every watchlist holding the product, once, in Slack's format too", async () => {
    const slug = `notice-${Date.now().toString(36)}`;
    const vendor = await vendorWithProgram(harness.app, harness.database, slug);
    const owner = await registerUser(harness.app);
    const id = (
      await owner.caller.post("/api/watchlists", {
        name: "clinic.example",
        entries: [{ kind: "plugin", slug: slug.toUpperCase(), version: "1.0" }],
      })
    ).json<{ id: string }>().id;
    let secret = "";
    const slackHook = await startReceiver({ secret: () => secret });
    const made = await owner.caller.post(`/api/watchlists/${id}/webhooks`, {
      url: slackHook.url,
      format: "slack",
    });
    secret = made.json<{ secret: string }>().secret;

    const message =
      "Versions up to 1.2 let anyone upload files.\nUpdate to 1.3 now, or deactivate the plugin.";
    const sent = await vendor.caller.post(`/api/products/${vendor.productId}/user-notices`, { message });
    expect(sent.statusCode, sent.body).toBe(201);
    const got = await waitFor(() => slackHook.received[0]);
    expect(got.signatureValid).toBe(true);
    expect(got.headers["x-pressguard-event"]).toBe("watchlist.notice");
    const body = JSON.parse(got.body);
    expect(body.text).toContain(`about Acme Gallery, on clinic.example`);
    expect(body.blocks[1].text).toEqual({ type: "plain_text", text: message });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(slackHook.received).toHaveLength(1);
    await slackHook.close();
  });
});
