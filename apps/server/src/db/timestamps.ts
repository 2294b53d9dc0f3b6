/**
 * A timestamp column as ISO 8601 for an API answer: node-postgres hands back a `Date`, some PGlite
 * and raw-SQL paths a string.
 */
export function isoOf(value: Date | string): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** `isoOf` for a nullable column. */
export function isoOrNull(value: Date | string | null): string | null {
  return value === null ? null : isoOf(value);
}
