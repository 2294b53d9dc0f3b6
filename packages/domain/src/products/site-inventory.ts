import { CheckRequest } from "../api/public-database.ts";
import { MAX_CHECK_ITEMS } from "../config/public-database-limits.ts";
import { ComponentKind } from "../enums/component-kinds.ts";
import type { SoftwareType } from "../enums/software-types.ts";

/**
 * What a site owner pastes on the "Check your site" page, read into the items of a batch check
 * (`POST /api/v1/check`): the JSON of `wp plugin list --format=json` / `wp theme list --format=json`,
 * or a `composer.lock` that installs WordPress through WPackagist.
 */

export type InventoryKind = SoftwareType;

export interface InventoryItem {
  kind: ComponentKind;
  slug: string;
  version: string;
}

export interface SiteInventory {
  items: InventoryItem[];
  /** Plain sentences for the visitor: what was skipped, merged or could not be read. */
  problems: string[];
}

/** Composer packages that install WordPress core itself. */
const CORE_PACKAGES = new Set([
  "johnpbloch/wordpress-core",
  "roots/wordpress",
  "roots/wordpress-no-content",
  "roots/wordpress-full",
]);

const versionRule = CheckRequest.shape.items.element.shape.version;

/** Whether the check API takes this version (its own rule, not a copy). */
export function isCheckableVersion(version: string): boolean {
  return versionRule.safeParse(version).success;
}

type Entry = { kind: InventoryItem["kind"]; slug: string; version: unknown; label: string };

function wpCliEntries(list: unknown[], kind: InventoryKind, problems: string[]): Entry[] {
  const entries: Entry[] = [];
  list.forEach((row, index) => {
    const name = row && typeof row === "object" ? (row as Record<string, unknown>).name : undefined;
    if (typeof name !== "string" || name.trim() === "") {
      problems.push(`Entry ${index + 1} has no name: skipped.`);
      return;
    }
    const record = row as Record<string, unknown>;
    if (record.status === "dropin") {
      problems.push(`${name} is a drop-in, not a directory ${kind}: skipped.`);
      return;
    }
    entries.push({ kind, slug: name.trim(), version: record.version, label: name.trim() });
  });
  return entries;
}

function composerEntries(lock: Record<string, unknown>, problems: string[]): Entry[] {
  const packages = [
    ...(Array.isArray(lock.packages) ? lock.packages : []),
    ...(Array.isArray(lock["packages-dev"]) ? lock["packages-dev"] : []),
  ];
  const entries: Entry[] = [];
  let ignored = 0;
  for (const pkg of packages) {
    const name = pkg && typeof pkg === "object" ? (pkg as Record<string, unknown>).name : undefined;
    const rawVersion = (pkg as Record<string, unknown> | null)?.version;
    const version = typeof rawVersion === "string" ? rawVersion.trim().replace(/^v(?=\d)/i, "") : rawVersion;
    if (typeof name !== "string") {
      ignored += 1;
      continue;
    }
    const [vendor, slug] = name.toLowerCase().split("/", 2);
    if (CORE_PACKAGES.has(name.toLowerCase())) {
      entries.push({ kind: "core", slug: "wordpress", version, label: name });
    } else if (vendor === "wpackagist-plugin" && slug) {
      entries.push({ kind: "plugin", slug, version, label: name });
    } else if (vendor === "wpackagist-theme" && slug) {
      entries.push({ kind: "theme", slug, version, label: name });
    } else ignored += 1;
  }
  if (ignored > 0)
    problems.push(
      `${ignored} other Composer ${ignored === 1 ? "package was" : "packages were"} ignored (not WordPress plugins, themes or core).`,
    );
  if (packages.length > 0 && entries.length === 0)
    problems.push("This composer.lock has no WPackagist plugin or theme and no WordPress core package.");
  return entries;
}

/**
 * Reads the pasted text; `kind` says whether a `wp … list` JSON lists plugins or themes. More than
 * `limit` products are cut to it, and said so (the batch check's limit by default).
 */
export function parseSiteInventory(
  text: string,
  kind: InventoryKind,
  limit: number = MAX_CHECK_ITEMS,
): SiteInventory {
  const problems: string[] = [];
  const trimmed = text.trim();
  if (trimmed === "") return { items: [], problems };
  let json: unknown;
  try {
    json = JSON.parse(trimmed);
  } catch {
    return {
      items: [],
      problems: [`This is not JSON: paste the output of \`wp ${kind} list --format=json\`.`],
    };
  }
  let entries: Entry[];
  if (Array.isArray(json)) entries = wpCliEntries(json, kind, problems);
  else if (json && typeof json === "object" && ("packages" in json || "packages-dev" in json))
    entries = composerEntries(json as Record<string, unknown>, problems);
  else
    return {
      items: [],
      problems: [
        `This JSON is neither a list from \`wp ${kind} list --format=json\` nor a composer.lock: paste one of them.`,
      ],
    };

  const items: InventoryItem[] = [];
  const seen = new Map<string, InventoryItem>();
  let merged = 0;
  for (const entry of entries) {
    const version = typeof entry.version === "string" ? entry.version.trim() : "";
    if (version === "") {
      problems.push(`${entry.label} has no version: skipped.`);
      continue;
    }
    if (!isCheckableVersion(version)) {
      problems.push(`${entry.label} has the version "${version}", which is not a version number: skipped.`);
      continue;
    }
    const key = `${entry.kind}:${entry.slug.toLowerCase()}`;
    const previous = seen.get(key);
    if (previous) {
      merged += 1;
      if (previous.version !== version)
        problems.push(
          `${entry.slug} is listed twice, with ${previous.version} and ${version}: checked with ${previous.version}.`,
        );
      continue;
    }
    const item = { kind: entry.kind, slug: entry.slug, version };
    seen.set(key, item);
    items.push(item);
  }
  if (merged > 0) problems.push(`${merged} duplicate ${merged === 1 ? "entry was" : "entries were"} merged.`);
  if (items.length > limit) {
    problems.push(
      `This lists ${items.length} products; only the first ${limit} are checked. Check the rest separately.`,
    );
    items.length = limit;
  }
  return { items, problems };
}

