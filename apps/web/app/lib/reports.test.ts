import { describe, expect, it } from "vitest";
import {
  affectedVersionsLabel,
  daysLeft,
  daysLeftLabel,
  formatDateTime,
  formatDay,
  owaspLabel,
  stateLabel,
  vulnerabilityTypeLabel,
} from "./reports.ts";

describe("report wording", () => {
  const now = Date.parse("2026-01-10T12:00:00Z");

  it("counts the days left to a fix deadline, rounding a part day up", () => {
    expect(daysLeft("2026-01-20T12:00:00Z", now)).toBe(10);
    expect(daysLeft("2026-01-10T18:00:00Z", now)).toBe(1);
    expect(daysLeft("2026-01-08T12:00:00Z", now)).toBe(-2);
    expect(daysLeft(null, now)).toBeNull();
  });

  it("says how long is left, or how late the fix is", () => {
    expect(daysLeftLabel(1)).toBe("1 day left");
    expect(daysLeftLabel(12)).toBe("12 days left");
    expect(daysLeftLabel(0)).toBe("Due today");
    expect(daysLeftLabel(-3)).toBe("3 days overdue");
  });

  it("names states and affected versions as people read them", () => {
    expect(stateLabel("awaiting_fix")).toBe("Awaiting fix");
    expect(affectedVersionsLabel("<=", "1.2.3")).toBe("<= 1.2.3 (less than or equal)");
    expect(affectedVersionsLabel("", "1.4.0")).toBe("1.4.0 (this version only)");
    expect(affectedVersionsLabel("<", null)).toBeNull();
  });

  it("names the classification as the report form offers it, and nothing when it is not set", () => {
    expect(owaspLabel(43)).toBe("A3 Injection");
    expect(owaspLabel(null)).toBeNull();
    expect(vulnerabilityTypeLabel(null)).toBeNull();
  });

  it("writes dates in UTC, the same on the server and in the browser", () => {
    expect(formatDay("2024-06-13T23:30:00Z")).toBe("13 June 2024");
    expect(formatDateTime("2024-06-13T06:00:02Z")).toBe("13 June 2024 at 06:00 UTC");
    expect(formatDay("not a date")).toBeNull();
    expect(formatDateTime(null)).toBeNull();
  });
});
