import {
  type CheckedVulnerability,
  type ComponentKind,
  type InventoryKind,
  isUuid,
  MAX_WATCHLIST_ENTRIES,
  MAX_WATCHLISTS,
  readInventoryDocument,
  versionToUpdateTo,
  WATCHLIST_MESSAGES,
  type WatchlistCreation,
  type WatchlistDetail,
  type WatchlistEntry,
  type WatchlistEntryInput,
  type WatchlistExposureReport,
  type WatchlistInventoryResult,
  type WatchlistList,
  type WatchlistSummary,
  type WatchlistUpdate,
} from "@pressguard/domain";
import type { Database } from "../../db/client.ts";
import { isoOf } from "../../db/timestamps.ts";
import { AppError } from "../../errors.ts";
import { productSlugKey } from "../check/product-slug.ts";
import type { CheckEntry, CheckMatch, CheckService } from "../check/service.ts";
import { pagePaths } from "../public-records/presenters.ts";
import { createWatchlistQueries, type WatchlistEntryRow, type WatchlistRow } from "./queries.ts";

interface WatchlistServiceOptions {
  database: Database;
  /** The batch check: its per-data-version range cache answers every watchlist's exposures. */
  check: Pick<CheckService, "matchItems">;
  appUrl: string;
  /** The public database's platform (one today: `wordpress`). */
  platform?: string;
}

/**
 * Entries as stored: slugs by `productSlugKey` (the one rule every matcher uses), an entry named twice
 * kept once with its last version, in the order given.
 */
function normalisedEntries(entries: readonly WatchlistEntryInput[]): WatchlistEntryInput[] {
  const byProduct = new Map<string, WatchlistEntryInput>();
  for (const entry of entries) {
    const slug = productSlugKey(entry.slug);
    const key = `${entry.kind}\u0000${slug}`;
    byProduct.delete(key);
    byProduct.set(key, { kind: entry.kind, slug, version: entry.version });
  }
  return [...byProduct.values()];
}

/** The items whose test holds first, each part in its own order (a stable partition). */
function knownExploitedFirst<T>(items: readonly T[], isKnownExploited: (item: T) => boolean): T[] {
  return [...items.filter(isKnownExploited), ...items.filter((item) => !isKnownExploited(item))];
}

