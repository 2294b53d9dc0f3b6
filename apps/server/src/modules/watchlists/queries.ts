import type { WatchAlertMode, WatchlistEntryInput } from "@pressguard/domain";
import type { SqlRunner } from "../../db/client.ts";

export interface WatchlistRow {
  id: string;
  name: string;
  alert_mode: WatchAlertMode;
  created_at: Date | string;
  updated_at: Date | string;
}

export interface WatchlistEntryRow {
  watchlist_id: string;
  kind: string;
  slug: string;
  version: string;
}

const COLUMNS = "id::text, name, alert_mode, created_at, updated_at";

/** The SQL of watchlists (issue 20): every statement names the owner, so nobody reads another's list. */
export function createWatchlistQueries(sql: SqlRunner) {
  return {
    /** Locks the owner's row in `tx`: serialises one user's changes to their watchlists. */
    async lockOwner(userId: number, tx: SqlRunner): Promise<void> {
      await tx.query("select id from users where id = $1 for update", [userId]);
    },

    async count(userId: number, tx: SqlRunner = sql): Promise<number> {
      const { rows } = await tx.query<{ total: number }>(
        "select count(*)::int as total from watchlists where user_id = $1",
        [userId],
      );
      return rows[0]?.total ?? 0;
    },

    async insert(userId: number, name: string, tx: SqlRunner = sql): Promise<WatchlistRow> {
      const { rows } = await tx.query<WatchlistRow>(
        `insert into watchlists (user_id, name) values ($1, $2)
         returning ${COLUMNS}`,
        [userId, name],
      );
      const row = rows[0];
      if (!row) throw new Error("insert returned no watchlist");
      return row;
    },

    async list(userId: number): Promise<WatchlistRow[]> {
      const { rows } = await sql.query<WatchlistRow>(
        `select ${COLUMNS} from watchlists
         where user_id = $1 order by lower(name), created_at, id`,
        [userId],
      );
      return rows;
    },

    /** The watchlist if this user owns it (locked for a change inside `tx`). */
    async find(userId: number, id: string, tx: SqlRunner = sql, lock = false): Promise<WatchlistRow | null> {
      const { rows } = await tx.query<WatchlistRow>(
        `select ${COLUMNS} from watchlists
         where id = $1 and user_id = $2${lock ? " for update" : ""}`,
        [id, userId],
      );
      return rows[0] ?? null;
    },

    async entriesOf(watchlistIds: readonly string[], tx: SqlRunner = sql): Promise<WatchlistEntryRow[]> {
      if (watchlistIds.length === 0) return [];
      const { rows } = await tx.query<WatchlistEntryRow>(
        `select watchlist_id::text, kind, slug, version from watchlist_entries
         where watchlist_id = any($1::uuid[]) order by watchlist_id, position`,
        [watchlistIds],
      );
      return rows;
    },

    async update(
      userId: number,
      id: string,
      update: { name?: string | undefined; alert_mode?: WatchAlertMode | undefined },
    ): Promise<WatchlistRow | null> {
      const { rows } = await sql.query<WatchlistRow>(
        `update watchlists set name = coalesce($3, name), alert_mode = coalesce($4, alert_mode), updated_at = now()
         where id = $1 and user_id = $2
         returning ${COLUMNS}`,
        [id, userId, update.name ?? null, update.alert_mode ?? null],
      );
      return rows[0] ?? null;
    },

    async remove(userId: number, id: string): Promise<boolean> {
      const { rows } = await sql.query<{ id: string }>(
        "delete from watchlists where id = $1 and user_id = $2 returning id::text",
        [id, userId],
      );
      return rows.length > 0;
    },

    /** Replaces every entry of a watchlist (the caller checked its owner in `tx`). */
    async replaceEntries(id: string, entries: readonly WatchlistEntryInput[], tx: SqlRunner): Promise<void> {
      await tx.query("delete from watchlist_entries where watchlist_id = $1", [id]);
      if (entries.length > 0)
        await tx.query(
          `insert into watchlist_entries (watchlist_id, kind, slug, version, position)
           select $1, e.kind, e.slug, e.version, e.position
           from unnest($2::text[], $3::text[], $4::text[]) with ordinality as e(kind, slug, version, position)`,
          [id, entries.map((e) => e.kind), entries.map((e) => e.slug), entries.map((e) => e.version)],
        );
      await tx.query("update watchlists set updated_at = now() where id = $1", [id]);
    },
  };
}
