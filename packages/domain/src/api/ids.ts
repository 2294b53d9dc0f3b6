/** The largest id a path may name: PostgreSQL's `integer`. */
const MAX_ID = 2_147_483_647;

/**
 * The numeric id of a path (`/vdp/programs/{id}`, `/api/products/{id}`, …): digits only, 1 to
 * 2,147,483,647; anything else names nothing, and the caller answers 404 (spec §2). Returns null then.
 */
export function numericIdOf(value: string | undefined): number | null {
  if (value === undefined || !/^\d{1,10}$/.test(value)) return null;
  const id = Number(value);
  return id >= 1 && id <= MAX_ID ? id : null;
}

/**
 * A UUID as text, in either case: the id of a vulnerability record, a researcher, a report, a
 * watchlist, an attachment, and a vendor's public embed key. The one pattern both apps check ids by.
 */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a UUID ({@link UUID_PATTERN}); a malformed id names nothing. */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
