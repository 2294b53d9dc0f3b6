import type { SqlRunner } from "../../db/client.ts";

/**
 * Leaderboards and statistics over a period (PRODUCT.md §5, §6). A period is a half-open interval of
 * `published_at`; a calendar year also counts the undated records whose CVE id carries that year
 * (most 2025–2026 records have no date, data README §1.7), the same rule as the search's year filter.
 */
export interface Period {
  from: Date | null;
  to: Date | null;
  /** Undated records with a CVE id of this year count too. */
  cveYear: number | null;
}

const LEADERBOARD_TYPES = ["monthly", "yearly", "all-time"] as const;
export type LeaderboardType = (typeof LEADERBOARD_TYPES)[number];

export function leaderboardPeriod(type: LeaderboardType, now: Date): Period {
  const year = now.getUTCFullYear();
  if (type === "monthly") {
    const month = now.getUTCMonth();
    return {
      from: new Date(Date.UTC(year, month, 1)),
      to: new Date(Date.UTC(year, month + 1, 1)),
      cveYear: null,
    };
  }
  if (type === "yearly") return yearPeriod(year);
  return { from: null, to: null, cveYear: null };
}

function yearPeriod(year: number): Period {
  return { from: new Date(Date.UTC(year, 0, 1)), to: new Date(Date.UTC(year + 1, 0, 1)), cveYear: year };
}

/** `all-time`, `last-30-days` or a year; null for anything else. */
export function statisticsPeriod(timeframe: string, now: Date): Period | null {
  if (timeframe === "all-time") return { from: null, to: null, cveYear: null };
  if (timeframe === "last-30-days") {
    return { from: new Date(now.getTime() - 30 * 86_400_000), to: null, cveYear: null };
  }
  if (/^(19|20)\d{2}$/.test(timeframe)) return yearPeriod(Number(timeframe));
  return null;
}

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

/** PRODUCT.md §5 points of one credited vulnerability. */
const POINTS = `(case v.severity when 'critical' then 10 when 'high' then 7 when 'medium' then 4 else 1 end
  * case when p.is_active then 2 else 1 end)`;

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
           select c.researcher_id, sum(${POINTS})::int as points, count(*)::int as vulnerabilities,
             max(v.published_at) as reached_at
           from credits c
           join vulnerabilities v on v.id = c.vulnerability_id
           join products p on p.id = v.product_id
           where ${filter.sql}
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
      const from = `from vulnerabilities v join products p on p.id = v.product_id where ${filter.sql}`;
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
      return {
        byKind: byKind.rows,
        byType: byType.rows,
        bySeverity: bySeverity.rows,
        byPatched: byPatched.rows,
        trend: trend.rows,
      };
    },
  };
}

export type RankingQueries = ReturnType<typeof createRankingQueries>;
