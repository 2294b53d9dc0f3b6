import type { SqlRunner } from "../../db/client.ts";
import type { DataSourceCounts } from "./source.ts";

/**
 * The SQL of what KEV and EPSS write on the records (cve-annotations.ts): one JSON value per record
 * in `column` of its `vulnerability_signals` row, looked up by the record's CVE (`vulnerabilities.cve`).
 * A row stays when its values are cleared (the next day's file usually sets them again).
 */

/** The signal columns a CVE-keyed source writes (never from input: interpolated into the SQL). */
export type AnnotationColumn = "known_exploited" | "epss";

/** Every record's CVE as it spells it, with its value of `column` (jsonb as text). */
export type StoredAnnotations = { cve: string; value: string | null }[];

/** Reads every record's CVE and value of `column`: one scan, compared in memory. */
export async function readStoredAnnotations(
  sql: SqlRunner,
  column: AnnotationColumn,
): Promise<StoredAnnotations> {
  const { rows } = await sql.query<{ cve: string; value: string | null }>(
    `select v.cve, s.${column}::text as value
     from vulnerabilities v left join vulnerability_signals s on s.vulnerability_id = v.id
     where v.cve is not null`,
  );
  return rows;
}

/** How many records hold a value of `column`. */
export async function annotatedCount(sql: SqlRunner, column: AnnotationColumn): Promise<number> {
  const { rows } = await sql.query<{ count: number }>(
    `select count(*)::int as count from vulnerability_signals where ${column} is not null`,
  );
  return rows[0]?.count ?? 0;
}

/** How many records not withdrawn hold a value of `column` (what the staff page shows the source holds). */
export async function liveAnnotatedCount(sql: SqlRunner, column: AnnotationColumn): Promise<number> {
  const { rows } = await sql.query<{ count: number }>(
    `select count(*)::int as count
     from vulnerability_signals s join vulnerabilities v on v.id = s.vulnerability_id
     where s.${column} is not null and v.withdrawn_at is null`,
  );
  return rows[0]?.count ?? 0;
}

/**
 * Sets `column` of the records of each CVE (as the records spell it) to its value (JSON text, or
 * null), where the value differs (`is distinct from`, JSON compared as JSON); counts the records: new
 * (null → value), changed, withdrawn (value → null), unchanged (the same value again).
 */
export async function writeAnnotations(
  sql: SqlRunner,
  column: AnnotationColumn,
  cves: string[],
  values: (string | null)[],
): Promise<Omit<DataSourceCounts, "rejected">> {
  const { rows } = await sql.query<Omit<DataSourceCounts, "rejected">>(
    `with input as (
       select * from unnest($1::text[], $2::text[]) as u(cve, value)
     ), target as (
       select v.id, s.${column} as old, i.value::jsonb as new
       from input i join vulnerabilities v on v.cve = i.cve
       left join vulnerability_signals s on s.vulnerability_id = v.id
     ), written as (
       insert into vulnerability_signals (vulnerability_id, ${column})
       select id, new from target where old is distinct from new
       on conflict (vulnerability_id) do update set ${column} = excluded.${column}
       returning vulnerability_id
     )
     select count(*) filter (where old is null and new is not null)::int as new,
       count(*) filter (where old is not null and new is not null and old <> new)::int as changed,
       count(*) filter (where old is not null and new is null)::int as withdrawn,
       count(*) filter (where new is not null and old = new)::int as unchanged
     from target`,
    [cves, values],
  );
  return rows[0]!;
}

/** Clears `column` of the records with no CVE (one that lost its CVE loses what was looked up by it); how many. */
export async function clearAnnotationsWithoutCve(sql: SqlRunner, column: AnnotationColumn): Promise<number> {
  const { rows } = await sql.query<{ count: number }>(
    `with cleared as (
       update vulnerability_signals s set ${column} = null
       from vulnerabilities v
       where v.id = s.vulnerability_id and v.cve is null and s.${column} is not null
       returning s.vulnerability_id
     )
     select count(*)::int as count from cleared`,
  );
  return rows[0]?.count ?? 0;
}
