import { describe, expect, it } from "vitest";
import { buildTimeZoneOptions, formatUtcOffset, offsetMinutesOf, timeZoneOption } from "./time-zones.ts";

const WINTER = new Date("2026-01-15T12:00:00Z");
const SUMMER = new Date("2026-07-15T12:00:00Z");

describe("time zone options", () => {
  it("labels a zone with its UTC offset at the given date", () => {
    expect(timeZoneOption("Europe/Tallinn", WINTER).label).toBe("(UTC+02:00) Europe/Tallinn");
    expect(timeZoneOption("Europe/Tallinn", SUMMER).label).toBe("(UTC+03:00) Europe/Tallinn");
    expect(timeZoneOption("Asia/Kolkata", WINTER).label).toBe("(UTC+05:30) Asia/Kolkata");
    expect(timeZoneOption("America/St_Johns", WINTER).label).toBe("(UTC-03:30) America/St_Johns");
    expect(timeZoneOption("UTC", WINTER).label).toBe("(UTC+00:00) UTC");
  });

  it("reads offsets east and west of UTC", () => {
    expect(offsetMinutesOf("Pacific/Kiritimati", WINTER)).toBe(14 * 60);
    expect(offsetMinutesOf("Pacific/Pago_Pago", WINTER)).toBe(-11 * 60);
    expect(formatUtcOffset(-90)).toBe("UTC-01:30");
  });

  it("sorts by offset, then by name", () => {
    const options = buildTimeZoneOptions(
      ["Europe/Tallinn", "UTC", "America/New_York", "Europe/Helsinki"],
      WINTER,
    );
    expect(options.map((option) => option.value)).toEqual([
      "America/New_York",
      "UTC",
      "Europe/Helsinki",
      "Europe/Tallinn",
    ]);
  });

  it("lists every zone the runtime supports, sorted, UTC included", () => {
    const options = buildTimeZoneOptions(undefined, WINTER);
    expect(options.length).toBeGreaterThan(300);
    expect(options.some((option) => option.value === "UTC")).toBe(true);
    for (let index = 1; index < options.length; index++) {
      expect(options[index]!.offsetMinutes).toBeGreaterThanOrEqual(options[index - 1]!.offsetMinutes);
    }
  });
});
