import type { Database, SqlRunner } from "./client.ts";

/**
 * The version of the public data: a counter in app_state that every write to public records
 * (imports now; publications later) bumps. Caches of public answers key on it, so a change made by
 * any process — another instance, the import CLI — reaches every cache within one poll.
 */
export async function bumpDataVersion(sql: SqlRunner): Promise<void> {
  await sql.query(
    `insert into app_state (key, value) values ('data_version', '1'::jsonb)
     on conflict (key) do update
       set value = to_jsonb(coalesce((app_state.value #>> '{}')::bigint, 0) + 1), updated_at = now()`,
  );
}

export async function readDataVersion(sql: SqlRunner): Promise<string> {
  const { rows } = await sql.query<{ version: string | null }>(
    "select value #>> '{}' as version from app_state where key = 'data_version'",
  );
  return rows[0]?.version ?? "0";
}

/** The data version and when it was set (null: never). */
export async function readDataVersionStamp(
  sql: SqlRunner,
): Promise<{ version: string; changedAt: Date | null }> {
  const { rows } = await sql.query<{ version: string | null; updated_at: Date | string | null }>(
    "select value #>> '{}' as version, updated_at from app_state where key = 'data_version'",
  );
  const row = rows[0];
  return {
    version: row?.version ?? "0",
    changedAt: row?.updated_at ? new Date(row.updated_at) : null,
  };
}

export interface DataVersion {
  /** The last version seen; cheap, for every request. */
  current(): string;
  /** Reads the version now (after an in-process write, or in tests). */
  refresh(): Promise<string>;
  stop(): void;
}

/** Polls the data version every `pollMs`; a failed poll keeps the last value and tries again. */
export async function watchDataVersion(database: Database, pollMs = 2000): Promise<DataVersion> {
  let version = await readDataVersion(database.sql);
  const refresh = async () => {
    version = await readDataVersion(database.sql);
    return version;
  };
  const timer = setInterval(() => {
    refresh().catch(() => {});
  }, pollMs);
  timer.unref();
  return { current: () => version, refresh, stop: () => clearInterval(timer) };
}
