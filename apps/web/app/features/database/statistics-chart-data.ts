import type { MonthlyCount, MonthlySeverity } from "@pressguard/domain";
import { formatCount } from "../../lib/numbers.ts";

/** The bands of the charts, most severe first, with colours that follow the severity badges. */
export const CHART_SEVERITIES: readonly { key: MonthlySeverity; label: string; color: string }[] = [
  { key: "critical", label: "Critical", color: "#b91c1c" },
  { key: "high", label: "High", color: "#ea580c" },
  { key: "medium", label: "Medium", color: "#f59e0b" },
  { key: "low", label: "Low", color: "#0284c7" },
  { key: "none", label: "None", color: "#94a3b8" },
  { key: "unknown", label: "Unknown", color: "#cbd5e1" },
];

/** The trend chart shows at most this many months (five years); the table lists every month. */
export const MAX_CHART_MONTHS = 60;

// Fixed English names: `Intl` output may differ between the server and a browser.
const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

/** `2024-12` → "December 2024" (`short`: "Dec 2024"). */
export function monthLabel(month: string, short = false): string {
  const [year, index] = month.split("-");
  const name = MONTH_NAMES[Number(index) - 1] ?? month;
  return `${short ? name.slice(0, 3) : name} ${year}`;
}

function nextMonth(month: string): string {
  const [year, index] = month.split("-").map(Number) as [number, number];
  return index === 12 ? `${year + 1}-01` : `${year}-${String(index + 1).padStart(2, "0")}`;
}

const EMPTY: Record<MonthlySeverity, number> = {
  critical: 0,
  high: 0,
  medium: 0,
  low: 0,
  none: 0,
  unknown: 0,
};

/**
 * The months the trend chart draws: every month from the first to the last one with a record
 * (the API leaves out empty months, a time axis must not), then the last `maxMonths` of them.
 */
export function monthlySeries(rows: readonly MonthlyCount[], maxMonths = MAX_CHART_MONTHS): MonthlyCount[] {
  if (rows.length === 0) return [];
  const byMonth = new Map(rows.map((row) => [row.month, row]));
  const last = rows[rows.length - 1]!.month;
  const series: MonthlyCount[] = [];
  for (let month = rows[0]!.month; month <= last; month = nextMonth(month)) {
    series.push(byMonth.get(month) ?? { month, count: 0, by_severity: { ...EMPTY } });
  }
  return series.slice(-maxMonths);
}

/** The bands that occur in a series, most severe first. */
export function presentSeverities(series: readonly MonthlyCount[]): MonthlySeverity[] {
  return CHART_SEVERITIES.map((band) => band.key).filter((key) =>
    series.some((row) => row.by_severity[key] > 0),
  );
}

/** Count rows (key = severity band) in band order, most severe first; unknown keys last. */
export function inSeverityOrder<Row extends { key: string }>(rows: readonly Row[]): Row[] {
  const rank = (key: string) => {
    const index = CHART_SEVERITIES.findIndex((band) => band.key === key);
    return index < 0 ? CHART_SEVERITIES.length : index;
  };
  return [...rows].sort((a, b) => rank(a.key) - rank(b.key));
}

/** What the trend chart shows, in one sentence (its accessible name). */
export function trendSummary(series: readonly MonthlyCount[]): string {
  if (series.length === 0) return "Monthly trend chart: no dated vulnerability in this period.";
  const total = series.reduce((sum, row) => sum + row.count, 0);
  const busiest = series.reduce((best, row) => (row.count > best.count ? row : best));
  const range =
    series.length === 1
      ? `in ${monthLabel(series[0]!.month)}`
      : `from ${monthLabel(series[0]!.month)} to ${monthLabel(series[series.length - 1]!.month)}`;
  return `Monthly trend chart, bars split by severity: ${formatCount(total)} dated vulnerabilities ${range}; the busiest month was ${monthLabel(busiest.month)} with ${formatCount(busiest.count)}.`;
}

/** The severity chart's accessible name: each band with its count and share. */
export function severitySummary(rows: readonly { label: string; count: number }[]): string {
  const total = rows.reduce((sum, row) => sum + row.count, 0);
  if (total === 0) return "Severity chart: no vulnerability in this period.";
  return `Severity chart: ${rows
    .map((row) => `${row.label} ${formatCount(row.count)} (${percent(row.count, total)})`)
    .join(", ")}.`;
}

export function percent(count: number, total: number): string {
  if (total === 0) return "0%";
  const share = (count / total) * 100;
  return `${share > 0 && share < 1 ? "<1" : Math.round(share)}%`;
}
