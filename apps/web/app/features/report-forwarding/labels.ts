import { FORWARD_EVENT_TYPES, FORWARD_FORMATS, type ForwardTarget } from "@pressguard/domain";

export const eventLabel = (type: string) =>
  type === "report.test"
    ? "Test event"
    : (FORWARD_EVENT_TYPES.find((event) => event.value === type)?.label ?? type);

export const formatLabel = (format: string) =>
  FORWARD_FORMATS.find((entry) => entry.value === format)?.label ?? format;

export function eventsSummary(events: readonly string[]): string {
  return events.length === 0 ? "All events" : events.map(eventLabel).join(", ");
}

export function statusLabel(target: ForwardTarget): string {
  if (target.status === "pending") return "Pending confirmation";
  if (target.status === "active") return "Active";
  return "Disabled";
}

export function formatTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}
