import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDataVersion } from "../../db/data-version.ts";
import { createApiCaller } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";
import { createStaffCaller } from "../../test/staff.ts";
import { createDataSourceService } from "./service.ts";
import { createWordfenceSource } from "./sync-wordfence.ts";

/**
 * The Wordfence sync against a stand-in feed on loopback (never the real host): records readable
 * through the API exactly, conditional polls that write nothing, withdrawals, bad input that changes
 * nothing, the key refused, and one run across two instances.
 */

const FIXTURE = readFileSync(new URL("./fixtures/wordfence-v3-production.json", import.meta.url), "utf8");
type FeedDocument = Record<string, Record<string, unknown>>;
const baseDocument = () => JSON.parse(FIXTURE) as FeedDocument;

const BACKWPUP = "4bce4f04-e622-468a-ac7e-5903ad50cc13";
const EXCLUSIVE = "0b1e3c52-7d0a-4f43-9a53-5b6c2f6a1e01";
const CORE_BRANCHES = "2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f03";
const TWO_SOFTWARE = "3e4f5a6b-7c8d-4e9f-8a1b-2c3d4e5f6a04";
const MINIMAL = "5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c06";
const API_KEY = "wf-test-key-0123456789";

/** What the stand-in feed answers, and every request it was sent. */
interface Feed {
  status: number;
  body: string;
  etag: string;
  /** Answer the headers, then wait this long before the body. */
  delayMs: number;
  requests: IncomingHttpHeaders[];
}

