import { randomUUID } from "node:crypto";
import { affectedRangeOf, CHECK_LATEST_VERSION, isVersionAffected } from "@pressguard/domain";
import type { Database, SqlRunner } from "../db/client.ts";
import type { Mailer } from "../mail/outbox.ts";
import { type WatchAlertLine, watchAlertActionOf } from "../mail/watch-templates.ts";
import type { WatchAlertItem, WatchAlertPayload } from "../modules/forwarding/payload.ts";
import { insertWatchlistEvents } from "../modules/forwarding/queries.ts";
import { pagePaths } from "../modules/vulnerabilities/presenters.ts";
import { periodicRunner } from "./periodic-job.ts";

/** Records fingerprinted per statement: a first run after an import of 37,000 takes 75 short ones. */
const BATCH = 500;

interface WatchAlertJobOptions {
  database: Database;
  mailer: Pick<Mailer, "enqueue">;
  appUrl: string;
  /** Wakes the forwarding worker: alert webhooks were queued. */
  onDeliveryQueued?: () => void;
}

/** The columns that place a record's public page (`vulnerabilityUrl`). */
interface RecordPlace {
  platform: string;
  main_kind: string;
  main_slug: string;
  vulnerability_slug: string;
}

const RECORD_PLACE_SQL = `pl.slug as platform, mp.kind as main_kind, mp.slug as main_slug, v.slug as vulnerability_slug`;

/** A record's fingerprint: what decides whom it concerns and what they must do. */
const FINGERPRINT = `md5(concat_ws('|', v.severity, v.fixed_in, (
    select string_agg(concat_ws(',', pr.kind, pr.slug, ar.prefix, ar.version, ar.introduced,
        ar.introduced_inclusive::text, ar.fixed, ar.last_affected), ';' order by ar.product_id, ar.position)
    from affected_ranges ar join products pr on pr.id = ar.product_id
    where ar.vulnerability_id = v.id)))`;

interface WatcherRow {
  watchlist_id: string;
  vulnerability_id: string;
  kind: string;
  slug: string;
  version: string;
  current_version: string | null;
  prefix: string;
  range_version: string;
  introduced: string | null;
  introduced_inclusive: boolean;
  fixed: string | null;
  last_affected: string | null;
}

/**
 * The watchlist alerts (issue 20, decision 031): records written since the last run (pending in
 * `vulnerability_alert_states`)
 * are fingerprinted (severity, fix, ranges); those whose fingerprint moved — new, or materially
 * changed, never a cosmetic edit — are matched against the watched entries whose installed version
 * they affect; each match is kept once (`watch_alerts`, unique per fingerprint) and mailed to the
 * watchlist's owner, one e-mail per owner and run.
 */
