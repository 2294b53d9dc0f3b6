/**
 * Dates as the pages write them, in UTC so that the server's HTML and every browser agree. Each gives
 * null for a missing or unreadable value; the caller says what stands in its place.
 */

// Built once: `toLocaleDateString` makes a new formatter on every call (5% of a page's render).
const DAY = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});
const DATE_TIME = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "UTC",
});

/** "2024-06-13T06:00:02Z" → "13 June 2024". */
export function formatDay(value: string | null | undefined): string | null {
  const date = parsed(value);
  return date ? DAY.format(date) : null;
}

/** "13 June 2024, 06:00 UTC", for timeline entries, comments and deliveries. */
export function formatDateTime(value: string | null | undefined): string | null {
  const date = parsed(value);
  return date ? `${DATE_TIME.format(date)} UTC` : null;
}

function parsed(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}
