import type { SqlRunner } from "../../db/client.ts";
import type { DataSourceCounts } from "./source.ts";

/**
 * The SQL of what KEV and EPSS write on the records (cve-annotations.ts): one JSON value per record
 * in `column`, looked up by the record's CVE (`vulnerabilities.cve`).
 */

/** The record columns a CVE-keyed source writes (never from input: interpolated into the SQL). */
export type AnnotationColumn = "known_exploited" | "epss";

/** Every record's CVE as it spells it, with its value of `column` (jsonb as text). */
export type StoredAnnotations = { cve: string; value: string | null }[];

/** Reads every record's CVE and value of `column`: one scan, compared in memory. */
export async function readStoredAnnotations(
  sql: SqlRunner,
  column: AnnotationColumn,
): Promise<StoredAnnotations> {
  const { rows } = await sql.query<{ cve: string; value: string | null }>(
    `select cve, ${column}::text as value from vulnerabilities where cve is not null`,
  );
  return rows;
}

/** How many records hold a value of `column`. */
export async function annotatedCount(sql: SqlRunner, column: AnnotationColumn): Promise<number> {
  const { rows } = await sql.query<{ count: number }>(
    `select count(*)::int as count from vulnerabilities where ${column} is not null`,
  );
  return rows[0]?.count ?? 0;
}

/** How many records not withdrawn hold a value of `column` (what the staff page shows the source holds). */
export async function liveAnnotatedCount(sql: SqlRunner, column: AnnotationColumn): Promise<number> {
  const { rows } = await sql.query<{ count: number }>(
    `select count(*)::int as count from vulnerabilities where ${column} is not null and withdrawn_at is null`,
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
       select v.id, v.${column} as old, i.value::jsonb as new
       from input i join vulnerabilities v on v.cve = i.cve
     ), written as (
       update vulnerabilities v set ${column} = t.new
       from target t where v.id = t.id and t.old is distinct from t.new
       returning v.id
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
       update vulnerabilities set ${column} = null where cve is null and ${column} is not null returning id
     )
     select count(*)::int as count from cleared`,
  );
  return rows[0]?.count ?? 0;
}
