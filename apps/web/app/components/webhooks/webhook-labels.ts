import { FORWARD_EVENT_TYPES } from "@pressguard/domain";

/** What a delivered event was: a report event, a watchlist's alert, or a test. */
export const eventLabel = (type: string) =>
  type === "report.test" || type === "watchlist.test"
    ? "Test event"
    : type === "watchlist.alert"
      ? "Watchlist alert"
      : (FORWARD_EVENT_TYPES.find((event) => event.value === type)?.label ?? type);

export function formatTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}
