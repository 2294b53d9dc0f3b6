import type { SqlRunner } from "../../db/client.ts";
import { productSlugKeySql } from "../check/product-slug.ts";

/**
 * The SQL of the watchlists' alerts and notices (issue 20, decision 031), which read every owner's
 * lists: the alert pass's claims, matches and alerts (alert-service.ts, run by jobs/watch-alert-job.ts),
 * and the watchlists a vendor's notice goes to (webhooks.ts).
 */

/** A record's fingerprint: what decides whom it concerns and what they must do. */
const FINGERPRINT = `md5(concat_ws('|', v.severity, v.fixed_in, (
    select string_agg(concat_ws(',', pr.kind, pr.slug, ar.prefix, ar.version, ar.introduced,
        ar.introduced_inclusive::text, ar.fixed, ar.last_affected), ';' order by ar.product_id, ar.position)
    from affected_ranges ar join products pr on pr.id = ar.product_id
    where ar.vulnerability_id = v.id)))`;

/** A watched entry (as its alert keeps it) and the record it is alerted of. */
export interface WatchedEntry {
  watchlist_id: string;
  vulnerability_id: string;
  kind: string;
  slug: string;
  version: string;
}

type AlertChange = "new" | "changed";

/** One alert to keep: a watchlist's entry, the record, and the fingerprint it is alerted of. */
interface AlertInput extends WatchedEntry {
  fingerprint?: string;
  change?: AlertChange;
}

export function createAlertQueries(sql: SqlRunner) {
  return {
    /**
     * Claims up to `limit` pending records (`vulnerability_alert_states`, skipping those another
     * instance holds): each is fingerprinted and no longer pending. A withdrawn record (decision 035)
     * keeps the fingerprint it had. Answers each with its old and new fingerprint.
     */
    async claimPending(limit: number) {
      const { rows } = await sql.query<{
        id: string;
        old: string | null;
        fingerprint: string;
        withdrawn: boolean;
      }>(
        `with pending as (
           select vulnerability_id as id, fingerprint from vulnerability_alert_states where pending
           order by vulnerability_id limit ${limit} for update skip locked
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
      return rows;
    },

    /** The watched entries of a product these records name, by watchlist and position. */
    async entriesNamedBy(ids: string[]): Promise<WatchedEntry[]> {
      const { rows } = await sql.query<WatchedEntry>(
        `select distinct e.watchlist_id::text, ar.vulnerability_id::text, e.kind, e.slug, e.version, e.position
         from affected_ranges ar
         join products p on p.id = ar.product_id
         join watchlist_entries e on e.kind = p.kind and e.slug = ${productSlugKeySql("p.slug")}
         where ar.vulnerability_id = any($1::uuid[])
         order by watchlist_id, position`,
        [ids],
      );
      return rows;
    },

    /** Keeps each alert once per watchlist, record and fingerprint; answers the ids of the new ones. */
    async insertAlerts(tx: SqlRunner, alerts: readonly AlertInput[]): Promise<number[]> {
      const { rows } = await tx.query<{ id: number }>(
        `insert into watch_alerts (watchlist_id, vulnerability_id, fingerprint, change, kind, slug, version)
         select * from unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
         on conflict (watchlist_id, vulnerability_id, fingerprint) do nothing
         returning id`,
        [
          alerts.map((alert) => alert.watchlist_id),
          alerts.map((alert) => alert.vulnerability_id),
          alerts.map((alert) => alert.fingerprint),
          alerts.map((alert) => alert.change),
          alerts.map((alert) => alert.kind),
          alerts.map((alert) => alert.slug),
          alerts.map((alert) => alert.version),
        ],
      );
      return rows.map((row) => row.id);
    },

    /** These alerts of the watchlists with active webhooks, each with its watchlist's name and targets. */
    async alertsWithWebhooks(tx: SqlRunner, alertIds: number[]) {
      const { rows } = await tx.query<
        WatchedEntry & { watchlist: string; target_ids: number[]; change: AlertChange }
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
      return rows;
    },

    /**
     * The alerts not mailed yet of the watchlists whose `alert_mode` is `mode` (a `daily` one's when
     * its last digest is a day old at `now`), with their owner, locked in `tx` (skipping those another
     * instance holds).
     */
    async unmailed(tx: SqlRunner, mode: "immediate" | "daily", now: Date) {
      const { rows } = await tx.query<
        WatchedEntry & { id: number; email: string; name: string; watchlist: string; change: AlertChange }
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
      return rows;
    },

    async markEmailed(tx: SqlRunner, alertIds: number[], now: Date): Promise<void> {
      await tx.query("update watch_alerts set emailed_at = $2 where id = any($1::int[])", [alertIds, now]);
    },

    /** The digest of the watchlists of these alerts was sent at `now`. */
    async markDigested(tx: SqlRunner, alertIds: number[], now: Date): Promise<void> {
      await tx.query(
        `update watchlists set last_digest_at = $2
         where id in (select watchlist_id from watch_alerts where id = any($1::int[]))`,
        [alertIds, now],
      );
    },

    /**
     * The watchlists holding the product (`kind`, `slug`: matched as the check matches it) that have
     * active webhooks, with those webhooks.
     */
    async watchlistsWithWebhooksFor(kind: string, slug: string) {
      const { rows } = await sql.query<{ id: string; name: string; target_ids: number[] }>(
        `select w.id::text, w.name, array_agg(t.id order by t.id) as target_ids
         from watchlists w join forward_targets t on t.watchlist_id = w.id and t.status = 'active'
         where exists (
           select 1 from watchlist_entries e where e.watchlist_id = w.id and e.kind = $1 and e.slug = ${productSlugKeySql("$2")})
         group by w.id, w.name`,
        [kind, slug],
      );
      return rows;
    },
  };
}
