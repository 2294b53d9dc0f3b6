import { randomUUID } from "node:crypto";
import type { CheckedVulnerability, ComponentKind } from "@pressguard/domain";
import type { Database, SqlRunner } from "../db/client.ts";
import type { Mailer } from "../mail/outbox.ts";
import { type WatchAlertLine, watchAlertActionOf } from "../mail/watch-templates.ts";
import { productSlugKeySql } from "../modules/check/product-slug.ts";
import { type CheckEntry, createCheckService } from "../modules/check/service.ts";
import type { WatchAlertItem, WatchAlertPayload } from "../modules/forwarding/payload.ts";
import { insertWatchlistEvents } from "../modules/forwarding/queries.ts";
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

/** A record's fingerprint: what decides whom it concerns and what they must do. */
const FINGERPRINT = `md5(concat_ws('|', v.severity, v.fixed_in, (
    select string_agg(concat_ws(',', pr.kind, pr.slug, ar.prefix, ar.version, ar.introduced,
        ar.introduced_inclusive::text, ar.fixed, ar.last_affected), ';' order by ar.product_id, ar.position)
    from affected_ranges ar join products pr on pr.id = ar.product_id
    where ar.vulnerability_id = v.id)))`;

/** A watched entry (as its alert keeps it) and the record it is alerted of. */
interface WatchedEntry {
  watchlist_id: string;
  vulnerability_id: string;
  kind: string;
  slug: string;
  version: string;
}

/**
 * What an alert says of its record: the batch check's answer for the entry — the range and fix of the
 * entry's own product, listed or inferred — as the watchlist's page shows it (decision 031).
 */
interface AlertAnswer {
  vulnerability: CheckedVulnerability;
  /** What to update to: the listed fix, or else the inferred one; null when there is none. */
  fixedIn: string | null;
}

const pairKey = (row: { watchlist_id: string; vulnerability_id: string }) =>
  `${row.watchlist_id} ${row.vulnerability_id}`;

/**
 * The watchlist alerts (issue 20, decision 031): records written since the last run (pending in
 * `vulnerability_alert_states`)
 * are fingerprinted (severity, fix, ranges); those whose fingerprint moved — new, or materially
 * changed, never a cosmetic edit — are matched against the watched entries whose installed version
 * they affect; each match is kept once (`watch_alerts`, unique per fingerprint) and mailed to the
 * watchlist's owner, one e-mail per owner and run. Entries are matched, and told what to do, by the
 * batch check's own comparison (a watchlist is a batch check), on ranges read as the job runs.
 */