/** Watchlists of a signed-in user, with what affects each installed version (issue 20, decision 031). */
export function createWatchlistService({
  database,
  check,
  appUrl,
  platform = "wordpress",
}: WatchlistServiceOptions) {
  const queries = createWatchlistQueries(database.sql);

  async function ownedOrNotFound(userId: number, id: string): Promise<WatchlistRow> {
    const row = isUuid(id) ? await queries.find(userId, id.toLowerCase()) : null;
    if (!row) throw new AppError("not_found", { message: WATCHLIST_MESSAGES.notFound });
    return row;
  }

  /** Each entry compared with its product's records (the batch check's rule and cache). */
  const matchesOf = (entries: readonly WatchlistEntryRow[]) =>
    check.matchItems(
      entries.map((entry) => ({
        kind: entry.kind as ComponentKind,
        slug: entry.slug,
        version: entry.version,
      })),
    );

  /**
   * Each entry with the known vulnerabilities of its installed version, and the version to update to:
   * the highest fix, where a record without one that the product's current version is above counts as
   * fixed in the current version (issue 17's inference).
   */
  async function itemsOf(
    entries: readonly WatchlistEntryRow[],
    /**
     * Answers decoded so far, shared by the watchlists of one answer. By the check's entry, not the
     * record's id: a record naming several products has a range and a fix for each (issue 38).
     */
    decoded = new Map<CheckEntry, CheckedVulnerability>(),
  ): Promise<WatchlistEntry[]> {
    const matches = await matchesOf(entries);
    const decode = (record: CheckEntry) => {
      let answer = decoded.get(record);
      if (!answer) {
        answer = JSON.parse(record.json!.toString("utf8")) as CheckedVulnerability;
        decoded.set(record, answer);
      }
      return answer;
    };
    return entries.map((entry, index) => {
      const { known } = matches[index]!;
      // Issue 34: the records in CISA's KEV catalog first, then the check's order (newest first).
      const affecting = knownExploitedFirst(matches[index]!.affecting, (record) => record.knownExploited);
      const fixes = affecting.map((record) => ({
        // The listed fix, or the one the check infers from the current version (issue 17).
        fixed_in: record.fixedIn,
      }));
      return {
        kind: entry.kind,
        slug: entry.slug,
        version: entry.version,
        known,
        product_url: known
          ? appUrl + pagePaths.product({ platform, kind: entry.kind, slug: entry.slug })
          : null,
        vulnerabilities: affecting.map(decode),
        update_to: versionToUpdateTo(fixes),
        unfixed: fixes.filter((fix) => fix.fixed_in === null).length,
      };
    });
  }

  /** A watchlist's counts without its items: no record is decoded. */
  function summaryOf(
    row: WatchlistRow,
    entries: readonly WatchlistEntryRow[],
    matches: CheckMatch[],
  ): WatchlistSummary {
    const exposed = matches.filter((match) => match.affecting.length > 0);
    return {
      ...rowFieldsOf(row),
      entries: entries.length,
      exposed_entries: exposed.length,
      vulnerabilities: exposed.reduce((sum, match) => sum + match.affecting.length, 0),
    };
  }

  const rowFieldsOf = (row: WatchlistRow) => ({
    id: row.id,
    name: row.name,
    alert_mode: row.alert_mode,
    created_at: isoOf(row.created_at),
    updated_at: isoOf(row.updated_at),
  });

  function detailOf(row: WatchlistRow, items: WatchlistEntry[]): WatchlistDetail {
    const exposed = items.filter((item) => item.vulnerabilities.length > 0);
    return {
      ...rowFieldsOf(row),
      entries: items.length,
      exposed_entries: exposed.length,
      vulnerabilities: exposed.reduce((sum, item) => sum + item.vulnerabilities.length, 0),
      items,
    };
  }

  /**
   * The user's watchlists with their entries and each entry's match: one query for the watchlists,
   * one for every entry, and one comparison of all entries together (one read of the products' ranges
   * the cache lacks; a watchlist at a time would read them once per watchlist while the cache is cold).
   */
  async function watchlistsWithMatches(userId: number) {
    const rows = await queries.list(userId);
    const entries = await queries.entriesOf(rows.map((row) => row.id));
    const matches = await matchesOf(entries);
    const byWatchlist = new Map<string, { entries: WatchlistEntryRow[]; matches: CheckMatch[] }>();
    entries.forEach((entry, index) => {
      const group = byWatchlist.get(entry.watchlist_id) ?? { entries: [], matches: [] };
      group.entries.push(entry);
      group.matches.push(matches[index]!);
      byWatchlist.set(entry.watchlist_id, group);
    });
    return rows.map((row) => ({ row, ...(byWatchlist.get(row.id) ?? { entries: [], matches: [] }) }));
  }

  return {
    async list(userId: number): Promise<WatchlistList> {
      const watched = await watchlistsWithMatches(userId);
      return { data: watched.map(({ row, entries, matches }) => summaryOf(row, entries, matches)) };
    },

    async create(userId: number, body: WatchlistCreation): Promise<WatchlistDetail> {
      const entries = normalisedEntries(body.entries);
      const row = await database.sql.transaction(async (tx) => {
        // Serialises one user's creations, so two at once cannot pass the limit together.
        await queries.lockOwner(userId, tx);
        if ((await queries.count(userId, tx)) >= MAX_WATCHLISTS)
          throw new AppError("conflict", { message: WATCHLIST_MESSAGES.tooManyWatchlists });
        const created = await queries.insert(userId, body.name, tx);
        await queries.replaceEntries(created.id, entries, tx);
        return created;
      });
      return detailOf(row, await itemsOf(entries.map((entry) => ({ ...entry, watchlist_id: row.id }))));
    },

    async get(userId: number, id: string): Promise<WatchlistDetail> {
      const row = await ownedOrNotFound(userId, id);
      return detailOf(row, await itemsOf(await queries.entriesOf([row.id])));
    },

    async update(userId: number, id: string, update: WatchlistUpdate): Promise<WatchlistDetail> {
      await ownedOrNotFound(userId, id);
      const row = await queries.update(userId, id.toLowerCase(), update);
      if (!row) throw new AppError("not_found", { message: WATCHLIST_MESSAGES.notFound });
      return detailOf(row, await itemsOf(await queries.entriesOf([row.id])));
    },

    async replaceEntries(
      userId: number,
      id: string,
      entries: readonly WatchlistEntryInput[],
    ): Promise<WatchlistDetail> {
      const owned = await ownedOrNotFound(userId, id);
      const normalised = normalisedEntries(entries);
      const row = await database.sql.transaction(async (tx) => {
        const locked = await queries.find(userId, owned.id, tx, true);
        if (!locked) throw new AppError("not_found", { message: WATCHLIST_MESSAGES.notFound });
        await queries.replaceEntries(locked.id, normalised, tx);
        return queries.find(userId, owned.id, tx);
      });
      if (!row) throw new AppError("not_found", { message: WATCHLIST_MESSAGES.notFound });
      return detailOf(row, await itemsOf(normalised.map((entry) => ({ ...entry, watchlist_id: row.id }))));
    },

    /**
     * A raw inventory (`PUT /watchlists/{id}/inventory`): the entries of the kinds it stands for are
     * replaced by what it lists, the others kept. Nothing changes when it cannot be read or would
     * make the watchlist too long.
     */
    async replaceInventory(
      userId: number,
      id: string,
      body: string,
      kind: InventoryKind | undefined,
    ): Promise<WatchlistInventoryResult> {
      const document = readInventoryDocument(body, kind);
      if (!document.ok)
        throw new AppError("validation", {
          message: document.message,
          fieldErrors: { inventory: [document.message] },
        });
      const owned = await ownedOrNotFound(userId, id);
      const replaced = new Set<string>(document.kinds);
      const { row, entries } = await database.sql.transaction(async (tx) => {
        const locked = await queries.find(userId, owned.id, tx, true);
        if (!locked) throw new AppError("not_found", { message: WATCHLIST_MESSAGES.notFound });
        const kept = (await queries.entriesOf([locked.id], tx))
          .filter((entry) => !replaced.has(entry.kind))
          .map(({ kind, slug, version }) => ({ kind, slug, version }) as WatchlistEntryInput);
        const next = normalisedEntries([...kept, ...document.items]);
        if (next.length > MAX_WATCHLIST_ENTRIES)
          throw new AppError("validation", {
            message: WATCHLIST_MESSAGES.tooManyEntries,
            fieldErrors: { inventory: [WATCHLIST_MESSAGES.tooManyEntries] },
          });
        await queries.replaceEntries(locked.id, next, tx);
        return { row: await queries.find(userId, owned.id, tx), entries: next };
      });
      if (!row) throw new AppError("not_found", { message: WATCHLIST_MESSAGES.notFound });
      const watchlist = detailOf(
        row,
        await itemsOf(entries.map((entry) => ({ ...entry, watchlist_id: row.id }))),
      );
      const read = normalisedEntries(document.items);
      const known = new Set(
        watchlist.items.filter((item) => item.known).map((item) => `${item.kind}\u0000${item.slug}`),
      );
      const unknown = read.filter((entry) => !known.has(`${entry.kind}\u0000${entry.slug}`));
      return {
        watchlist,
        inventory: {
          format: document.format,
          replaced: document.kinds,
          read: read.length,
          matched: read.length - unknown.length,
          unknown,
          problems: document.problems,
        },
      };
    },

    async remove(userId: number, id: string): Promise<void> {
      if (!isUuid(id) || !(await queries.remove(userId, id.toLowerCase())))
        throw new AppError("not_found", { message: WATCHLIST_MESSAGES.notFound });
    },

    /** Every watchlist with only its exposed entries: what a script of an agency or host reads. */
    async exposures(userId: number, now: Date = new Date()): Promise<WatchlistExposureReport> {
      const watched = await watchlistsWithMatches(userId);
      const decoded = new Map<CheckEntry, CheckedVulnerability>();
      const vulnerabilities: WatchlistExposureReport["vulnerabilities"] = {};
      const watchlists: WatchlistExposureReport["watchlists"] = [];
      for (const { row, entries, matches } of watched) {
        // Only the exposed entries are answered; each record is decoded once for the whole report.
        const exposed = entries.filter((_entry, index) => matches[index]!.affecting.length > 0);
        const items = (await itemsOf(exposed, decoded)).map(({ vulnerabilities: found, ...item }) => {
          const matches = found.map(({ affected_versions, fixed_in, fixed_in_inferred, ...record }) => {
            vulnerabilities[record.id] ??= record;
            return { id: record.id, affected_versions, fixed_in, fixed_in_inferred };
          });
          return {
            item: { ...item, vulnerability_ids: matches.map((match) => match.id), matches },
            knownExploited: found.some((vulnerability) => vulnerability.known_exploited !== null),
          };
        });
        // Issue 34: the entries exposed to a known-exploited record first, then in the watchlist's order.
        watchlists.push({
          ...summaryOf(row, entries, matches),
          items: knownExploitedFirst(items, (exposure) => exposure.knownExploited).map(({ item }) => item),
        });
      }
      return { generated_at: now.toISOString(), watchlists, vulnerabilities };
    },
  };
}

export type WatchlistService = ReturnType<typeof createWatchlistService>;
