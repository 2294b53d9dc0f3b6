import type { Database, SqlRunner } from "./client.ts";

/**
 * The first start on the embedded PostgreSQL of an install that ran PGlite (decision 037) copies every
 * row across. PostgreSQL cannot open PGlite's data directory (a 32-bit layout), so the copy goes
 * through SQL, table by table: each row leaves PGlite as `to_jsonb(row)` text and enters PostgreSQL
 * through `jsonb_populate_recordset`, which parses every value with its column type's own input
 * function, so bytea, numeric, arrays, tsvector and timestamps arrive exactly as they left.
 */

export interface CopyProgress {
  /** The table a batch was just written to. */
  table: string;
  /** The rows of `table` copied so far. */
  rows: number;
  /** How many tables the copy has in all. */
  tables: number;
  /** How many tables are copied completely (`table` counts once its last batch is written). */
  done: number;
}

export interface CopyOptions {
  /** Called after each batch, and once for an empty table. */
  onProgress?: (progress: CopyProgress) => void;
  /** The most rows in one insert (default 2,000). */
  batchRows?: number;
  /** About the most JSON text in one insert (default 16 MiB); a single larger row goes alone. */
  batchBytes?: number;
}

export interface CopySummary {
  tables: number;
  rows: number;
  ms: number;
}

const DEFAULT_BATCH_ROWS = 2_000;
const DEFAULT_BATCH_BYTES = 16 * 1024 * 1024;
/** A fresh target holds the few rows its migrations wrote (0005's platform); more means it is in use. */
const MOST_MIGRATION_ROWS = 100;

interface Column {
  name: string;
  type: string;
  generated: boolean;
  identity: boolean;
}

interface Table {
  name: string;
  columns: Column[];
}

export async function copyPgliteToPostgres(
  source: Database,
  target: Database,
  options: CopyOptions = {},
): Promise<CopySummary> {
  const started = performance.now();
  if (source.kind !== "pglite" || target.kind !== "postgres")
    throw new Error(
      `copyPgliteToPostgres copies from PGlite into PostgreSQL, not from ${source.kind} into ${target.kind}`,
    );
  const batchRows = options.batchRows ?? DEFAULT_BATCH_ROWS;
  const batchBytes = options.batchBytes ?? DEFAULT_BATCH_BYTES;
  if (!(batchRows >= 1 && batchBytes >= 1)) throw new Error("batchRows and batchBytes must be at least 1");

  await requireSameMigrations(source.sql, target.sql);
  const tables = await readTables(source.sql);
  requireSameTables(tables, await readTables(target.sql));

  // One transaction on each side. PGlite's gives the copy one snapshot (its single session serves
  // no-one else meanwhile); PostgreSQL's makes the copy all or nothing, and in it the `replica` role
  // switches off foreign-key checks (so table order does not matter) and triggers (a copy must not
  // recompute search documents or add alert states the source already holds).
  const rows = await target.sql.transaction(async (into) => {
    try {
      await into.query("set local session_replication_role = replica");
    } catch (error) {
      throw new Error("PostgreSQL refused session_replication_role: the copy needs a superuser", {
        cause: error,
      });
    }
    // UTC: the fresh check compares rows as JSON text, where timestamps carry the session's offset.
    await into.query("set local timezone = 'UTC'");
    return source.sql.transaction(async (from) => {
      await from.query("set transaction read only");
      await from.query("set local timezone = 'UTC'");
      await from.query("set local bytea_output = 'hex'");
      await requireFreshTarget(tables, from, into);
      let copied = 0;
      for (const [index, table] of tables.entries()) {
        copied += await copyTable(table, from, into, {
          batchRows,
          batchBytes,
          onBatch: (rows, last) =>
            options.onProgress?.({
              table: table.name,
              rows,
              tables: tables.length,
              done: index + (last ? 1 : 0),
            }),
        });
      }
      await copySequences(from, into);
      return copied;
    });
  });
  return { tables: tables.length, rows, ms: Math.round(performance.now() - started) };
}

const quoteIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;
const quoteLiteral = (text: string) => `'${text.replaceAll("'", "''")}'`;
const qualified = (table: string) => `public.${quoteIdentifier(table)}`;
const isJson = (column: Column) => column.type === "json" || column.type === "jsonb";

async function readMigrationHashes(sql: SqlRunner, side: string): Promise<string[]> {
  try {
    const { rows } = await sql.query<{ hash: string }>(
      "select hash from drizzle.__drizzle_migrations order by id",
    );
    return rows.map((row) => row.hash);
  } catch (error) {
    throw new Error(`the ${side} database has no migrations table: migrate it before copying`, {
      cause: error,
    });
  }
}

