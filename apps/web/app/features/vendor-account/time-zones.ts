/**
 * Spec §3: "Time zones generated from the browser, with UTC offsets". Each IANA zone the runtime
 * knows, labelled "(UTC+02:00) Europe/Tallinn", sorted by offset then name. The offset is the one
 * in force at `at` (summer time moves it).
 */
export interface TimeZoneOption {
  value: string;
  label: string;
  offsetMinutes: number;
}

/** Minutes east of UTC of `timeZone` at `at` ("GMT+5:30" → 330). */
export function offsetMinutesOf(timeZone: string, at: Date): number {
  const part = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" })
    .formatToParts(at)
    .find((entry) => entry.type === "timeZoneName")?.value;
  const match = part?.match(/GMT([+-])(\d{1,2})(?::(\d{2}))?/);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === "-" ? -minutes : minutes;
}

/** `330` → "UTC+05:30", `-180` → "UTC-03:00". */
export function formatUtcOffset(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? "-" : "+";
  const absolute = Math.abs(offsetMinutes);
  const hours = String(Math.floor(absolute / 60)).padStart(2, "0");
  const minutes = String(absolute % 60).padStart(2, "0");
  return `UTC${sign}${hours}:${minutes}`;
}

export function timeZoneOption(timeZone: string, at: Date): TimeZoneOption {
  const offsetMinutes = offsetMinutesOf(timeZone, at);
  return { value: timeZone, label: `(${formatUtcOffset(offsetMinutes)}) ${timeZone}`, offsetMinutes };
}

/** The zones the runtime supports; "UTC" is always among them. */
function supportedTimeZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return zones.includes("UTC") ? [...zones] : ["UTC", ...zones];
}

export function buildTimeZoneOptions(
  zones: readonly string[] = supportedTimeZones(),
  at: Date = new Date(),
): TimeZoneOption[] {
  return zones
    .map((zone) => timeZoneOption(zone, at))
    .sort((a, b) => a.offsetMinutes - b.offsetMinutes || a.value.localeCompare(b.value));
}

/**
 * During server rendering (and before hydration) the list holds only the current value, so the
 * markup matches in both places; the full list replaces it in the browser.
 */
export function fallbackTimeZoneOptions(current: string): TimeZoneOption[] {
  return current ? [{ value: current, label: current, offsetMinutes: 0 }] : [];
}

/** The browser's own zone, offered as the default of a new account. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}
