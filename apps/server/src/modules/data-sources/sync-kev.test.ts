import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDataVersion } from "../../db/data-version.ts";
import { writeUpstreamRecords } from "../../db/upstream-records.ts";
import { createTestApp } from "../../test/app.ts";
import { createStaffCaller } from "../../test/staff.ts";
import {
  columnSnapshot,
  holdSchedule,
  productNamed,
  recordWithCve,
  type StandInDocument,
  startStandIn,
} from "./source-test-kit.ts";
import { mapWordfenceRecord } from "./wordfence-feed.ts";

/**
 * The KEV source against a stand-in catalog on loopback: every record whose CVE the catalog lists is
 * flagged exactly, a 304 writes nothing, a delisted CVE is cleared, and a broken catalog changes
 * nothing and says why.
 */

const FIXTURE = readFileSync(new URL("./fixtures/kev-catalog.json", import.meta.url), "utf8");
type Catalog = { vulnerabilities: Record<string, unknown>[] } & Record<string, unknown>;
const catalog = () => JSON.parse(FIXTURE) as Catalog;
const entryOf = (document: Catalog, cve: string) =>
  document.vulnerabilities.find((entry) => entry.cveID === cve)!;

describe("KEV sync", () => {
  const document: StandInDocument = {
    status: 200,
    body: FIXTURE,
    etag: '"k1"',
    contentType: "application/json",
    requests: [],
  };
  let stand: Awaited<ReturnType<typeof startStandIn>>;
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  let staff: Awaited<ReturnType<typeof createStaffCaller>>;
  const records: Record<string, string> = {};
  const serve = (body: Catalog | string, etag: string) => {
    document.status = 200;
    document.body = typeof body === "string" ? body : JSON.stringify(body);
    document.etag = etag;
  };
  const syncNow = () => staff.post("/api/staff/data-sources/kev/sync");
  const flagOf = async (id: string) =>
    (
      await harness.database.sql.query<{ known_exploited: unknown }>(
        "select known_exploited from vulnerability_signals where vulnerability_id = $1",
        [id],
      )
    ).rows[0]?.known_exploited ?? null;
  const snapshot = () => columnSnapshot(harness.database.sql, "known_exploited");
  const version = () => readDataVersion(harness.database.sql);

  beforeAll(async () => {
    stand = await startStandIn(document, "/feeds/known_exploited_vulnerabilities.json");
    harness = await createTestApp({ KEV_URL: stand.url });
    await holdSchedule(harness.database.sql, "kev");
    staff = await createStaffCaller(harness.app, harness.database);
    const { sql } = harness.database;
    const fileManager = await productNamed(sql, "wp-file-manager");
    const duplicator = await productNamed(sql, "duplicator");
    const socialWarfare = await productNamed(sql, "social-warfare");
    records.fileManager = await recordWithCve(sql, fileManager, "CVE-2020-25213");
    records.fileManagerAgain = await recordWithCve(sql, fileManager, "CVE-2020-25213");
    // Matched whatever its case.
    records.duplicator = await recordWithCve(sql, duplicator, "cve-2020-11738");
    records.socialWarfare = await recordWithCve(sql, socialWarfare, "CVE-2019-9978");
    records.unlisted = await recordWithCve(sql, socialWarfare, "CVE-2023-0001");
    records.noCve = await recordWithCve(sql, socialWarfare, null);
  });

  afterAll(async () => {
    await harness?.close();
    await stand?.close();
  });

  it("is listed as configured, after the Wordfence feed", async () => {
    const list = (await staff.get("/api/staff/data-sources")).json<{
      data: { source: string; configured: boolean; label: string }[];
    }>().data;
    expect(list.map((source) => [source.source, source.configured])).toEqual([
      ["wordfence", false],
      ["kev", true],
      ["epss", false],
      ["wporg", false],
    ]);
    // Before any sync, nothing is held from any of them.
    expect(list.map((source) => (source as unknown as { held: { count: number } }).held.count)).toEqual([
      0, 0, 0, 0,
    ]);
  });

  it("flags every record whose CVE the catalog lists, exactly", async () => {
    const before = await version();
    const response = await syncNow();
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      source: "kev",
      outcome: "synced",
      counts: { new: 4, changed: 0, unchanged: 0, withdrawn: 0, rejected: 0 },
      error: null,
      // "N records" on the staff page: the four listed records (two share a CVE).
      status: {
        last_error: null,
        last_counts: { new: 4 },
        held: { count: 4, what: "records CISA lists as exploited" },
      },
    });
    expect(await flagOf(records.fileManager!)).toEqual({
      date_added: "2021-11-03",
      due_date: "2022-05-03",
      ransomware: "Unknown",
    });
    expect(await flagOf(records.fileManagerAgain!)).toEqual(await flagOf(records.fileManager!));
    expect(await flagOf(records.duplicator!)).toEqual({
      date_added: "2021-11-03",
      due_date: "2022-05-03",
      ransomware: "Unknown",
    });
    expect(await flagOf(records.socialWarfare!)).not.toBeNull();
    expect(await flagOf(records.unlisted!)).toBeNull();
    expect(await flagOf(records.noCve!)).toBeNull();
    expect(await version()).not.toBe(before);
  });

  it("polls again conditionally: a 304 is one request and no write", async () => {
    const before = await snapshot();
    const dataVersion = await version();
    const requests = document.requests.length;
    expect((await syncNow()).json()).toMatchObject({ outcome: "not_modified", counts: null });
    expect(document.requests.length).toBe(requests + 1);
    expect(document.requests.at(-1)!.headers["if-none-match"]).toBe('"k1"');
    expect(await snapshot()).toBe(before);
    expect(await version()).toBe(dataVersion);
  });

  it("writes nothing for the same catalog under a new ETag", async () => {
    serve(catalog(), '"k1-again"');
    const before = await snapshot();
    const dataVersion = await version();
    expect((await syncNow()).json()).toMatchObject({
      outcome: "synced",
      counts: { new: 0, changed: 0, unchanged: 4, withdrawn: 0, rejected: 0 },
    });
    expect(await snapshot()).toBe(before);
    expect(await version()).toBe(dataVersion);
  });

  it("follows a changed listing, clears a delisted CVE, and skips an invalid entry", async () => {
    const changed = catalog();
    entryOf(changed, "CVE-2019-9978").knownRansomwareCampaignUse = "Known";
    changed.vulnerabilities = changed.vulnerabilities.filter((entry) => entry.cveID !== "CVE-2020-11738");
    changed.vulnerabilities.push({ cveID: "not-a-cve", dateAdded: "2025-01-01", dueDate: "2025-01-22" });
    serve(changed, '"k2"');
    const dataVersion = await version();
    const response = (await syncNow()).json();
    expect(response).toMatchObject({
      outcome: "synced",
      counts: { new: 0, changed: 1, unchanged: 2, withdrawn: 1, rejected: 1 },
    });
    expect(await flagOf(records.socialWarfare!)).toEqual({
      date_added: "2021-11-03",
      due_date: "2022-05-03",
      ransomware: "Known",
    });
    expect(await flagOf(records.duplicator!)).toBeNull();
    expect(await version()).not.toBe(dataVersion);

    // A record that loses its CVE loses its flag.
    await harness.database.sql.query("update vulnerabilities set cve = null where id = $1", [
      records.fileManagerAgain,
    ]);
    serve(changed, '"k2-again"');
    expect((await syncNow()).json()).toMatchObject({ counts: { withdrawn: 1, unchanged: 2 } });
    expect(await flagOf(records.fileManagerAgain!)).toBeNull();
  });

  it("changes nothing for a truncated catalog, records why and keeps the last validators", async () => {
    const before = await snapshot();
    const dataVersion = await version();
    serve(FIXTURE.slice(0, Math.floor(FIXTURE.length / 2)), '"k3-cut"');
    const response = (await syncNow()).json();
    expect(response.outcome).toBe("failed");
    expect(response.error).toMatch(
      /^The KEV catalog is not valid JSON \(truncated or not the catalog\).*Nothing was changed\.$/,
    );
    const status = (await staff.get("/api/staff/data-sources"))
      .json<{
        data: { source: string; last_error: string | null; next_attempt_at: string | null }[];
      }>()
      .data.find((source) => source.source === "kev")!;
    expect(status.last_error).toBe(response.error);
    expect(status.next_attempt_at).not.toBeNull();
    expect(await snapshot()).toBe(before);
    expect(await version()).toBe(dataVersion);
    expect(document.requests.at(-1)!.headers["if-none-match"]).toBe('"k2-again"');
  });

  it("refuses a catalog without entries while records are flagged", async () => {
    const before = await snapshot();
    serve({ ...catalog(), count: 0, vulnerabilities: [] }, '"k4-empty"');
    expect((await syncNow()).json()).toMatchObject({
      outcome: "failed",
      error:
        "The KEV catalog lists no valid entry while 2 records are flagged known exploited; taken for a broken catalog. Nothing was changed.",
    });
    expect(await snapshot()).toBe(before);
  });

  it("records a server error in words", async () => {
    document.status = 503;
    expect((await syncNow()).json()).toMatchObject({
      outcome: "failed",
      error: "The KEV catalog answered with a server error (HTTP 503).",
    });
    document.status = 200;
  });
});

