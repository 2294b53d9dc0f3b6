/** Helpers of the bulk import's batch writers (import-vulnerabilities.ts, import-plugins.ts). */

export interface WriteResult {
  inserted: number;
  updated: number;
}

export function countInserted(rows: { inserted: boolean }[]): WriteResult {
  const inserted = rows.filter((row) => row.inserted).length;
  return { inserted, updated: rows.length - inserted };
}

/** Column arrays for `unnest`, one array per column, built row by row. */
export function columns<Row, Key extends string>(
  rows: readonly Row[],
  pick: (row: Row) => { [K in Key]: unknown },
) {
  const result = {} as { [K in Key]: unknown[] };
  for (const row of rows) {
    const values = pick(row);
    for (const key of Object.keys(values) as Key[]) {
      result[key] ??= [];
      result[key].push(values[key]);
    }
  }
  return result;
}
