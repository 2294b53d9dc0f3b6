/**
 * The report events a vendor can forward (issue 8, PRODUCT.md §4), in the order the forwarding page
 * lists them. `report.test` is what the "send test event" button sends; it is not subscribable.
 */
export const FORWARD_EVENT_TYPES = [
  { value: "report.validated", label: "New validated report" },
  { value: "report.status_changed", label: "Status change" },
  { value: "report.comment_added", label: "New comment" },
  { value: "report.deadline_near", label: "Deadline near" },
  { value: "report.deadline_passed", label: "Deadline passed" },
] as const;

export type ForwardEventType = (typeof FORWARD_EVENT_TYPES)[number]["value"] | "report.test";

/**
 * What a delivered event was, in words: a report event, a watchlist's alert or notice, or a test.
 * The delivery logs and the e-mails and chat messages that name an event all say it so.
 */
export const deliveredEventLabel = (type: string): string =>
  type === "report.test" || type === "watchlist.test"
    ? "Test event"
    : type === "watchlist.alert"
      ? "Watchlist alert"
      : type === "watchlist.notice"
        ? "Notice from a vendor"
        : (FORWARD_EVENT_TYPES.find((event) => event.value === type)?.label ?? type);
