import { CheckRequest } from "../api/public-database.ts";
import { MAX_CHECK_ITEMS } from "../config/public-database-limits.ts";

/**
 * What a site owner pastes on the "Check your site" page, read into the items of a batch check
 * (`POST /api/v1/check`): the JSON of `wp plugin list --format=json` / `wp theme list --format=json`,
 * or a `composer.lock` that installs WordPress through WPackagist.
 */

export type InventoryKind = "plugin" | "theme";

export interface InventoryItem {
  kind: "plugin" | "theme" | "core";
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

/** Reads the pasted text; `kind` says whether a `wp … list` JSON lists plugins or themes. */
export function parseSiteInventory(text: string, kind: InventoryKind): SiteInventory {
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
  if (items.length > MAX_CHECK_ITEMS) {
    problems.push(
      `This lists ${items.length} products; only the first ${MAX_CHECK_ITEMS} are checked. Check the rest separately.`,
    );
    items.length = MAX_CHECK_ITEMS;
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
