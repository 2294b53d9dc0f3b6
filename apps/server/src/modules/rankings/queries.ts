import type { SqlRunner } from "../../db/client.ts";
import type { Period } from "./periods.ts";
import { CREDIT_POINTS_SQL } from "./public.ts";

/** The SQL of the leaderboards, the statistics over a period and the headline counts (PRODUCT.md §5, §6). */

/** The WHERE fragment of a period over `v`, with its parameters numbered from `offset + 1`. */
function periodFilter(period: Period, offset = 0): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const next = (value: unknown) => {
    params.push(value);
    return `$${offset + params.length}`;
  };
  const dated: string[] = [];
  if (period.from) dated.push(`v.published_at >= ${next(period.from.toISOString())}::timestamptz`);
  if (period.to) dated.push(`v.published_at < ${next(period.to.toISOString())}::timestamptz`);
  if (dated.length === 0) return { sql: "true", params };
  const datedSql = `(${dated.join(" and ")})`;
  if (period.cveYear === null) return { sql: datedSql, params };
  return {
    sql: `(${datedSql} or (v.published_at is null and v.cve like ${next(`CVE-${period.cveYear}-%`)}))`,
    params,
  };
}

export interface LeaderboardRow {
  rank: number;
  uuid: string;
  display_name: string;
  points: number;
  vulnerabilities: number;
}

/** The severity bands the monthly trend is split into; `unknown` is a record without a CVSS score. */
const MONTHLY_SEVERITIES = ["critical", "high", "medium", "low", "none", "unknown"] as const;

export type MonthlyCount = { month: string; count: number } & Record<
  (typeof MONTHLY_SEVERITIES)[number],
  number
>;

export function createRankingQueries(run: SqlRunner) {
  return {
    /** Ranked by points; equal points go to whoever reached the total first (their latest record). */
    async leaderboard(period: Period, limit: number): Promise<LeaderboardRow[]> {
      const filter = periodFilter(period);
      const { rows } = await run.query<LeaderboardRow>(
        `with totals as (
           select c.researcher_id, sum(${CREDIT_POINTS_SQL})::int as points, count(*)::int as vulnerabilities,
             max(v.published_at) as reached_at
           from credits c
           join vulnerabilities v on v.id = c.vulnerability_id
           join products p on p.id = v.product_id
           where v.withdrawn_at is null and ${filter.sql}
           group by c.researcher_id
         )
         select row_number() over (order by t.points desc, t.reached_at asc nulls last, r.display_name, r.uuid)::int
             as rank,
           r.uuid, r.display_name, t.points, t.vulnerabilities
         from totals t join researchers r on r.id = t.researcher_id
         order by rank
         limit ${limit}`,
        filter.params,
      );
      return rows;
    },

    async statistics(period: Period) {
      const filter = periodFilter(period);
      // Withdrawn records (decision 035) are not counted, as the headline counts do not count them.
      const from = `from vulnerabilities v join products p on p.id = v.product_id
        where v.withdrawn_at is null and ${filter.sql}`;
      const grouped = (column: string) =>
        run.query<{ key: string | number | null; count: number }>(
          `select ${column} as key, count(*)::int as count ${from} group by 1 order by 2 desc, 1`,
          filter.params,
        );
      const byKind = await grouped("p.kind");
      const byType = await grouped("v.type_code");
      const bySeverity = await grouped("v.severity");
      const byPatched = await grouped("v.patched::text");
      const trend = await run.query<MonthlyCount>(
        `select to_char(date_trunc('month', v.published_at at time zone 'UTC'), 'YYYY-MM') as month,
           count(*)::int as count,
           ${MONTHLY_SEVERITIES.map(
             (severity) =>
               `count(*) filter (where ${
                 severity === "unknown" ? "v.severity is null" : `v.severity = '${severity}'`
               })::int as ${severity}`,
           ).join(",\n           ")}
         ${from} and v.published_at is not null
         group by 1 order by 1`,
        filter.params,
      );
      const years = await run.query<{ year: number; count: number }>(
        // A year's statistics count undated records by their CVE year (periodFilter): so do the years.
        `select year, count(*)::int as count from (
           select coalesce(extract(year from v.published_at at time zone 'UTC')::int,
             substring(v.cve from '^CVE-([0-9]{4})-')::int) as year
           from vulnerabilities v where v.withdrawn_at is null
         ) dated where year is not null group by 1 order by 1 desc`,
      );
      return {
        byKind: byKind.rows,
        byType: byType.rows,
        bySeverity: bySeverity.rows,
        byPatched: byPatched.rows,
        trend: trend.rows,
        years: years.rows,
      };
    },

    /**
     * The headline counts, withdrawn records left out (decision 035), and when the public data last
     * changed: the data version's last move (every import, publication and sync bumps it) or the
     * latest change of a record, withdrawals included, whichever is later.
     */
    async databaseCounts() {
      const { rows } = await run.query<{
        updated_at: Date | string | null;
        vulnerabilities: number;
        patched: number;
        products: number;
        researchers: number;
        plugin: number;
        theme: number;
        core: number;
        critical: number;
        high: number;
        medium: number;
        low: number;
        none: number;
      }>(
        `select count(*) filter (where live)::int as vulnerabilities,
           count(*) filter (where live and v.patched)::int as patched,
           count(*) filter (where live and p.kind = 'plugin')::int as plugin,
           count(*) filter (where live and p.kind = 'theme')::int as theme,
           count(*) filter (where live and p.kind = 'core')::int as core,
           count(*) filter (where live and v.severity = 'critical')::int as critical,
           count(*) filter (where live and v.severity = 'high')::int as high,
           count(*) filter (where live and v.severity = 'medium')::int as medium,
           count(*) filter (where live and v.severity = 'low')::int as low,
           count(*) filter (where live and v.severity = 'none')::int as none,
           greatest(max(greatest(v.updated_at, v.withdrawn_at)),
             (select updated_at from app_state where key = 'data_version')) as updated_at,
           (select count(*)::int from products where id in (
             select ar.product_id from affected_ranges ar
             join vulnerabilities lv on lv.id = ar.vulnerability_id and lv.withdrawn_at is null)) as products,
           (select count(*)::int from researchers where id in (
             select c.researcher_id from credits c
             join vulnerabilities cv on cv.id = c.vulnerability_id and cv.withdrawn_at is null)) as researchers
         from vulnerabilities v join products p on p.id = v.product_id,
           lateral (select v.withdrawn_at is null as live) l`,
      );
      return rows[0]!;
    },
  };
}

export type RankingQueries = ReturnType<typeof createRankingQueries>;