export function createWatchAlertJob({ database, mailer, appUrl, onDeliveryQueued }: WatchAlertJobOptions) {
  const vulnerabilityUrl = (row: RecordPlace) =>
    appUrl +
    pagePaths.vulnerability(
      { platform: row.platform, kind: row.main_kind, slug: row.main_slug },
      row.vulnerability_slug,
    );

  /** Claims a batch of pending records: how many, and those whose fingerprint changed. */
  async function claimBatch(): Promise<{
    claimed: number;
    changed: { id: string; change: "new" | "changed"; fingerprint: string }[];
  }> {
    const { rows } = await database.sql.query<{ id: string; old: string | null; fingerprint: string }>(
      `with pending as (
         select vulnerability_id as id, fingerprint from vulnerability_alert_states where pending
         order by vulnerability_id limit ${BATCH} for update skip locked
       ), printed as (
         select p.id, p.fingerprint as old, ${FINGERPRINT} as fingerprint
         from pending p join vulnerabilities v on v.id = p.id
       )
       update vulnerability_alert_states s set pending = false, fingerprint = printed.fingerprint
       from printed where s.vulnerability_id = printed.id
       returning s.vulnerability_id::text as id, printed.old, printed.fingerprint`,
    );
    const changed = rows
      .filter((row) => row.old !== row.fingerprint)
      .map((row) => ({
        id: row.id,
        change: row.old === null ? ("new" as const) : ("changed" as const),
        fingerprint: row.fingerprint,
      }));
    return { claimed: rows.length, changed };
  }

  /** The watched entries a record's ranges affect (the installed version inside a range). */
  async function affectedEntries(ids: string[]): Promise<WatcherRow[]> {
    const { rows } = await database.sql.query<WatcherRow>(
      `select e.watchlist_id::text, ar.vulnerability_id::text, e.kind, e.slug, e.version,
         p.version as current_version, ar.prefix, ar.version as range_version, ar.introduced,
         ar.introduced_inclusive, ar.fixed, ar.last_affected
       from affected_ranges ar
       join products p on p.id = ar.product_id
       join watchlist_entries e on e.kind = p.kind and e.slug = p.slug
       where ar.vulnerability_id = any($1::uuid[])`,
      [ids],
    );
    return rows.filter((row) => {
      const installed =
        row.version.toLowerCase() === CHECK_LATEST_VERSION ? row.current_version : row.version;
      if (!installed) return false;
      const range = affectedRangeOf({ ...row, version: row.range_version });
      return isVersionAffected(installed, range);
    });
  }

  /**
   * Keeps each match once per fingerprint and, in the same transaction, queues the new ones to the
   * watchlists' active alert webhooks (one event per watchlist): a run that fails after writing an
   * alert never repeats it, so never sends it twice. Webhooks go out at once whatever the e-mail's
   * `alert_mode`. Answers how many alerts are new and whether a delivery was queued.
   */
  async function recordAlerts(
    matches: WatcherRow[],
    changed: Map<string, { change: "new" | "changed"; fingerprint: string }>,
    now: Date,
  ): Promise<{ alerts: number; queued: boolean }> {
    // One alert per watchlist, record and fingerprint, even when several ranges or entries match.
    const unique = new Map<string, WatcherRow>();
    for (const match of matches) unique.set(`${match.watchlist_id} ${match.vulnerability_id}`, match);
    const rows = [...unique.values()];
    if (rows.length === 0) return { alerts: 0, queued: false };
    return database.sql.transaction(async (tx) => {
      const { rows: inserted } = await tx.query<{ id: number }>(
        `insert into watch_alerts (watchlist_id, vulnerability_id, fingerprint, change, kind, slug, version)
         select * from unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
         on conflict (watchlist_id, vulnerability_id, fingerprint) do nothing
         returning id`,
        [
          rows.map((row) => row.watchlist_id),
          rows.map((row) => row.vulnerability_id),
          rows.map((row) => changed.get(row.vulnerability_id)?.fingerprint),
          rows.map((row) => changed.get(row.vulnerability_id)?.change),
          rows.map((row) => row.kind),
          rows.map((row) => row.slug),
          rows.map((row) => row.version),
        ],
      );
      const ids = inserted.map((row) => row.id);
      const queued = ids.length > 0 && (await queueWebhooks(tx, ids, now));
      return { alerts: ids.length, queued };
    });
  }

  /** One `watchlist.alert` event per watchlist with active webhooks, listing its new alerts. */
  async function queueWebhooks(tx: SqlRunner, alertIds: number[], now: Date): Promise<boolean> {
    const { rows } = await tx.query<
      RecordPlace & {
        watchlist_id: string;
        watchlist: string;
        target_ids: number[];
        kind: string;
        slug: string;
        version: string;
        change: "new" | "changed";
        vulnerability_id: string;
        title: string;
        severity: string | null;
        cve: string | null;
        fixed_in: string | null;
      }
    >(
      `select a.watchlist_id::text, w.name as watchlist, t.target_ids, a.kind, a.slug, a.version, a.change,
         v.id::text as vulnerability_id, v.title, v.severity, v.cve, v.fixed_in, ${RECORD_PLACE_SQL}
       from watch_alerts a
       join watchlists w on w.id = a.watchlist_id
       join lateral (
         select array_agg(id order by id) as target_ids from forward_targets
         where watchlist_id = a.watchlist_id and status = 'active'
       ) t on t.target_ids is not null
       join vulnerabilities v on v.id = a.vulnerability_id
       join products mp on mp.id = v.product_id
       join platforms pl on pl.id = mp.platform_id
       where a.id = any($1::int[])
       order by a.watchlist_id, a.id`,
      [alertIds],
    );
    const byWatchlist = new Map<string, { name: string; targets: number[]; alerts: WatchAlertItem[] }>();
    for (const row of rows) {
      const watchlist = byWatchlist.get(row.watchlist_id) ?? {
        name: row.watchlist,
        targets: row.target_ids.map(Number),
        alerts: [],
      };
      watchlist.alerts.push({
        change: row.change,
        entry: { kind: row.kind, slug: row.slug, version: row.version },
        vulnerability: {
          id: row.vulnerability_id,
          title: row.title,
          url: vulnerabilityUrl(row),
          severity: row.severity,
          cve: row.cve,
          fixed_in: row.fixed_in,
        },
        action: watchAlertActionOf(row.slug, row.fixed_in),
      });
      byWatchlist.set(row.watchlist_id, watchlist);
    }
    await insertWatchlistEvents(
      tx,
      [...byWatchlist].map(([watchlistId, watchlist]) => ({
        watchlistId,
        targetIds: watchlist.targets,
        payload: {
          id: randomUUID(),
          type: "watchlist.alert",
          created_at: now.toISOString(),
          watchlist: { id: watchlistId, name: watchlist.name, url: `${appUrl}/watchlists/${watchlistId}` },
          alerts: watchlist.alerts,
        } satisfies WatchAlertPayload,
      })),
      now,
    );
    return byWatchlist.size > 0;
  }

  /**
   * Mails the alerts not mailed yet: of `immediate` watchlists at once, of `daily` ones when their
   * last digest is a day old; one e-mail per owner and kind.
   */
  async function mailAlerts(mode: "immediate" | "daily", now: Date): Promise<number> {
    return database.sql.transaction(async (tx) => {
      const { rows } = await tx.query<{
        id: number;
        email: string;
        name: string;
        watchlist: string;
        kind: string;
        slug: string;
        version: string;
        change: "new" | "changed";
        title: string;
        severity: string | null;
        fixed_in: string | null;
        platform: string;
        main_kind: string;
        main_slug: string;
        vulnerability_slug: string;
      }>(
        `select a.id, u.email, u.name, w.name as watchlist, a.kind, a.slug, a.version, a.change, v.title,
           v.severity, v.fixed_in, ${RECORD_PLACE_SQL}
         from watch_alerts a
         join watchlists w on w.id = a.watchlist_id and w.alert_mode = $1
           and ($1 = 'immediate' or w.last_digest_at is null or w.last_digest_at <= $2::timestamptz - interval '1 day')
         join users u on u.id = w.user_id
         join vulnerabilities v on v.id = a.vulnerability_id
         join products mp on mp.id = v.product_id
         join platforms pl on pl.id = mp.platform_id
         where a.emailed_at is null
         order by u.id, w.name, a.id
         for update of a skip locked`,
        [mode, now],
      );
      const byOwner = new Map<string, { name: string; alerts: WatchAlertLine[] }>();
      for (const row of rows) {
        const owner = byOwner.get(row.email) ?? { name: row.name, alerts: [] };
        owner.alerts.push({
          watchlist: row.watchlist,
          entry: `${row.slug} ${row.version}`,
          slug: row.slug,
          title: row.title,
          severity: row.severity,
          change: row.change,
          fixedIn: row.fixed_in,
          url: vulnerabilityUrl(row),
        });
        byOwner.set(row.email, owner);
      }
      for (const [email, owner] of byOwner)
        await mailer.enqueue(
          email,
          { template: "watchlist_alert", name: owner.name, alerts: owner.alerts, digest: mode === "daily" },
          tx,
        );
      if (rows.length > 0) {
        await tx.query("update watch_alerts set emailed_at = $2 where id = any($1::int[])", [
          rows.map((row) => row.id),
          now,
        ]);
        if (mode === "daily")
          await tx.query(
            `update watchlists set last_digest_at = $2
             where id in (select watchlist_id from watch_alerts where id = any($1::int[]))`,
            [rows.map((row) => row.id), now],
          );
      }
      return byOwner.size;
    });
  }

  /** One pass (`now`: the job's clock): the pending records in batches (until a batch is short), then the mails. */
  async function runOnce(
    now: Date = new Date(),
  ): Promise<{ changed: number; alerts: number; mails: number }> {
    let changed = 0;
    let alerts = 0;
    for (;;) {
      const batch = await claimBatch();
      if (batch.changed.length > 0) {
        changed += batch.changed.length;
        const byId = new Map(batch.changed.map((row) => [row.id, row]));
        const recorded = await recordAlerts(await affectedEntries([...byId.keys()]), byId, now);
        alerts += recorded.alerts;
        if (recorded.queued) onDeliveryQueued?.();
      }
      // Short: nothing more to claim (or what is left is another instance's, locked).
      if (batch.claimed < BATCH) break;
    }
    const mails = (await mailAlerts("immediate", now)) + (await mailAlerts("daily", now));
    return { changed, alerts, mails };
  }

  // Not at start: the first start's import leaves every record pending, and the first pages come first.
  return { runOnce, ...periodicRunner(runOnce, { runNow: false }) };
}