function startFeed(feed: Feed): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    feed.requests.push(request.headers);
    const answer = () => {
      if (feed.status !== 200) {
        response.writeHead(feed.status, { "content-type": "application/json" });
        response.end('{"message":"no"}');
        return;
      }
      if (request.headers["if-none-match"] === feed.etag) {
        response.writeHead(304, { etag: feed.etag });
        response.end();
        return;
      }
      response.writeHead(200, { "content-type": "application/json", etag: feed.etag });
      response.end(feed.body);
    };
    if (feed.delayMs > 0) setTimeout(answer, feed.delayMs);
    else answer();
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}/api/intelligence/v3/vulnerabilities/production` });
    });
  });
}

describe("Wordfence feed sync", () => {
  const feed: Feed = { status: 200, body: FIXTURE, etag: '"v1"', delayMs: 0, requests: [] };
  let stand: Awaited<ReturnType<typeof startFeed>>;
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  let staff: Awaited<ReturnType<typeof createStaffCaller>>;
  const serve = (document: FeedDocument | string, etag: string) => {
    feed.status = 200;
    feed.body = typeof document === "string" ? document : JSON.stringify(document);
    feed.etag = etag;
  };
  const syncNow = () => staff.post("/api/staff/data-sources/wordfence/sync");
  const wordfenceStatus = async () =>
    (await staff.get("/api/staff/data-sources")).json<{ data: Record<string, unknown>[] }>().data[0]!;
  const vulnerabilityCount = async () =>
    (
      await harness.database.sql.query<{ count: number }>(
        "select count(*)::int as count from vulnerabilities where source = 'wordfence-intelligence'",
      )
    ).rows[0]!.count;
  /** Every row of the records (the whole table as text): what "nothing changed" compares. */
  const snapshot = async () =>
    (
      await harness.database.sql.query<{ rows: string }>(
        `select (select string_agg(v::text, E'\\n' order by id) from vulnerabilities v)
           || (select string_agg(r::text, E'\\n' order by vulnerability_id, product_id, position)
               from affected_ranges r) as rows`,
      )
    ).rows[0]!.rows;

  beforeAll(async () => {
    stand = await startFeed(feed);
    harness = await createTestApp({ WORDFENCE_API_KEY: API_KEY, WORDFENCE_FEED_URL: stand.url });
    staff = await createStaffCaller(harness.app, harness.database);
  });

  afterAll(async () => {
    await harness?.close();
    await new Promise((resolve) => stand?.server.close(resolve));
  });

  it("lists the source, configured, never synced", async () => {
    expect(await wordfenceStatus()).toEqual({
      source: "wordfence",
      label: "Wordfence Intelligence (v3 production feed)",
      configured: true,
      syncing: false,
      last_success_at: null,
      last_attempt_at: null,
      next_attempt_at: null,
      last_counts: null,
      last_error: null,
      held: {
        count: 0,
        what: "live Wordfence records (withdrawn ones not counted)",
      },
    });
    const anonymous = await createApiCaller(harness.app).get("/api/staff/data-sources");
    expect(anonymous.statusCode).toBe(401);
  });

  it("imports a document: every valid record, readable through the API exactly", async () => {
    const versionBefore = await readDataVersion(harness.database.sql);
    const response = await syncNow();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      source: "wordfence",
      outcome: "synced",
      counts: { new: 7, changed: 0, unchanged: 0, withdrawn: 0, rejected: 1 },
      error: null,
      status: { last_error: null, last_counts: { new: 7, rejected: 1 } },
    });
    expect(feed.requests.at(-1)!.authorization).toBe(`Bearer ${API_KEY}`);
    expect(await readDataVersion(harness.database.sql)).not.toBe(versionBefore);

    const record = (await createApiCaller(harness.app).get(`/api/v1/vulnerabilities/${BACKWPUP}`)).json();
    expect(record).toMatchObject({
      id: BACKWPUP,
      title: "BackWPup <= 4.0.2 - Plaintext Storage of Backup Destination Password",
      cve: "CVE-2023-5775",
      cwe: "CWE-256",
      severity: "low",
      cvss_score: 2.2,
      cvss: { vector: "CVSS:3.1/AV:N/AC:H/PR:H/UI:N/S:U/C:L/I:N/A:N", version: "3.1", score: 2.2 },
      type_label: "Plaintext Storage of Backup Destination Password",
      patched: true,
      fixed_in: "4.0.3",
      affected_versions: "<= 4.0.2",
      affected: [
        {
          product: { kind: "plugin", slug: "backwpup", name: "BackWPup – WordPress Backup & Restore Plugin" },
          introduced: null,
          introduced_inclusive: true,
          fixed: null,
          last_affected: "4.0.2",
          prefix: "<=",
          version: "4.0.2",
          fixed_in: "4.0.3",
        },
      ],
      credits: [{ display_name: "Stefan Marjanov", role: "finder" }],
      published_at: "2024-02-23T00:00:00Z",
      updated_at: "2024-02-24T08:38:15Z",
      source: "wordfence-intelligence",
      source_id: BACKWPUP,
      source_url: `https://www.wordfence.com/threat-intel/vulnerabilities/id/${BACKWPUP}`,
      references: [`https://www.wordfence.com/threat-intel/vulnerabilities/id/${BACKWPUP}?source=api-prod`],
      withdrawn_at: null,
    });
    expect(record.attribution).toContain("Copyright 2012-2024 Defiant Inc.");

    const exclusive = (await createApiCaller(harness.app).get(`/api/v1/vulnerabilities/${EXCLUSIVE}`)).json();
    expect(exclusive.affected).toMatchObject([
      { introduced: "1.0", introduced_inclusive: false, fixed: "1.2.3", prefix: "<", version: "1.2.3" },
    ]);
    const core = (await createApiCaller(harness.app).get(`/api/v1/vulnerabilities/${CORE_BRANCHES}`)).json<{
      affected: unknown[];
    }>();
    expect(core.affected).toHaveLength(2);
    const shared = (await createApiCaller(harness.app).get(`/api/v1/vulnerabilities/${TWO_SOFTWARE}`)).json<{
      affected: { product: { slug: string } }[];
    }>();
    expect(shared.affected.map((range) => range.product.slug).sort()).toEqual([
      "example-forms",
      "example-theme",
    ]);

    // The new records concern watchers: the alert job will read them, as after an import.
    const { rows } = await harness.database.sql.query<{ count: number }>(
      "select count(*)::int as count from vulnerability_alert_states where pending",
    );
    expect(rows[0]!.count).toBe(7);
  });

  it("polls again conditionally: a 304 costs one request and writes no record", async () => {
    const before = await snapshot();
    const version = await readDataVersion(harness.database.sql);
    const requests = feed.requests.length;
    const response = await syncNow();
    expect(response.json()).toMatchObject({ outcome: "not_modified", counts: null, error: null });
    expect(feed.requests.length).toBe(requests + 1);
    expect(feed.requests.at(-1)!["if-none-match"]).toBe('"v1"');
    expect(await snapshot()).toBe(before);
    expect(await readDataVersion(harness.database.sql)).toBe(version);
    // The counts stay those of the last document read.
    expect((await wordfenceStatus()).last_counts).toMatchObject({ new: 7 });
    // "Connected, N records": the seven it brought.
    expect((await wordfenceStatus()).held).toMatchObject({ count: 7 });
  });

  it("writes nothing for a document whose records only moved their `updated` date", async () => {
    const document = baseDocument();
    for (const record of Object.values(document)) record.updated = "2026-12-01 00:00:00";
    serve(document, '"v1-dates"');
    const before = await snapshot();
    const version = await readDataVersion(harness.database.sql);
    expect((await syncNow()).json()).toMatchObject({
      outcome: "synced",
      counts: { new: 0, changed: 0, unchanged: 7, withdrawn: 0, rejected: 1 },
    });
    expect(await snapshot()).toBe(before);
    expect(await readDataVersion(harness.database.sql)).toBe(version);
  });

  it("updates a changed record and withdraws one the document no longer lists", async () => {
    const document = baseDocument();
    document[EXCLUSIVE]!.title = "Example Gallery 1.0 - 1.2.3 - Stored Cross-Site Scripting via Shortcode";
    delete document[MINIMAL];
    serve(document, '"v2"');
    expect((await syncNow()).json()).toMatchObject({
      outcome: "synced",
      counts: { new: 0, changed: 1, unchanged: 5, withdrawn: 1, rejected: 1 },
    });
    const api = createApiCaller(harness.app);
    await expect
      .poll(async () => (await api.get(`/api/v1/vulnerabilities/${MINIMAL}`)).json().withdrawn_at)
      .toEqual(expect.stringMatching(/^\d{4}-/));
    expect((await api.get(`/api/v1/vulnerabilities/${EXCLUSIVE}`)).json().title).toBe(
      "Example Gallery 1.0 - 1.2.3 - Stored Cross-Site Scripting via Shortcode",
    );
    expect(await vulnerabilityCount()).toBe(7);
    // The withdrawn one is kept but no longer counted as held.
    expect((await wordfenceStatus()).held).toMatchObject({ count: 6 });

    // Listed again: no longer withdrawn.
    serve(baseDocument(), '"v3"');
    expect((await syncNow()).json()).toMatchObject({ counts: { changed: 2, withdrawn: 0 } });
    await expect
      .poll(async () => (await api.get(`/api/v1/vulnerabilities/${MINIMAL}`)).json().withdrawn_at)
      .toBeNull();
  });

  it("changes nothing for a truncated document, and says so", async () => {
    const document = baseDocument();
    document[BACKWPUP]!.title = "BackWPup <= 4.0.2 - Changed Before The Cut";
    const text = JSON.stringify(document);
    serve(text.slice(0, Math.floor(text.length * 0.6)), '"v4-cut"');
    const before = await snapshot();
    const version = await readDataVersion(harness.database.sql);
    const response = await syncNow();
    expect(response.json()).toMatchObject({
      outcome: "failed",
      error: "The feed's document ended before it was complete (truncated). Nothing was changed.",
    });
    expect(await snapshot()).toBe(before);
    expect(await readDataVersion(harness.database.sql)).toBe(version);
    const status = await wordfenceStatus();
    expect(status.last_error).toBe(
      "The feed's document ended before it was complete (truncated). Nothing was changed.",
    );
    expect(status.next_attempt_at).not.toBeNull();
    // The validators stay those of the last complete document.
    serve(baseDocument(), '"v3"');
    expect((await syncNow()).json()).toMatchObject({ outcome: "not_modified" });
    expect((await wordfenceStatus()).last_error).toBeNull();
  });

  it("changes nothing for a document that is not JSON or would withdraw everything", async () => {
    const before = await snapshot();
    serve("<html><body>Bad gateway</body></html>", '"v5-html"');
    expect((await syncNow()).json().error).toBe(
      "The feed's document is not a JSON object keyed by record id. Nothing was changed.",
    );
    serve("{}", '"v5-empty"');
    expect((await syncNow()).json().error).toBe(
      "The feed's document held no valid record. Nothing was changed.",
    );
    expect(await snapshot()).toBe(before);
  });

  it("records a refused key in words, never the key, and backs off", async () => {
    const before = await snapshot();
    feed.status = 401;
    const response = await syncNow();
    expect(response.json()).toMatchObject({
      outcome: "failed",
      error: "The feed refused the API key (HTTP 401).",
    });
    const status = await wordfenceStatus();
    expect(status.last_error).toBe("The feed refused the API key (HTTP 401).");
    expect(JSON.stringify(status)).not.toContain(API_KEY);
    const backoff = Date.parse(status.next_attempt_at as string) - Date.now();
    expect(backoff).toBeGreaterThan(3000 * 1000);
    feed.status = 503;
    expect((await syncNow()).json().error).toBe("The feed answered with a server error (HTTP 503).");
    // The second failure in a row waits twice as long (interval × 2).
    const longer = Date.parse((await wordfenceStatus()).next_attempt_at as string) - Date.now();
    expect(longer).toBeGreaterThan(7000 * 1000);
    expect(await snapshot()).toBe(before);
    feed.status = 200;
  });

  it("gives up on a feed that falls silent", async () => {
    const silent = createDataSourceService({
      database: harness.database,
      sources: [createWordfenceSource({ feedUrl: stand.url, apiKey: API_KEY, idleTimeoutMs: 200 })],
      intervalSeconds: 3600,
    });
    serve(baseDocument(), '"v6"');
    feed.delayMs = 1000;
    try {
      expect(await silent.syncNow("wordfence")).toMatchObject({
        outcome: "failed",
        error: "The feed sent nothing for 200 ms; the sync was abandoned.",
      });
    } finally {
      feed.delayMs = 0;
    }
  });

  it("never overwrites or withdraws a staff-published record", async () => {
    await harness.database.sql.query(
      "update vulnerabilities set source = 'pressguard', title = 'Published by staff' where id = $1",
      [EXCLUSIVE],
    );
    const document = baseDocument();
    document[EXCLUSIVE]!.title = "Example Gallery - Changed Upstream";
    serve(document, '"v7"');
    const response = (await syncNow()).json();
    expect(response).toMatchObject({ outcome: "synced", counts: { rejected: 2 } });
    serve(baseDocument(), '"v8"');
    const document2 = baseDocument();
    delete document2[EXCLUSIVE];
    serve(document2, '"v9"');
    expect((await syncNow()).json()).toMatchObject({ counts: { withdrawn: 0 } });
    const { rows } = await harness.database.sql.query<{ title: string; withdrawn_at: Date | null }>(
      "select title, withdrawn_at from vulnerabilities where id = $1",
      [EXCLUSIVE],
    );
    expect(rows[0]).toEqual({ title: "Published by staff", withdrawn_at: null });
  });

  it("runs once when two instances sync at the same time", async () => {
    const second = await createTestApp(
      { WORDFENCE_API_KEY: API_KEY, WORDFENCE_FEED_URL: stand.url },
      undefined,
      harness.database,
    );
    try {
      const otherStaff = await createStaffCaller(second.app, harness.database);
      const document = baseDocument();
      document[BACKWPUP]!.description = "Edited upstream once.";
      serve(document, '"v10"');
      feed.delayMs = 300;
      const requests = feed.requests.length;
      const [first, other] = await Promise.all([
        syncNow(),
        otherStaff.post("/api/staff/data-sources/wordfence/sync"),
      ]);
      expect([first.statusCode, other.statusCode].sort()).toEqual([200, 409]);
      const conflict = [first, other].find((response) => response.statusCode === 409)!;
      expect(conflict.json().message).toBe(
        "A sync of Wordfence Intelligence (v3 production feed) is already under way.",
      );
      expect(feed.requests.length).toBe(requests + 1);
    } finally {
      feed.delayMs = 0;
      await second.close();
    }
  });

  it("runs a scheduled pass only when the source is due", async () => {
    const scheduled = createDataSourceService({
      database: harness.database,
      sources: [createWordfenceSource({ feedUrl: stand.url, apiKey: API_KEY })],
      intervalSeconds: 3600,
    });
    const requests = feed.requests.length;
    // The last success is recent: not due.
    expect(await scheduled.runDue()).toEqual([{ source: "wordfence", outcome: "skipped" }]);
    expect(feed.requests.length).toBe(requests);
    await harness.database.sql.query(
      "update data_sources set last_success_at = now() - interval '2 hours' where source = 'wordfence'",
    );
    expect(await scheduled.runDue()).toEqual([{ source: "wordfence", outcome: "not_modified" }]);
    expect(feed.requests.length).toBe(requests + 1);
  });

  it("answers 404 for an unknown source and 409 for one not configured", async () => {
    expect((await staff.post("/api/staff/data-sources/nothing/sync")).statusCode).toBe(404);
    const unconfigured = createDataSourceService({
      database: harness.database,
      sources: [createWordfenceSource(null)],
      intervalSeconds: 3600,
    });
    await expect(unconfigured.syncNow("wordfence")).rejects.toThrow("is not configured");
    expect(await unconfigured.runAll()).toEqual([]);
  });
});
