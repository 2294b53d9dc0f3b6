import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./accounts.ts";

/**
 * Watchlists (issue 20, decision 031): what a site runs, kept by a signed-in user of any role, many
 * per account, each entry with its installed version.
 */
export const watchlists = pgTable(
  "watchlists",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("watchlists_user_idx").on(table.userId, table.name)],
);

/**
 * One watched product of a watchlist by kind and slug (in lower case, as the batch check matches
 * them), known to the database or not yet: a plugin the database learns of later is then matched.
 */
export const watchlistEntries = pgTable(
  "watchlist_entries",
  {
    watchlistId: uuid("watchlist_id")
      .notNull()
      .references(() => watchlists.id, { onDelete: "cascade" }),
    kind: text("kind").notNull(),
    slug: text("slug").notNull(),
    version: text("version").notNull(),
    /** The order of the uploaded inventory. */
    position: integer("position").notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.watchlistId, table.kind, table.slug] }),
    /** Which watchlists watch a product: the alerts of a publication (issue 20). */
    index("watchlist_entries_product_idx").on(table.kind, table.slug),
  ],
);
