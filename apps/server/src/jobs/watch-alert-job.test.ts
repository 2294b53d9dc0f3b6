import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importVulnerabilities } from "../db/import.ts";
import { WEB_DIRECTORY_SQLI } from "../db/import-fixtures.ts";
import { createMailer } from "../mail/outbox.ts";
import { registerUser } from "../test/api-client.ts";
import { createTestApp } from "../test/app.ts";
import { createWatchAlertJob } from "./watch-alert-job.ts";

/**
 * Issue 20 (decision 031): a watcher is told once when a record affecting an installed version is
 * published or materially changed (severity, fix, ranges), never for a cosmetic edit, and not when
 * the version they run is outside the range.
 */
let harness: Awaited<ReturnType<typeof createTestApp>>;
let job: ReturnType<typeof createWatchAlertJob>;
beforeAll(async () => {
  harness = await createTestApp();
  job = createWatchAlertJob({
    database: harness.database,
    mailer: createMailer({
      database: harness.database,
      smtpUrl: undefined,
      from: "t@example.test",
      siteName: "Pressguard",
    }),
    appUrl: "http://localhost:3000",
  });
});
afterAll(() => harness.close());

const line = (record: unknown) => [JSON.stringify(record)];
/** A second record of the same plugin: SQL injection up to 1.6.9, fixed in 1.7.0. */
const LATER = {
  ...WEB_DIRECTORY_SQLI,
  id: "2a6c5610-ed84-4d7d-a28f-d3807230e120",
  title: "Web Directory Free <= 1.6.9 - Another Unauthenticated SQL Injection",
};
/** A theme whose upstream slug has capitals, as 60 products of the bundled data have (`Avada`, `Divi`). */
const AVADA_RANGE = [{ last_affected: "7.11.1", prefix: "<=", version: "7.11.1" }];
const AVADA = {
  ...WEB_DIRECTORY_SQLI,
  id: "43b11ab0-c7f2-4a7a-aab7-7f9dd58ec1ab",
  cve: null,
  title: "Avada <= 7.11.1 - Server Side Request Forgery",
  software_type: "theme",
  slug: "Avada",
  software_name: "Avada",
  affected: AVADA_RANGE,
  fixed_in: "7.11.2",
  software: [
    {
      software_type: "theme",
      slug: "Avada",
      software_name: "Avada",
      affected: AVADA_RANGE,
      fixed_in: "7.11.2",
    },
  ],
};

/** A record of a plugin of its own, to be withdrawn by its source (decision 035). */
const LEAVING_RANGE = [{ last_affected: "2.0", prefix: "<=", version: "2.0" }];
const LEAVING = {
  ...WEB_DIRECTORY_SQLI,
  id: "5e1d0a7e-0000-4000-8000-00000000d034",
  cve: null,
  title: "Leaving Plugin <= 2.0 - Unauthenticated SQL Injection",
  slug: "leaving-plugin",
  software_name: "Leaving Plugin",
  affected: LEAVING_RANGE,
  fixed_in: "2.1",
  software: [
    {
      software_type: "plugin",
      slug: "leaving-plugin",
      software_name: "Leaving Plugin",
      affected: LEAVING_RANGE,
      fixed_in: "2.1",
    },
  ],
};

async function alertsTo(email: string) {
  const { rows } = await harness.database.sql.query<{ subject: string; text_body: string }>(
    "select subject, text_body from mail_outbox where to_address = $1 and template = 'watchlist_alert' order by id",
    [email],
  );
  return rows;
}