// The defect it guards: KEV and EPSS poll conditionally, so a record that arrived after their last
// document (by the feed, a publication, a CVE assigned) stayed unflagged until CISA changed the catalog.
describe("KEV sync, for records written after its last catalog", () => {
  const document: StandInDocument = {
    status: 200,
    body: FIXTURE,
    etag: '"k1"',
    contentType: "application/json",
    requests: [],
  };
  let stand: Awaited<ReturnType<typeof startStandIn>>;
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  let staff: Awaited<ReturnType<typeof createStaffCaller>>;
  const syncNow = async () => (await staff.post("/api/staff/data-sources/kev/sync")).json();
  const flagOf = async (id: string) =>
    (
      await harness.database.sql.query<{ known_exploited: unknown }>(
        "select known_exploited from vulnerability_signals where vulnerability_id = $1",
        [id],
      )
    ).rows[0]?.known_exploited ?? null;
  const lastRequestWasConditional = () => document.requests.at(-1)!.headers["if-none-match"] === '"k1"';

  beforeAll(async () => {
    stand = await startStandIn(document, "/feeds/known_exploited_vulnerabilities.json");
    harness = await createTestApp({ KEV_URL: stand.url });
    await holdSchedule(harness.database.sql, "kev");
    staff = await createStaffCaller(harness.app, harness.database);
    const fileManager = await productNamed(harness.database.sql, "wp-file-manager");
    await recordWithCve(harness.database.sql, fileManager, "CVE-2020-25213");
    expect(await syncNow()).toMatchObject({ outcome: "synced", counts: { new: 1 } });
  });

  afterAll(async () => {
    await harness?.close();
    await stand?.close();
  });

  it("flags a record published with a listed CVE, though the catalog is unchanged", async () => {
    const socialWarfare = await productNamed(harness.database.sql, "social-warfare");
    const published = await recordWithCve(harness.database.sql, socialWarfare, "CVE-2019-9978");
    expect(await syncNow()).toMatchObject({
      outcome: "synced",
      counts: { new: 1, changed: 0, unchanged: 1, withdrawn: 0 },
    });
    expect(lastRequestWasConditional()).toBe(false);
    expect(await flagOf(published)).toMatchObject({ date_added: "2021-11-03" });

    // Applied: the next poll is conditional again, one request answered 304.
    expect(await syncNow()).toMatchObject({ outcome: "not_modified" });
    expect(lastRequestWasConditional()).toBe(true);
  });

  it("flags a record the feed writes with a listed CVE", async () => {
    const fixture = JSON.parse(
      readFileSync(new URL("./fixtures/wordfence-v3-production.json", import.meta.url), "utf8"),
    ) as Record<string, unknown>;
    const key = "4bce4f04-e622-468a-ac7e-5903ad50cc13";
    const mapped = mapWordfenceRecord(key, fixture[key]);
    if (!("record" in mapped)) throw new Error(mapped.reason);
    const id = randomUUID();
    const written = await writeUpstreamRecords(harness.database, [
      { ...mapped.record, id, cve: "cve-2020-11738" },
    ]);
    expect(written.rejected).toEqual([]);
    expect(await syncNow()).toMatchObject({ outcome: "synced", counts: { new: 1, unchanged: 2 } });
    expect(lastRequestWasConditional()).toBe(false);
    expect(await flagOf(id)).toMatchObject({ date_added: "2021-11-03" });
    expect(await syncNow()).toMatchObject({ outcome: "not_modified" });
  });

  it("keeps a record waiting when the run fails", async () => {
    const socialWarfare = await productNamed(harness.database.sql, "social-warfare");
    const waiting = await recordWithCve(harness.database.sql, socialWarfare, "CVE-2019-9978");
    document.status = 503;
    expect(await syncNow()).toMatchObject({ outcome: "failed" });
    document.status = 200;
    expect(await flagOf(waiting)).toBeNull();
    expect(await syncNow()).toMatchObject({ outcome: "synced", counts: { new: 1 } });
    expect(lastRequestWasConditional()).toBe(false);
    expect(await flagOf(waiting)).not.toBeNull();
  });
});
