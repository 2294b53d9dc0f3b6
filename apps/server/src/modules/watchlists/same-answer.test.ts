import type {
  CheckedVulnerability,
  CheckResponse,
  WatchlistDetail,
  WatchlistExposureReport,
} from "@pressguard/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importPlugins, importVulnerabilities } from "../../db/import.ts";
import { WEB_DIRECTORY_PLUGIN, WEB_DIRECTORY_SQLI } from "../../db/import-fixtures.ts";
import { createWatchAlertJob } from "../../jobs/watch-alert-job.ts";
import { createMailer } from "../../mail/outbox.ts";
import { watchAlertActionOf } from "../../mail/watch-templates.ts";
import { registerUser } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";
import type { WatchAlertPayload } from "../forwarding/payload.ts";
import { startReceiver } from "../forwarding/testing.ts";

/**
 * Issue 38 (decision 031): a watchlist is a batch check of its entries, and its alerts say what its
 * page says. Each entry gets one answer — the range of its own product, that product's fix or the fix
 * inferred above the range — from GET /api/watchlists/{id}, POST /api/v1/check and the alert (e-mail
 * and webhook) alike, also on records naming several products.
 */
let harness: Awaited<ReturnType<typeof createTestApp>>;
let job: ReturnType<typeof createWatchAlertJob>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  harness = await createTestApp({ FORWARDING_ALLOW_LOOPBACK: "true" });
  receiver = await startReceiver();
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

type Software = { slug: string; affected: Record<string, unknown>[]; fixed_in: string | null };

/** A copy of a real record naming these products (the first is the record's own). */
function recordOf(id: string, title: string, software: Software[]) {
  const [main] = software;
  return {
    ...WEB_DIRECTORY_SQLI,
    id,
    cve: null,
    title,
    slug: main!.slug,
    software_name: null,
    affected: main!.affected,
    fixed_in: main!.fixed_in,
    software: software.map((item) => ({ software_type: "plugin", software_name: null, ...item })),
  };
}

/** Fixed in 1.3.28 for the free plugin, in 3.8.7.1 for the Pro one. */
const DUPLICATOR = recordOf("7d0c2a9e-1b1a-4c55-9f0e-2f1c3a5b6d01", "Duplicator < 1.3.28 and Pro < 3.8.7.1", [
  { slug: "duplicator", affected: [{ fixed: "1.3.28", prefix: "<", version: "1.3.28" }], fixed_in: "1.3.28" },
  {
    slug: "duplicator-pro",
    affected: [{ fixed: "3.8.7.1", prefix: "<", version: "3.8.7.1" }],
    fixed_in: "3.8.7.1",
  },
]);
/** No fix listed; the upstream slug of the Pro product has capitals; the Lite one's current version is past its range. */
const EVENTON = recordOf("7d0c2a9e-1b1a-4c55-9f0e-2f1c3a5b6d02", "EventON Pro <= 4.5.4 & Lite <= 2.2.7", [
  { slug: "eventON", affected: [{ last_affected: "4.5.4", prefix: "<=", version: "4.5.4" }], fixed_in: null },
  {
    slug: "eventon-lite",
    affected: [{ last_affected: "2.2.7", prefix: "<=", version: "2.2.7" }],
    fixed_in: null,
  },
]);
/** No fix listed; the product's current version (8.0.0) is below the range, not past it. */
const REALLY_SIMPLE_SSL = recordOf(
  "7d0c2a9e-1b1a-4c55-9f0e-2f1c3a5b6d03",
  "Really Simple Security 9.0.0 - 9.1.1.1",
  [
    {
      slug: "really-simple-ssl",
      affected: [
        {
          introduced: "9.0.0",
          introduced_inclusive: true,
          last_affected: "9.1.1.1",
          prefix: "<=",
          version: "9.1.1.1",
        },
      ],
      fixed_in: null,
    },
  ],
);
const plugin = (slug: string, version: string) =>
  JSON.stringify({ ...WEB_DIRECTORY_PLUGIN, slug, name: slug, version, versions: [version] });

/** Both products of each record on one site, in the order that used to hand the second the first's answer. */
const SITE = [
  { kind: "plugin", slug: "duplicator", version: "1.3.0" },
  { kind: "plugin", slug: "duplicator-pro", version: "3.8.7.0" },
  { kind: "plugin", slug: "EventON", version: "4.5.0" },
  { kind: "plugin", slug: "eventon-lite", version: "2.2.7" },
  { kind: "plugin", slug: "really-simple-ssl", version: "9.0.0" },
];

/** What each entry is told: its range and what to do, by `slug version` and record. */
const answerOf = (vulnerability: CheckedVulnerability) => ({
  affected_versions: vulnerability.affected_versions,
  fixed_in: vulnerability.fixed_in,
  fixed_in_inferred: vulnerability.fixed_in_inferred,
});

