import {
  CHECK_LATEST_VERSION,
  type CheckRequest,
  type CheckResponse,
  type ComponentKind,
  MAX_WATCHLISTS,
  versionToUpdateTo,
  WATCHLIST_MESSAGES,
  type WatchlistCreation,
  type WatchlistDetail,
  type WatchlistEntry,
  type WatchlistEntryInput,
  type WatchlistExposureReport,
  type WatchlistList,
  type WatchlistUpdate,
} from "@pressguard/domain";
import type { Database } from "../../db/client.ts";
import { isoOf } from "../../db/timestamps.ts";
import { AppError } from "../../errors.ts";
import type { CheckService } from "../check/service.ts";
import { isUuid } from "../reports/report-context.ts";
import { pagePaths } from "../vulnerabilities/presenters.ts";
import { createWatchlistQueries, type WatchlistEntryRow, type WatchlistRow } from "./queries.ts";

interface WatchlistServiceOptions {
  database: Database;
  /** The batch check: its per-data-version range cache answers every watchlist's exposures. */
  check: Pick<CheckService, "checkVersions">;
  appUrl: string;
  /** The public database's platform (one today: `wordpress`). */
  platform?: string;
}

/**
 * Entries as stored: slugs in lower case (the batch check matches them so), an entry named twice
 * kept once with its last version, in the order given.
 */
export function normalisedEntries(entries: readonly WatchlistEntryInput[]): WatchlistEntryInput[] {
  const byProduct = new Map<string, WatchlistEntryInput>();
  for (const entry of entries) {
    const slug = entry.slug.toLowerCase();
    const key = `${entry.kind}\u0000${slug}`;
    byProduct.delete(key);
    byProduct.set(key, { kind: entry.kind, slug, version: entry.version });
  }
  return [...byProduct.values()];
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

  const checked = async (items: CheckRequest["items"]) =>
    JSON.parse((await check.checkVersions({ items })).toString("utf8")) as CheckResponse;

  /**
   * Each entry with the known vulnerabilities of its installed version, and the version to update to:
   * the highest fix, where a record without one that the product's current version escapes counts as
   * fixed in the current version (issue 17's inference). Two batch checks, installed and latest,
   * answered from the check's per-data-version cache.
   */
  async function itemsOf(entries: readonly WatchlistEntryRow[]): Promise<WatchlistEntry[]> {
    if (entries.length === 0) return [];
    const products = entries.map((entry) => ({ kind: entry.kind as ComponentKind, slug: entry.slug }));
    const [installed, latest] = await Promise.all([
      checked(entries.map((entry, index) => ({ ...products[index]!, version: entry.version }))),
      checked(products.map((product) => ({ ...product, version: CHECK_LATEST_VERSION }))),
    ]);
    return installed.results.map((result, index) => {
      const current = latest.results[index];
      const stillAffecting = new Set(current?.vulnerabilities.map((vulnerability) => vulnerability.id));
      const fixes = result.vulnerabilities.map((vulnerability) => ({
        fixed_in:
          vulnerability.fixed_in ??
          (current?.checked_version && !stillAffecting.has(vulnerability.id)
            ? current.checked_version
            : null),
      }));
      return {
        kind: result.kind,
        slug: result.slug,
        version: result.version,
        known: result.known,
        product_url: result.known
          ? appUrl + pagePaths.product({ platform, kind: result.kind, slug: result.slug })
          : null,
        vulnerabilities: result.vulnerabilities,
        update_to: versionToUpdateTo(fixes),
        unfixed: fixes.filter((fix) => fix.fixed_in === null).length,
      };
    });
  }

  function detailOf(row: WatchlistRow, items: WatchlistEntry[]): WatchlistDetail {
    const exposed = items.filter((item) => item.vulnerabilities.length > 0);
    return {
      id: row.id,
      name: row.name,
      alert_mode: row.alert_mode,
      entries: items.length,
      exposed_entries: exposed.length,
      vulnerabilities: exposed.reduce((sum, item) => sum + item.vulnerabilities.length, 0),
      created_at: isoOf(row.created_at),
      updated_at: isoOf(row.updated_at),
      items,
    };
  }

  /** Every watchlist of the user with its items: one query for the entries, one check per watchlist. */
  async function detailsOf(userId: number): Promise<WatchlistDetail[]> {
    const rows = await queries.list(userId);
    const entries = await queries.entriesOf(rows.map((row) => row.id));
    const byWatchlist = new Map<string, WatchlistEntryRow[]>();
    for (const entry of entries) {
      const group = byWatchlist.get(entry.watchlist_id);
      if (group) group.push(entry);
      else byWatchlist.set(entry.watchlist_id, [entry]);
    }
    return Promise.all(rows.map(async (row) => detailOf(row, await itemsOf(byWatchlist.get(row.id) ?? []))));
  }

  return {
    async list(userId: number): Promise<WatchlistList> {
      const details = await detailsOf(userId);
      return { data: details.map(({ items: _items, ...summary }) => summary) };
    },

    async create(userId: number, body: WatchlistCreation): Promise<WatchlistDetail> {
      const entries = normalisedEntries(body.entries);
      const row = await database.sql.transaction(async (tx) => {
        // Serialises one user's creations, so two at once cannot pass the limit together.
        await tx.query("select id from users where id = $1 for update", [userId]);
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

    async remove(userId: number, id: string): Promise<void> {
      if (!isUuid(id) || !(await queries.remove(userId, id.toLowerCase())))
        throw new AppError("not_found", { message: WATCHLIST_MESSAGES.notFound });
    },

    /** Every watchlist with only its exposed entries: what a script of an agency or host reads. */
    async exposures(userId: number, now: Date = new Date()): Promise<WatchlistExposureReport> {
      const details = await detailsOf(userId);
      return {
        generated_at: now.toISOString(),
        watchlists: details.map((detail) => ({
          ...detail,
          items: detail.items.filter((item) => item.vulnerabilities.length > 0),
        })),
      };
    },
  };
}

export type WatchlistService = ReturnType<typeof createWatchlistService>;