/**
 * Adds WordPress core at `version` (the page's optional field), unless the inventory already has it.
 * Returns the field's error, if any.
 */
export function addCoreVersion(inventory: SiteInventory, version: string): string | null {
  const trimmed = version.trim();
  if (trimmed === "") return null;
  if (!isCheckableVersion(trimmed)) return "Enter a version number such as 6.4.2.";
  const existing = inventory.items.find((item) => item.kind === "core");
  if (existing) {
    existing.version = trimmed;
    return null;
  }
  if (inventory.items.length >= MAX_CHECK_ITEMS) inventory.items.length = MAX_CHECK_ITEMS - 1;
  inventory.items.unshift({ kind: "core", slug: "wordpress", version: trimmed });
  return null;
}

/** The shapes `PUT /api/watchlists/{id}/inventory` reads, as it detected them. */
export type InventoryFormat = "wp-cli" | "composer" | "plain";

export type InventoryDocument =
  | {
      ok: true;
      format: InventoryFormat;
      /** The kinds of entry the document stands for: the watchlist's entries of these are replaced. */
      kinds: InventoryItem["kind"][];
      items: InventoryItem[];
      problems: string[];
    }
  | { ok: false; message: string };

const KIND_NEEDED =
  "Say what the list holds: add ?kind=plugin or ?kind=theme to the address (a composer.lock says it itself).";

/** A plain list: `slug version` a line (also `slug,version` or `slug@version`); `#` starts a comment. */
function plainEntries(text: string, kind: InventoryKind, problems: string[]): Entry[] {
  const entries: Entry[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.replace(/#.*$/, "").trim();
    if (line === "") return;
    const match = /^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\s+|\s*[,;@]\s*)(\S+)$/.exec(line);
    if (!match) {
      problems.push(`Line ${index + 1} is not "slug version": skipped.`);
      return;
    }
    entries.push({ kind, slug: match[1]!, version: match[2], label: match[1]! });
  });
  return entries;
}

/**
 * Reads a raw inventory as a script sends it: the JSON of `wp plugin list --format=json` or
 * `wp theme list --format=json` (whose kind the caller names, the two look alike), a `composer.lock`
 * (its packages say their kinds), or a plain `slug version` list (the caller names its kind).
 * Items are read, checked and merged as on the page (`parseSiteInventory`).
 */
export function readInventoryDocument(text: string, kind: InventoryKind | undefined): InventoryDocument {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: false, message: "The body is empty: send the inventory itself." };
  let json: unknown;
  let isJson = true;
  try {
    json = JSON.parse(trimmed);
  } catch {
    isJson = false;
  }
  const isComposer =
    isJson && json !== null && typeof json === "object" && ("packages" in json || "packages-dev" in json);
  if (isJson && !Array.isArray(json) && !isComposer)
    return {
      ok: false,
      message:
        "This JSON is neither a list from `wp plugin list --format=json` (or the theme list) nor a composer.lock.",
    };
  if (!isComposer && !kind) return { ok: false, message: KIND_NEEDED };
  if (isComposer) {
    const read = parseSiteInventory(trimmed, kind ?? "plugin");
    if (read.items.length === 0)
      return { ok: false, message: read.problems[0] ?? "This list names no product." };
    return { ok: true, format: "composer", kinds: [...ComponentKind.options], ...read };
  }
  if (isJson) {
    const read = parseSiteInventory(trimmed, kind!, Number.POSITIVE_INFINITY);
    if (read.items.length === 0 && (json as unknown[]).length > 0)
      return { ok: false, message: read.problems[0] ?? "This list names no product." };
    return { ok: true, format: "wp-cli", kinds: [kind!], ...read };
  }
  // Not JSON: a plain list, read line by line into the same JSON the page's parser reads.
  const problems: string[] = [];
  const lines = plainEntries(trimmed, kind!, problems);
  if (lines.length === 0)
    return {
      ok: false,
      message:
        problems.length > 0
          ? "This is neither JSON nor a plain list of `slug version` lines."
          : "This list names no product.",
    };
  const read = parseSiteInventory(
    JSON.stringify(lines.map((entry) => ({ name: entry.slug, version: entry.version }))),
    kind!,
    Number.POSITIVE_INFINITY,
  );
  return {
    ok: true,
    format: "plain",
    kinds: [kind!],
    items: read.items,
    problems: [...problems, ...read.problems],
  };
}
