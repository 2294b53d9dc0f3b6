const MEDIUM_DAY = new Intl.DateTimeFormat("en", { dateStyle: "medium", timeZone: "UTC" });

/** A date as "Nov 23, 2026", the same on the server and in the browser (UTC). */
export function formatDay(iso: string): string {
  return MEDIUM_DAY.format(new Date(iso));
}
