import { deliveredEventLabel, FORWARD_FORMATS, type ForwardTarget } from "@pressguard/domain";

export const formatLabel = (format: string) =>
  FORWARD_FORMATS.find((entry) => entry.value === format)?.label ?? format;

export function eventsSummary(events: readonly string[]): string {
  return events.length === 0 ? "All events" : events.map(deliveredEventLabel).join(", ");
}

export function statusLabel(target: ForwardTarget): string {
  if (target.status === "pending") return "Pending confirmation";
  if (target.status === "active") return "Active";
  return "Disabled";
}
