import type { InventoryKind, WatchlistEntry, WatchlistEntryInput } from "@pressguard/domain";

/** The inventory fields as a form holds them, each named as its element's id ends (`…-inventory`). */
export type InventoryValues = {
  inventory: string;
  kind: InventoryKind;
  wordpress: string;
};

export const EMPTY_INVENTORY: InventoryValues = { inventory: "", kind: "plugin", wordpress: "" };

/** The form field of a 422's field about the entries read from an inventory: the list itself. */
export const inventoryFieldOf = (field: string) =>
  field === "entries" || field.startsWith("entries.") ? "inventory" : field;

/** The entries to send back with one entry's version changed (the API replaces them all). */
export function withVersion(
  entries: readonly Pick<WatchlistEntry, "kind" | "slug" | "version">[],
  target: Pick<WatchlistEntry, "kind" | "slug">,
  version: string,
): WatchlistEntryInput[] {
  return entries.map((entry) => ({
    kind: entry.kind as WatchlistEntryInput["kind"],
    slug: entry.slug,
    version: entry.kind === target.kind && entry.slug === target.slug ? version.trim() : entry.version,
  }));
}

/** An entry exposed to a record in CISA's KEV catalog (issue 34). */
const knownExploited = (entry: { vulnerabilities: readonly { known_exploited?: unknown }[] }) =>
  entry.vulnerabilities.some((vulnerability) => Boolean(vulnerability.known_exploited));

/**
 * Entries exposed to a known-exploited record first (issue 34), then the other exposed entries, then
 * the rest, each group in its list order.
 */
export function orderEntries<T extends { vulnerabilities: readonly { known_exploited?: unknown }[] }>(
  entries: readonly T[],
): T[] {
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort(
      (a, b) =>
        Number(knownExploited(b.entry)) - Number(knownExploited(a.entry)) ||
        Number(b.entry.vulnerabilities.length > 0) - Number(a.entry.vulnerabilities.length > 0) ||
        a.index - b.index,
    )
    .map(({ entry }) => entry);
}

/** What a watchlist's counts say: "3 of 24 entries exposed (5 known vulnerabilities)". */
export function exposureLine(summary: { entries: number; exposed_entries: number; vulnerabilities: number }) {
  if (summary.entries === 0) return "No entries yet";
  const noun = summary.entries === 1 ? "entry" : "entries";
  if (summary.exposed_entries === 0) return `${summary.entries} ${noun}, none exposed`;
  const vulnerabilities =
    summary.vulnerabilities === 1
      ? "1 known vulnerability"
      : `${summary.vulnerabilities} known vulnerabilities`;
  return `${summary.exposed_entries} of ${summary.entries} ${noun} exposed (${vulnerabilities})`;
}

export const ALERT_MODE_LABELS = {
  immediate: "E-mail at once",
  daily: "Daily digest",
  off: "Off",
} as const;
