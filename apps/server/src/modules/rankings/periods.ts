/**
 * Leaderboards and statistics over a period (PRODUCT.md §5, §6). A period is a half-open interval of
 * `published_at`; a calendar year also counts the undated records whose CVE id carries that year
 * (most 2025–2026 records have no date, data README §1.7), the same rule as the search's year filter.
 */
export interface Period {
  from: Date | null;
  to: Date | null;
  /** Undated records with a CVE id of this year count too. */
  cveYear: number | null;
}

const LEADERBOARD_TYPES = ["monthly", "yearly", "all-time"] as const;
export type LeaderboardType = (typeof LEADERBOARD_TYPES)[number];

export function leaderboardPeriod(type: LeaderboardType, now: Date): Period {
  const year = now.getUTCFullYear();
  if (type === "monthly") {
    const month = now.getUTCMonth();
    return {
      from: new Date(Date.UTC(year, month, 1)),
      to: new Date(Date.UTC(year, month + 1, 1)),
      cveYear: null,
    };
  }
  if (type === "yearly") return yearPeriod(year);
  return { from: null, to: null, cveYear: null };
}

function yearPeriod(year: number): Period {
  return { from: new Date(Date.UTC(year, 0, 1)), to: new Date(Date.UTC(year + 1, 0, 1)), cveYear: year };
}

/** `all-time`, `last-30-days` or a year; null for anything else. */
export function statisticsPeriod(timeframe: string, now: Date): Period | null {
  if (timeframe === "all-time") return { from: null, to: null, cveYear: null };
  if (timeframe === "last-30-days") {
    return { from: new Date(now.getTime() - 30 * 86_400_000), to: null, cveYear: null };
  }
  if (/^(19|20)\d{2}$/.test(timeframe)) return yearPeriod(Number(timeframe));
  return null;
}