async function requireSameMigrations(source: SqlRunner, target: SqlRunner) {
  const from = await readMigrationHashes(source, "PGlite");
  const into = await readMigrationHashes(target, "PostgreSQL");
  const differs = from.length !== into.length || from.some((hash, index) => hash !== into[index]);
  if (differs)
    throw new Error(
      `the PGlite and PostgreSQL databases are not at the same migration (PGlite has ${from.length}, ` +
        `PostgreSQL ${into.length}${from.length === into.length ? ", with different hashes" : ""}): ` +
        "migrate both to the latest before copying",
    );
}

/**
 * The tables of `public` and their columns, from the catalog. A partition is left out: its rows are
 * read, and written, through its parent.
 */
async function readTables(sql: SqlRunner): Promise<Table[]> {
  const { rows } = await sql.query<{
    table: string;
    column: string;
    type: string;
    generated: boolean;
    identity: boolean;
  }>(
    `select c.relname as "table", a.attname as "column", format_type(a.atttypid, a.atttypmod) as type,
            a.attgenerated <> '' as generated, a.attidentity <> '' as identity
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition
      order by c.relname, a.attnum`,
  );
  const tables = new Map<string, Table>();
  for (const row of rows) {
    let table = tables.get(row.table);
    if (!table) {
      table = { name: row.table, columns: [] };
      tables.set(row.table, table);
    }
    table.columns.push({
      name: row.column,
      type: row.type,
      generated: row.generated,
      identity: row.identity,
    });
  }
  return [...tables.values()];
}

/** Equal migrations should mean equal tables; a hand-made change on either side would lose data. */
function requireSameTables(source: Table[], target: Table[]) {
  const columnsOf = (table: Table) =>
    table.columns
      .map((column) => `${column.name} ${column.type}${column.generated ? " generated" : ""}`)
      .sort()
      .join(", ");
  const targetTables = new Map(target.map((table) => [table.name, columnsOf(table)]));
  for (const table of source) {
    const found = targetTables.get(table.name);
    if (found === undefined) throw new Error(`PostgreSQL has no table ${table.name}, which PGlite has`);
    if (found !== columnsOf(table))
      throw new Error(
        `the table ${table.name} has other columns in PGlite (${columnsOf(table)}) than in PostgreSQL (${found})`,
      );
  }
  if (target.length !== source.length) {
    const names = new Set(source.map((table) => table.name));
    const extra = target.filter((table) => !names.has(table.name)).map((table) => table.name);
    throw new Error(`PostgreSQL has tables PGlite has not: ${extra.join(", ")}`);
  }
}

/**
 * The copy goes only into a new database. A freshly migrated one is not quite empty: migrations write
 * a few rows (0005: the `wordpress` platform), and so did the source's. So a target table may hold
 * rows only if the source holds each of them too; those are deleted here and come back with the copy.
 */
async function requireFreshTarget(tables: Table[], from: SqlRunner, into: SqlRunner) {
  for (const table of tables) {
    const { rows } = await into.query<{ row: string }>(
      `select to_jsonb(t.*)::text as row from ${qualified(table.name)} t limit ${MOST_MIGRATION_ROWS + 1}`,
    );
    if (rows.length === 0) continue;
    const notFresh = new Error(
      `the PostgreSQL database is not empty: its table ${table.name} holds rows the PGlite database has not ` +
        "(the copy goes only into a new database)",
    );
    if (rows.length > MOST_MIGRATION_ROWS) throw notFresh;
    const { rows: missing } = await from.query<{ missing: number }>(
      `select count(*)::int as missing from jsonb_array_elements($1::jsonb) e
        where not exists (select 1 from ${qualified(table.name)} t where to_jsonb(t.*) = e.value)`,
      [`[${rows.map((row) => row.row).join(",")}]`],
    );
    if (missing[0]?.missing !== 0) throw notFresh;
    await into.query(`delete from ${qualified(table.name)}`);
  }
}

interface BatchOptions {
  batchRows: number;
  batchBytes: number;
  onBatch: (rowsSoFar: number, last: boolean) => void;
}

