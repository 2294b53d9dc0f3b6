import type { RangeBounds } from "./affected-range.ts";
import { compareVersions } from "./compare-versions.ts";

interface Bound {
  version: string;
  inclusive: boolean;
}

/** A range as an interval of versions; a missing bound is unbounded. */
interface Interval {
  lower: Bound | null;
  upper: Bound | null;
}

/** A reported "<=" X, "<" X or exactly X ("" prefix) as an interval. */
function displayInterval(prefix: string, version: string): Interval {
  if (prefix === "<=") return { lower: null, upper: { version, inclusive: true } };
  if (prefix === "<") return { lower: null, upper: { version, inclusive: false } };
  return { lower: { version, inclusive: true }, upper: { version, inclusive: true } };
}

/** A stored range: its explicit bounds win over the display form, as in isVersionAffected. */
function rangeInterval(range: RangeBounds): Interval {
  const upper = range.fixed
    ? { version: range.fixed, inclusive: false }
    : range.last_affected
      ? { version: range.last_affected, inclusive: true }
      : null;
  const lower =
    range.introduced && range.introduced !== "0"
      ? { version: range.introduced, inclusive: range.introduced_inclusive !== false }
      : null;
  if (upper) return { lower, upper };
  const display = displayInterval(range.prefix, range.version);
  return { lower: lower ?? display.lower, upper: display.upper };
}

/** Whether an upper bound lies below a lower bound (nothing between them). */
function below(upper: Bound | null, lower: Bound | null): boolean {
  if (!upper || !lower) return false;
  const order = compareVersions(upper.version, lower.version);
  return order < 0 || (order === 0 && !(upper.inclusive && lower.inclusive));
}

/**
 * Whether a reported affected version ("<=" 5.8.1, "<" 2.0, exactly 1.4) shares a version with a
 * stored range (introduced / fixed / last_affected, else its display form): duplicate candidates.
 */
export function reportedVersionOverlaps(
  reported: { prefix: string; version: string },
  range: RangeBounds,
): boolean {
  const a = displayInterval(reported.prefix, reported.version);
  const b = rangeInterval(range);
  return !below(a.upper, b.lower) && !below(b.upper, a.lower);
}