describe("a watchlist, the batch check and the alerts", () => {
  it("give each entry its own product's range and fix, the inferred fix only above the range", async () => {
    const plugins = [plugin("eventon-lite", "2.2.14"), plugin("really-simple-ssl", "8.0.0")];
    expect((await importPlugins(harness.database, plugins)).rejected).toEqual([]);
    // Imported before any read (the check keeps what it read for a data version) and alerted once
    // the watchlists exist (the job has not fingerprinted them yet).
    const records = [DUPLICATOR, EVENTON, REALLY_SIMPLE_SSL].map((record) => JSON.stringify(record));
    expect((await importVulnerabilities(harness.database, records)).rejected).toEqual([]);

    // One site with every entry (the page), one with the second product of each record only: a
    // record alerts a watchlist once, whichever of its entries it names.
    const owner = await registerUser(harness.app);
    const ids: string[] = [];
    for (const entries of [SITE, SITE.filter((_entry, index) => index % 2 === 1)]) {
      const created = await owner.caller.post("/api/watchlists", { name: `site ${ids.length}`, entries });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json<{ id: string }>().id;
      ids.push(id);
      const hook = await owner.caller.post(`/api/watchlists/${id}/webhooks`, {
        url: receiver.url,
        format: "json",
      });
      expect(hook.statusCode, hook.body).toBe(201);
    }
    expect(await job.runOnce()).toMatchObject({ changed: 3, mails: 1 });

    const page = (await owner.caller.get(`/api/watchlists/${ids[0]}`)).json<WatchlistDetail>();
    const checked = (
      await harness.app.inject({ method: "POST", url: "/api/v1/check", payload: { items: SITE } })
    ).json<CheckResponse>();
    const told = Object.fromEntries(
      page.items.map((item) => [`${item.slug} ${item.version}`, item.vulnerabilities.map(answerOf)]),
    );
    expect(told).toEqual({
      "duplicator 1.3.0": [{ affected_versions: "< 1.3.28", fixed_in: "1.3.28", fixed_in_inferred: null }],
      "duplicator-pro 3.8.7.0": [
        { affected_versions: "< 3.8.7.1", fixed_in: "3.8.7.1", fixed_in_inferred: null },
      ],
      "eventon 4.5.0": [{ affected_versions: "<= 4.5.4", fixed_in: null, fixed_in_inferred: null }],
      "eventon-lite 2.2.7": [{ affected_versions: "<= 2.2.7", fixed_in: null, fixed_in_inferred: "2.2.14" }],
      "really-simple-ssl 9.0.0": [
        { affected_versions: ">= 9.0.0, <= 9.1.1.1", fixed_in: null, fixed_in_inferred: null },
      ],
    });
    expect(page.items.map((item) => item.update_to)).toEqual(["1.3.28", "3.8.7.1", null, "2.2.14", null]);
    // The batch check answers each entry alike.
    expect(checked.results.map((result) => result.vulnerabilities)).toEqual(
      page.items.map((item) => item.vulnerabilities),
    );
    // The exposures report for scripts too: each record listed once, each entry's own range and fix
    // beside it (keyed by record id alone, the second product of a record got the first's).
    const report = (await owner.caller.get("/api/watchlists/exposures")).json<WatchlistExposureReport>();
    const site = report.watchlists.find((watchlist) => watchlist.id === ids[0]);
    expect(
      Object.fromEntries(
        (site?.items ?? []).map((item) => [
          `${item.slug} ${item.version}`,
          item.matches.map(({ id: _id, ...answer }) => answer),
        ]),
      ),
    ).toEqual(told);
    for (const record of Object.values(report.vulnerabilities)) expect(record).not.toHaveProperty("fixed_in");

    // The alerts: each says what the page says to its entry, by e-mail and webhook.
    const { rows: events } = await harness.database.sql.query<{
      watchlist_id: string;
      payload: WatchAlertPayload;
    }>(
      "select watchlist_id::text, payload from forward_events where watchlist_id = any($1::uuid[]) order by id",
      [ids],
    );
    const alerts = events.flatMap((event) => event.payload.alerts);
    expect(alerts).toHaveLength(3 + 2);
    const { rows: mails } = await harness.database.sql.query<{ text_body: string }>(
      "select text_body from mail_outbox where template = 'watchlist_alert' order by id",
    );
    expect(mails).toHaveLength(1);
    for (const alert of alerts) {
      const entry = `${alert.entry.slug} ${alert.entry.version}`;
      const [answer] = told[entry] ?? [];
      const action = watchAlertActionOf(
        alert.entry.slug,
        answer?.fixed_in ?? answer?.fixed_in_inferred ?? null,
      );
      expect(alert.action, entry).toBe(action);
      expect(alert.vulnerability.fixed_in, entry).toBe(answer?.fixed_in);
      expect(mails[0]?.text_body).toContain(`${entry} — ${alert.vulnerability.title} (critical). ${action}`);
    }
    const second = events
      .filter((event) => event.watchlist_id === ids[1])
      .flatMap((event) => event.payload.alerts);
    expect(second.map((alert) => alert.action).sort()).toEqual([
      "Update duplicator-pro to 3.8.7.1 or later.",
      "Update eventon-lite to 2.2.14 or later.",
    ]);
  });
});
