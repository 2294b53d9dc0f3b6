import { ComponentKind } from "@pressguard/domain";
import { throwNotFound } from "./errors.ts";

/**
 * Path parameters of the public database pages (PRODUCT §6). A value outside these sets is an
 * unknown page: 404. Query strings stay lenient; path segments name pages.
 */
const PLATFORMS = ["wordpress"] as const;
const LEADERBOARD_TYPES = ["monthly", "yearly", "all-time"] as const;
const DEFAULT_LEADERBOARD_TYPE = "monthly";
const DEFAULT_STATISTICS_TIMEFRAME = "all-time";

export type Platform = (typeof PLATFORMS)[number];
export type LeaderboardType = (typeof LEADERBOARD_TYPES)[number];

export const PLATFORM_LABELS: Record<Platform, string> = { wordpress: "WordPress" };
export const KIND_LABELS: Record<ComponentKind, string> = { plugin: "plugin", theme: "theme", core: "core" };

function oneOf<T extends string>(values: readonly T[], value: string | undefined): value is T {
  return value !== undefined && (values as readonly string[]).includes(value);
}

export function requirePlatform(value: string | undefined): Platform {
  if (!oneOf(PLATFORMS, value)) throwNotFound();
  return value;
}

export function requireProductPath(params: { platform?: string; kind?: string }): {
  platform: Platform;
  kind: ComponentKind;
} {
  const platform = requirePlatform(params.platform);
  if (!oneOf(ComponentKind.options, params.kind)) throwNotFound();
  return { platform, kind: params.kind };
}

export function requireLeaderboardType(value: string | undefined): LeaderboardType {
  if (value === undefined) return DEFAULT_LEADERBOARD_TYPE;
  if (!oneOf(LEADERBOARD_TYPES, value)) throwNotFound();
  return value;
}

/** `all-time` (default), `last-30-days`, or a four-digit year. */
export function requireTimeframe(value: string | undefined): string {
  if (value === undefined) return DEFAULT_STATISTICS_TIMEFRAME;
  if (value === "all-time" || value === "last-30-days" || /^(19|20)\d{2}$/.test(value)) return value;
  throwNotFound();
}

export function timeframeLabel(timeframe: string): string {
  if (timeframe === "all-time") return "all time";
  if (timeframe === "last-30-days") return "the last 30 days";
  return timeframe;
}

/** `contact-form-7` → "Contact Form 7": a readable name until the product record is loaded. */
export function productNameFromSlug(slug: string): string {
  return slug
    .split(/[-_]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(" ");
}
