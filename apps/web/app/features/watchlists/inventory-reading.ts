import {
  addCoreVersion,
  type InventoryKind,
  parseSiteInventory,
  WatchlistEntryInput,
} from "@pressguard/domain";
import type { InventoryValues } from "./inventory.ts";

/*
 * Reading a site's inventory and the picked products, with the domain's parser and the API's own
 * entry rule: fetched when a watchlist form is sent (create-form.tsx), not with the page, as the rule
 * brings zod (issue 35).
 */

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

export const readInventoryValues = ({ inventory, kind, wordpress }: InventoryValues) =>
  readInventory({ text: inventory, kind, wordpress });

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
