import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWatchAlertJob } from "../../jobs/watch-alert-job.ts";
import { createMailer } from "../../mail/outbox.ts";
import { registerUser } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";
import { createStaffCaller } from "../../test/staff.ts";

/**
 * A record that came by the feed reaches the watchlist alerts as an imported one does: a watcher of an
 * affected version is told once when it arrives, once when it materially changes, and not for a
 * document that only moved dates or reworded the description.
 */

const FIXTURE = readFileSync(new URL("./fixtures/wordfence-v3-production.json", import.meta.url), "utf8");
const BACKWPUP = "4bce4f04-e622-468a-ac7e-5903ad50cc13";
type FeedDocument = Record<string, Record<string, unknown> & { software: Record<string, unknown>[] }>;

describe("feed records and watchlist alerts", () => {
  let body = FIXTURE;
  let etag = '"a1"';
  let server: Server;
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  let staff: Awaited<ReturnType<typeof createStaffCaller>>;
  let job: ReturnType<typeof createWatchAlertJob>;
  const serve = (document: FeedDocument, tag: string) => {
    body = JSON.stringify(document);
    etag = tag;
  };
  const sync = async () => {
    const response = await staff.post("/api/staff/data-sources/wordfence/sync");
    expect(response.json().outcome, response.body).toBe("synced");
    return response.json();
  };

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.headers["if-none-match"] === etag) {
        response.writeHead(304).end();
        return;
      }
      response.writeHead(200, { "content-type": "application/json", etag }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    harness = await createTestApp({
      WORDFENCE_API_KEY: "alerts-key",
      WORDFENCE_FEED_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed`,
      // The test runs the alert job itself.
      WATCH_ALERT_INTERVAL_SECONDS: "86400",
    });
    staff = await createStaffCaller(harness.app, harness.database);
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
    await harness?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it("alerts once for a new record, once for a material change, never for a cosmetic one", async () => {
    const watcher = await registerUser(harness.app);
    const created = await watcher.caller.post("/api/watchlists", {
      name: "site",
      entries: [{ kind: "plugin", slug: "backwpup", version: "4.0.0" }],
    });
    expect(created.statusCode, created.body).toBe(201);
    await job.runOnce();

    await sync();
    expect(await job.runOnce()).toMatchObject({ alerts: 1 });
    expect(await job.runOnce()).toMatchObject({ alerts: 0 });

    const cosmetic = JSON.parse(FIXTURE) as FeedDocument;
    cosmetic[BACKWPUP]!.description = "Reworded upstream.";
    cosmetic[BACKWPUP]!.updated = "2026-12-01 00:00:00";
    serve(cosmetic, '"a2"');
    expect((await sync()).counts).toMatchObject({ changed: 1 });
    expect(await job.runOnce()).toMatchObject({ alerts: 0 });

    const material = JSON.parse(FIXTURE) as FeedDocument;
    material[BACKWPUP]!.software[0]!.affected_versions = {
      "* - 4.0.4": { from_version: "*", from_inclusive: true, to_version: "4.0.4", to_inclusive: true },
    };
    material[BACKWPUP]!.software[0]!.patched_versions = ["4.0.5"];
    serve(material, '"a3"');
    expect((await sync()).counts).toMatchObject({ changed: 1 });
    expect(await job.runOnce()).toMatchObject({ alerts: 1 });
    const { rows } = await harness.database.sql.query<{ change: string }>(
      "select change from watch_alerts where vulnerability_id = $1 order by created_at",
      [BACKWPUP],
    );
    expect(rows.map((row) => row.change)).toEqual(["new", "changed"]);
  });
});