export function createWatchAlertJob({ database, mailer, appUrl, onDeliveryQueued }: WatchAlertJobOptions) {
  const check = createCheckService({ database, appUrl });

  /**
   * The check's answer to each entry for its record, read now through `sql` (a transaction's); null
   * when the record no longer affects the entry's version (its ranges changed since the alert).
   */
  async function answersOf(rows: readonly WatchedEntry[], sql?: SqlRunner): Promise<(AlertAnswer | null)[]> {
    if (rows.length === 0) return [];
    const matches = await check.matchItemsNow(
      rows.map((row) => ({ kind: row.kind as ComponentKind, slug: row.slug, version: row.version })),
      sql,
    );
    // Many watchers of one product and version share one compared entry: decoded once.
    const decoded = new Map<CheckEntry, AlertAnswer>();
    return rows.map((row, index) => {
      const found = matches[index]!.affecting.find((record) => record.id === row.vulnerability_id);
      if (!found) return null;
      let answer = decoded.get(found);
      if (!answer) {
        const vulnerability = JSON.parse(found.json!.toString("utf8")) as CheckedVulnerability;
        answer = { vulnerability, fixedIn: found.fixedIn };
        decoded.set(found, answer);
      }
      return answer;
    });
  }

  /**
   * Claims a batch of pending records: how many, and those whose fingerprint changed. A withdrawn
   * record (decision 035) alerts nobody and keeps the fingerprint it had: listed again, it is told as
   * what it is then (new, when no watcher was ever told of it).
   */
  async function claimBatch(): Promise<{
    claimed: number;
    changed: { id: string; change: "new" | "changed"; fingerprint: string }[];
  }> {
    const { rows } = await database.sql.query<{
      id: string;
      old: string | null;
      fingerprint: string;
      withdrawn: boolean;
    }>(
      `with pending as (
         select vulnerability_id as id, fingerprint from vulnerability_alert_states where pending
         order by vulnerability_id limit ${BATCH} for update skip locked
       ), printed as (
         select p.id, p.fingerprint as old, ${FINGERPRINT} as fingerprint,
           v.withdrawn_at is not null as withdrawn
         from pending p join vulnerabilities v on v.id = p.id
       )
       update vulnerability_alert_states s set pending = false,
         fingerprint = case when printed.withdrawn then s.fingerprint else printed.fingerprint end
       from printed where s.vulnerability_id = printed.id
       returning s.vulnerability_id::text as id, printed.old, printed.fingerprint, printed.withdrawn`,
    );
    const changed = rows
      .filter((row) => !row.withdrawn && row.old !== row.fingerprint)
      .map((row) => ({
        id: row.id,
        change: row.old === null ? ("new" as const) : ("changed" as const),
        fingerprint: row.fingerprint,
      }));
    return { claimed: rows.length, changed };
  }

  /**
   * The watched entries whose installed version these records affect, with the answer for each: one
   * per watchlist and record (its first entry the record affects, when it names several products).
   */
  async function affectedEntries(ids: string[]): Promise<Map<string, WatchedEntry & AlertAnswer>> {
    const { rows } = await database.sql.query<WatchedEntry>(
      `select distinct e.watchlist_id::text, ar.vulnerability_id::text, e.kind, e.slug, e.version, e.position
       from affected_ranges ar
       join products p on p.id = ar.product_id
       join watchlist_entries e on e.kind = p.kind and e.slug = ${productSlugKeySql("p.slug")}
       where ar.vulnerability_id = any($1::uuid[])
       order by watchlist_id, position`,
      [ids],
    );
    const answers = await answersOf(rows);
    const affected = new Map<string, WatchedEntry & AlertAnswer>();
    rows.forEach((row, index) => {
      const answer = answers[index];
      if (answer && !affected.has(pairKey(row))) affected.set(pairKey(row), { ...row, ...answer });
    });
    return affected;
  }

  /**
   * Keeps each match once per fingerprint and, in the same transaction, queues the new ones to the
   * watchlists' active alert webhooks (one event per watchlist): a run that fails after writing an
   * alert never repeats it, so never sends it twice. Webhooks go out at once whatever the e-mail's
   * `alert_mode`. Answers how many alerts are new and whether a delivery was queued.
   */
  async function recordAlerts(
    matches: Map<string, WatchedEntry & AlertAnswer>,
    changed: Map<string, { change: "new" | "changed"; fingerprint: string }>,
    now: Date,
  ): Promise<{ alerts: number; queued: boolean }> {
    // One alert per watchlist, record and fingerprint, even when several ranges or entries match.
    const rows = [...matches.values()];
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
      const queued = ids.length > 0 && (await queueWebhooks(tx, ids, matches, now));
      return { alerts: ids.length, queued };
    });
  }

  /** One `watchlist.alert` event per watchlist with active webhooks, listing its new alerts. */
  async function queueWebhooks(
    tx: SqlRunner,
    alertIds: number[],
    answers: Map<string, AlertAnswer>,
    now: Date,
  ): Promise<boolean> {
    const { rows } = await tx.query<
      WatchedEntry & { watchlist: string; target_ids: number[]; change: "new" | "changed" }
    >(
      `select a.watchlist_id::text, w.name as watchlist, t.target_ids, a.kind, a.slug, a.version, a.change,
         a.vulnerability_id::text
       from watch_alerts a
       join watchlists w on w.id = a.watchlist_id
       join lateral (
         select array_agg(id order by id) as target_ids from forward_targets
         where watchlist_id = a.watchlist_id and status = 'active'
       ) t on t.target_ids is not null
       where a.id = any($1::int[])
       order by a.watchlist_id, a.id`,
      [alertIds],
    );
    const byWatchlist = new Map<string, { name: string; targets: number[]; alerts: WatchAlertItem[] }>();
    for (const row of rows) {
      const answer = answers.get(pairKey(row));
      if (!answer) continue;
      const { vulnerability } = answer;
      const watchlist = byWatchlist.get(row.watchlist_id) ?? {
        name: row.watchlist,
        targets: row.target_ids.map(Number),
        alerts: [],
      };
      watchlist.alerts.push({
        change: row.change,
        entry: { kind: row.kind, slug: row.slug, version: row.version },
        vulnerability: {
          id: vulnerability.id,
          title: vulnerability.title,
          url: vulnerability.url,
          severity: vulnerability.severity,
          cve: vulnerability.cve,
          fixed_in: vulnerability.fixed_in,
          fixed_in_inferred: vulnerability.fixed_in_inferred,
        },
        action: watchAlertActionOf(row.slug, answer.fixedIn),
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
   * last digest is a day old; one e-mail per owner and kind. Each says what the page says now; an
   * alert whose record no longer affects the entry (changed since, and alerted again if it still
   * matters) is left out.
   */
  async function mailAlerts(mode: "immediate" | "daily", now: Date): Promise<number> {
    return database.sql.transaction(async (tx) => {
      const { rows } = await tx.query<
        WatchedEntry & {
          id: number;
          email: string;
          name: string;
          watchlist: string;
          change: "new" | "changed";
        }
      >(
        `select a.id, u.email, u.name, a.watchlist_id::text, w.name as watchlist, a.kind, a.slug, a.version,
           a.change, a.vulnerability_id::text
         from watch_alerts a
         join watchlists w on w.id = a.watchlist_id and w.alert_mode = $1
           and ($1 = 'immediate' or w.last_digest_at is null or w.last_digest_at <= $2::timestamptz - interval '1 day')
         join users u on u.id = w.user_id
         where a.emailed_at is null
         order by u.id, w.name, a.id
         for update of a skip locked`,
        [mode, now],
      );
      const answers = await answersOf(rows, tx);
      const byOwner = new Map<string, { name: string; alerts: WatchAlertLine[] }>();
      const mailed: number[] = [];
      rows.forEach((row, index) => {
        const answer = answers[index];
        if (!answer) return;
        mailed.push(row.id);
        const owner = byOwner.get(row.email) ?? { name: row.name, alerts: [] };
        owner.alerts.push({
          watchlist: row.watchlist,
          entry: `${row.slug} ${row.version}`,
          slug: row.slug,
          title: answer.vulnerability.title,
          severity: answer.vulnerability.severity,
          change: row.change,
          fixedIn: answer.fixedIn,
          url: answer.vulnerability.url,
        });
        byOwner.set(row.email, owner);
      });
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
        if (mode === "daily" && mailed.length > 0)
          await tx.query(
            `update watchlists set last_digest_at = $2
             where id in (select watchlist_id from watch_alerts where id = any($1::int[]))`,
            [mailed, now],
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
