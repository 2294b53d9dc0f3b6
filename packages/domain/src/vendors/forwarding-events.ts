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