/** Copies one table through a cursor, a batch at a time, bounded by rows and by bytes. Answers its rows. */
async function copyTable(table: Table, from: SqlRunner, into: SqlRunner, options: BatchOptions) {
  const name = qualified(table.name);
  const json = table.columns.filter((column) => isJson(column));
  // In `to_jsonb(row)` a JSON null and an SQL NULL look alike, and jsonb_populate_recordset makes
  // both SQL NULL (a NOT NULL jsonb column holding `null` would even fail). So JSON values travel
  // wrapped in a one-element array, and the insert unwraps them with `-> 0`, which gives SQL NULL
  // only for the unwrapped null.
  const wrapped = json.map(
    (column) =>
      ` || jsonb_build_object(${quoteLiteral(column.name)}, case when t.${quoteIdentifier(column.name)} is null ` +
      `then null else jsonb_build_array(t.${quoteIdentifier(column.name)}) end)`,
  );
  const cursor = "pressguard_copy";
  await from.query(
    `declare ${cursor} no scroll cursor for select (to_jsonb(t.*)${wrapped.join("")})::text as row from ${name} t`,
  );

  // Generated columns are computed again by PostgreSQL; identity columns take the source's values.
  const insertable = table.columns.filter((column) => !column.generated);
  const columnList = insertable.map((column) => quoteIdentifier(column.name)).join(", ");
  const selectList = insertable
    .map((column) => `r.${quoteIdentifier(column.name)}${isJson(column) ? " -> 0" : ""}`)
    .join(", ");
  const overriding = table.columns.some((column) => column.identity) ? " overriding system value" : "";
  const insert =
    `insert into ${name} (${columnList})${overriding} ` +
    `select ${selectList} from jsonb_populate_recordset(null::${name}, $1::jsonb) r`;

  let batch: string[] = [];
  let batchBytes = 0;
  let largestRow = 0;
  let copied = 0;
  const flush = async (last: boolean) => {
    if (batch.length > 0) await into.query(insert, [`[${batch.join(",")}]`]);
    copied += batch.length;
    batch = [];
    batchBytes = 0;
    options.onBatch(copied, last);
  };
  for (;;) {
    // Fetch only as many rows as the batch has room for at the largest row seen: the first fetch of
    // a table is one row, so a table of 256 KB attachment chunks never has thousands in memory.
    const room = largestRow === 0 ? 1 : Math.floor((options.batchBytes - batchBytes) / largestRow);
    const wanted = Math.max(1, Math.min(options.batchRows - batch.length, room));
    const { rows } = await from.query<{ row: string }>(`fetch forward ${wanted} from ${cursor}`);
    for (const { row } of rows) {
      batch.push(row);
      // UTF-16 units, not bytes: close enough for a bound on memory.
      batchBytes += row.length;
      largestRow = Math.max(largestRow, row.length);
    }
    const exhausted = rows.length < wanted;
    const full = batch.length >= options.batchRows || batchBytes + largestRow > options.batchBytes;
    if (exhausted) {
      await flush(true);
      break;
    }
    if (full) await flush(false);
  }
  await from.query(`close ${cursor}`);

  const { rows: counted } = await into.query<{ rows: string }>(`select count(*)::text as rows from ${name}`);
  if (Number(counted[0]?.rows) !== copied)
    throw new Error(`copied ${copied} rows of ${table.name}, but PostgreSQL counts ${counted[0]?.rows}`);
  return copied;
}

/**
 * Every sequence of `public` or owned by a table of it (serial and identity columns) continues where
 * the source's stood: new rows must not take ids the copied ones hold.
 */
async function copySequences(from: SqlRunner, into: SqlRunner) {
  const { rows: sequences } = await from.query<{ schema: string; name: string }>(
    `select distinct sn.nspname as schema, s.relname as name
       from pg_class s
       join pg_namespace sn on sn.oid = s.relnamespace
       left join pg_depend d on d.classid = 'pg_class'::regclass and d.objid = s.oid
                            and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i')
       left join pg_class t on t.oid = d.refobjid
       left join pg_namespace tn on tn.oid = t.relnamespace
      where s.relkind = 'S' and (sn.nspname = 'public' or tn.nspname = 'public')
      order by 1, 2`,
  );
  for (const sequence of sequences) {
    const name = `${quoteIdentifier(sequence.schema)}.${quoteIdentifier(sequence.name)}`;
    const { rows } = await from.query<{ last_value: string; is_called: boolean }>(
      `select last_value::text as last_value, is_called from ${name}`,
    );
    const state = rows[0];
    if (!state) continue;
    await into.query("select setval($1::regclass, $2::bigint, $3)", [
      name,
      state.last_value,
      state.is_called,
    ]);
  }
}
