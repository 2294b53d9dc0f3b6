import { randomUUID } from "node:crypto";
import type { CheckedVulnerability, ComponentKind } from "@pressguard/domain";
import type { Database, SqlRunner } from "../../db/client.ts";
import type { Mailer } from "../../mail/outbox.ts";
import { type WatchAlertLine, watchAlertActionOf } from "../../mail/watch-templates.ts";
import { type CheckEntry, createCheckService } from "../check/service.ts";
import type { WatchAlertItem, WatchAlertPayload } from "../forwarding/payload.ts";
import { queueWatchlistEvents } from "../forwarding/public.ts";
import { createAlertQueries, type WatchedEntry } from "./alert-queries.ts";

/** Records fingerprinted per statement: a first run after an import of 37,000 takes 75 short ones. */
const BATCH = 500;

export interface WatchAlertServiceOptions {
  database: Database;
  mailer: Pick<Mailer, "enqueue">;
  appUrl: string;
  /** Wakes the forwarding worker: alert webhooks were queued. */
  onDeliveryQueued?: () => void;
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
 * batch check's own comparison (a watchlist is a batch check), on ranges read as the pass runs. Run
 * by jobs/watch-alert-job.ts; several instances share the work: the pending records and the alerts
 * to mail are claimed with FOR UPDATE SKIP LOCKED (`alert-queries.ts`).
 */
export function createWatchAlertService({
  database,
  mailer,
  appUrl,
  onDeliveryQueued,
}: WatchAlertServiceOptions) {
  const check = createCheckService({ database, appUrl });
  const queries = createAlertQueries(database.sql);

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
    const rows = await queries.claimPending(BATCH);
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
    const rows = await queries.entriesNamedBy(ids);
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
      // Each match with its record's change and fingerprint.
      const ids = await queries.insertAlerts(
        tx,
        rows.map((row) => ({ ...row, ...changed.get(row.vulnerability_id) })),
      );
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
    const rows = await queries.alertsWithWebhooks(tx, alertIds);
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
    await queueWatchlistEvents(
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
      const rows = await queries.unmailed(tx, mode, now);
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
        await queries.markEmailed(
          tx,
          rows.map((row) => row.id),
          now,
        );
        if (mode === "daily" && mailed.length > 0) await queries.markDigested(tx, mailed, now);
      }
      return byOwner.size;
    });
  }

  /**
   * One pass (`now`: the job's clock): the pending records in batches (until a batch is short), then
   * the mails. Answers how many records changed, how many alerts are new, how many e-mails were queued.
   */
  async function alertPending(now: Date): Promise<{ changed: number; alerts: number; mails: number }> {
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

  return { alertPending };
}