describe("the watchlist alert job", () => {
  it("alerts a watcher once of a new record affecting their version, of a material change, never of a cosmetic one", async () => {
    // Records already there when the watchlists are made alert nobody: the first run fingerprints them.
    expect((await importVulnerabilities(harness.database, line(WEB_DIRECTORY_SQLI))).rejected).toEqual([]);
    expect(await job.runOnce()).toMatchObject({ alerts: 0, mails: 0 });

    const watcher = await registerUser(harness.app);
    const safe = await registerUser(harness.app);
    for (const [account, version] of [
      [watcher, "1.6.0"],
      [safe, "1.7.0"],
    ] as const) {
      const created = await account.caller.post("/api/watchlists", {
        name: `site of ${account.email}`,
        entries: [{ kind: "plugin", slug: "web-directory-free", version }],
      });
      expect(created.statusCode, created.body).toBe(201);
    }
    expect(await job.runOnce()).toMatchObject({ alerts: 0, mails: 0 });

    // A new record affecting 1.6.0: one e-mail, saying what to do; nothing for 1.7.0.
    expect((await importVulnerabilities(harness.database, line(LATER))).rejected).toEqual([]);
    expect(await job.runOnce()).toMatchObject({ alerts: 1, mails: 1 });
    const [first] = await alertsTo(watcher.email);
    expect(first?.subject).toBe(
      `A vulnerability affects web-directory-free 1.6.0 on site of ${watcher.email}`,
    );
    expect(first?.text_body).toContain(
      `${LATER.title} (critical). Update web-directory-free to 1.7.0 or later.`,
    );
    expect(first?.text_body).toContain("/database/wordpress/plugin/web-directory-free/vulnerability/");
    expect(await alertsTo(safe.email)).toEqual([]);
    expect(await job.runOnce()).toMatchObject({ alerts: 0, mails: 0 });

    // A cosmetic edit (the description, re-imported; the title, edited): no alert.
    await importVulnerabilities(
      harness.database,
      line({ ...LATER, description: `${LATER.description} Edited.` }),
    );
    await harness.database.sql.query(
      "update vulnerabilities set title = title || ' (edited)' where id = $1",
      [LATER.id],
    );
    expect(await job.runOnce()).toMatchObject({ changed: 0, alerts: 0, mails: 0 });

    // A material change (the fix is withdrawn: no fix yet): alerted again, as an updated record.
    await harness.database.sql.query("update vulnerabilities set fixed_in = null where id = $1", [LATER.id]);
    await harness.database.sql.query(
      "update affected_ranges set fixed_in = null where vulnerability_id = $1",
      [LATER.id],
    );
    expect(await job.runOnce()).toMatchObject({ changed: 1, alerts: 1, mails: 1 });
    const mails = await alertsTo(watcher.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]?.text_body).toContain("(updated record)");
    expect(mails[1]?.text_body).toContain("No fix yet");
    expect(await alertsTo(safe.email)).toEqual([]);
  });

  it("sends nothing for a watchlist whose alerts are off", async () => {
    const watcher = await registerUser(harness.app);
    const created = await watcher.caller.post("/api/watchlists", {
      name: "quiet",
      entries: [{ kind: "plugin", slug: "web-directory-free", version: "1.0" }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const off = await watcher.caller.patch(`/api/watchlists/${created.json<{ id: string }>().id}`, {
      alert_mode: "off",
    });
    expect(off.json<{ alert_mode: string }>().alert_mode).toBe("off");
    await harness.database.sql.query("update vulnerabilities set severity = 'high' where id = $1", [
      WEB_DIRECTORY_SQLI.id,
    ]);
    await job.runOnce();
    expect(await alertsTo(watcher.email)).toEqual([]);
  });

  it("gathers a daily watchlist's alerts into one digest a day", async () => {
    const watcher = await registerUser(harness.app);
    const created = await watcher.caller.post("/api/watchlists", {
      name: "daily",
      entries: [{ kind: "plugin", slug: "web-directory-free", version: "1.1" }],
    });
    const id = created.json<{ id: string }>().id;
    expect(
      (await watcher.caller.patch(`/api/watchlists/${id}`, { alert_mode: "daily" })).json<{
        alert_mode: string;
      }>().alert_mode,
    ).toBe("daily");
    const day = 24 * 3600 * 1000;
    const start = Date.now();
    const change = (severity: string) =>
      harness.database.sql.query("update vulnerabilities set severity = $2 where id = $1", [
        LATER.id,
        severity,
      ]);

    // The first alert goes out in the first digest; two more the same day wait for the next one.
    await change("medium");
    await job.runOnce(new Date(start));
    await change("low");
    await job.runOnce(new Date(start + 3600 * 1000));
    await change("critical");
    await job.runOnce(new Date(start + 2 * 3600 * 1000));
    expect(await alertsTo(watcher.email)).toHaveLength(1);
    await job.runOnce(new Date(start + day + 1000));
    const digests = await alertsTo(watcher.email);
    expect(digests).toHaveLength(2);
    expect(digests[1]?.subject).toBe("Your daily watchlist digest: 2 vulnerabilities to act on");
    expect((await watcher.caller.patch(`/api/watchlists/${id}`, { alert_mode: "weekly" })).statusCode).toBe(
      422,
    );
  });

  it("alerts the watchers of a product whose upstream slug has capitals, at once and in the daily digest", async () => {
    const immediate = await registerUser(harness.app);
    const daily = await registerUser(harness.app);
    for (const [account, mode] of [
      [immediate, "immediate"],
      [daily, "daily"],
    ] as const) {
      const created = await account.caller.post("/api/watchlists", {
        name: `${mode} theme site`,
        entries: [{ kind: "theme", slug: "Avada", version: "7.11.0" }],
      });
      expect(created.statusCode, created.body).toBe(201);
      const changed = await account.caller.patch(`/api/watchlists/${created.json<{ id: string }>().id}`, {
        alert_mode: mode,
      });
      expect(changed.json<{ alert_mode: string }>().alert_mode).toBe(mode);
    }
    expect((await importVulnerabilities(harness.database, line(AVADA))).rejected).toEqual([]);
    expect(await job.runOnce()).toMatchObject({ changed: 1, alerts: 2 });
    const action = `avada 7.11.0 — ${AVADA.title} (critical). Update avada to 7.11.2 or later.`;
    const [now] = await alertsTo(immediate.email);
    expect(now?.subject).toBe("A vulnerability affects avada 7.11.0 on immediate theme site");
    expect(now?.text_body).toContain(action);
    // A daily watchlist's first digest goes out with its first alert.
    const [digest] = await alertsTo(daily.email);
    expect(digest?.subject).toBe("Your daily watchlist digest: 1 vulnerability to act on");
    expect(digest?.text_body).toContain(action);
  });

  it("never alerts of a withdrawn record, and tells of it as new once its source lists it again", async () => {
    const watcher = await registerUser(harness.app);
    const created = await watcher.caller.post("/api/watchlists", {
      name: "leaving site",
      entries: [{ kind: "plugin", slug: "leaving-plugin", version: "1.0" }],
    });
    expect(created.statusCode, created.body).toBe(201);
    await job.runOnce();
    const withdraw = (at: string | null) =>
      harness.database.sql.query("update vulnerabilities set withdrawn_at = $2 where id = $1", [
        LEAVING.id,
        at,
      ]);

    // Written, then withdrawn before the job ran: nobody is told.
    expect((await importVulnerabilities(harness.database, line(LEAVING))).rejected).toEqual([]);
    await withdraw("2026-12-05T10:00:00Z");
    expect(await job.runOnce()).toMatchObject({ changed: 0, alerts: 0 });
    // A material change while withdrawn: still nobody.
    await harness.database.sql.query("update vulnerabilities set severity = 'high' where id = $1", [
      LEAVING.id,
    ]);
    expect(await job.runOnce()).toMatchObject({ changed: 0, alerts: 0 });
    expect(await alertsTo(watcher.email)).toEqual([]);
    // The watchlist does not count it either.
    const page = await watcher.caller.get(`/api/watchlists/${created.json<{ id: string }>().id}`);
    expect(page.json<{ vulnerabilities: number }>().vulnerabilities).toBe(0);

    // Listed again (the writer clears withdrawn_at and marks the record pending): told once, as new.
    await withdraw(null);
    await harness.database.sql.query("update vulnerabilities set severity = 'critical' where id = $1", [
      LEAVING.id,
    ]);
    expect(await job.runOnce()).toMatchObject({ changed: 1, alerts: 1, mails: 1 });
    const [mail] = await alertsTo(watcher.email);
    expect(mail?.text_body).toContain(`${LEAVING.title} (critical). Update leaving-plugin to 2.1 or later.`);
    expect(mail?.text_body).not.toContain("(updated record)");
  });

  it("does not mail a digest's alert whose record was withdrawn since it was recorded", async () => {
    const watcher = await registerUser(harness.app);
    const created = await watcher.caller.post("/api/watchlists", {
      name: "digest of leaving",
      entries: [{ kind: "plugin", slug: "leaving-plugin", version: "1.5" }],
    });
    const id = created.json<{ id: string }>().id;
    await watcher.caller.patch(`/api/watchlists/${id}`, { alert_mode: "daily" });
    // A digest went out today: the next alert waits for tomorrow's.
    await harness.database.sql.query("update watchlists set last_digest_at = now() where id = $1", [id]);
    await harness.database.sql.query("update vulnerabilities set severity = 'medium' where id = $1", [
      LEAVING.id,
    ]);
    await job.runOnce();
    const waiting = () =>
      harness.database.sql.query<{ id: number }>(
        "select id from watch_alerts where watchlist_id = $1 and emailed_at is null",
        [id],
      );
    expect((await waiting()).rows).toHaveLength(1);
    await harness.database.sql.query("update vulnerabilities set withdrawn_at = now() where id = $1", [
      LEAVING.id,
    ]);
    await job.runOnce(new Date(Date.now() + 25 * 3600 * 1000));
    expect(await alertsTo(watcher.email)).toEqual([]);
    // Settled, not left to go out later.
    expect((await waiting()).rows).toEqual([]);
  });
});
