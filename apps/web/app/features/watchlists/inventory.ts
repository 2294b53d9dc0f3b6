import {
  addCoreVersion,
  type InventoryKind,
  parseSiteInventory,
  type WatchlistEntry,
  WatchlistEntryInput,
} from "@pressguard/domain";

/** What a site owner gives: the pasted or uploaded list, what it lists, and WordPress's version. */
export interface InventoryInput {
  text: string;
  kind: InventoryKind;
  wordpress: string;
}

export type InventoryReading =
  | { ok: true; entries: WatchlistEntryInput[]; problems: string[] }
  | { ok: false; errors: { inventory?: string[]; wordpress?: string[] } };

/**
 * Reads an inventory (`wp plugin list --format=json`, the theme list, or a composer.lock) with the
 * domain's parser, adding WordPress core when its version is given. What could not be read at all
 * belongs at the field; what was skipped or merged is said beside the result (`problems`).
 */
export function readInventory({ text, kind, wordpress }: InventoryInput): InventoryReading {
  const inventory = parseSiteInventory(text, kind);
  const wordpressError = addCoreVersion(inventory, wordpress);
  const errors: { inventory?: string[]; wordpress?: string[] } = {};
  if (wordpressError) errors.wordpress = [wordpressError];
  if (text.trim() === "" && wordpress.trim() === "")
    errors.inventory = [`Paste the output of \`wp ${kind} list --format=json\` or a composer.lock.`];
  else if (inventory.items.length === 0 && text.trim() !== "")
    errors.inventory = inventory.problems.length > 0 ? inventory.problems : ["This list names no product."];
  if (errors.inventory || errors.wordpress) return { ok: false, errors };
  return { ok: true, entries: inventory.items, problems: inventory.problems };
}

/** The inventory fields as a form holds them, each named as its element's id ends (`…-inventory`). */
export type InventoryValues = {
  inventory: string;
  kind: InventoryKind;
  wordpress: string;
};

export const EMPTY_INVENTORY: InventoryValues = { inventory: "", kind: "plugin", wordpress: "" };

export const readInventoryValues = ({ inventory, kind, wordpress }: InventoryValues) =>
  readInventory({ text: inventory, kind, wordpress });

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

/** Products picked one by one, checked with the API's own entry rule; a message per row that fails. */
export function readPickedProducts(
  rows: readonly WatchlistEntryInput[],
): { ok: true; entries: WatchlistEntryInput[] } | { ok: false; errors: Record<number, string> } {
  const errors: Record<number, string> = {};
  const entries: WatchlistEntryInput[] = [];
  rows.forEach((row, index) => {
    if (row.kind !== "core" && row.slug.trim() === "")
      errors[index] = "Enter the product's slug, such as contact-form-7.";
    else if (row.version.trim() === "") errors[index] = "Enter the installed version, such as 5.8.1.";
    else {
      const checked = WatchlistEntryInput.safeParse({ kind: row.kind, slug: row.slug, version: row.version });
      if (checked.success) entries.push(checked.data);
      else errors[index] = checked.error.issues[0]?.message ?? "Check this product.";
    }
  });
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, entries };
}
