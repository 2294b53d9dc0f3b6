import { sql } from "drizzle-orm";
import {
  check,
  index,
  integer,
  numeric,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { users, vendors } from "./accounts.ts";

const createdAt = timestamp("created_at", { withTimezone: true }).notNull().defaultNow();

/**
 * An invitation to a seat (issue 8): a single-use link valid 7 days, for one e-mail address.
 * Only the SHA-256 of the link's secret is stored. At most one open invitation per address.
 */
export const vendorInvitations = pgTable(
  "vendor_invitations",
  {
    id: serial("id").primaryKey(),
    vendorId: integer("vendor_id")
      .notNull()
      .references(() => vendors.id, { onDelete: "cascade" }),
    /** Lower-cased and trimmed, like users.email. */
    email: text("email").notNull(),
    role: text("role").notNull().default("member"),
    tokenHash: text("token_hash").notNull().unique(),
    invitedBy: integer("invited_by").references(() => users.id, { onDelete: "set null" }),
    createdAt,
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    acceptedBy: integer("accepted_by").references(() => users.id, { onDelete: "set null" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (table) => [
    index("vendor_invitations_vendor_idx").on(table.vendorId),
    uniqueIndex("vendor_invitations_open_key")
      .on(table.vendorId, table.email)
      .where(sql`${table.acceptedAt} is null and ${table.revokedAt} is null`),
    check("vendor_invitations_role_check", sql`${table.role} in ('admin', 'member')`),
    check("vendor_invitations_email_lower_check", sql`${table.email} = lower(${table.email})`),
  ],
);

/** Every plan change, by the vendor through the provider or by staff by hand (the audit trail). */
export const vendorPlanChanges = pgTable(
  "vendor_plan_changes",
  {
    id: serial("id").primaryKey(),
    vendorId: integer("vendor_id")
      .notNull()
      .references(() => vendors.id, { onDelete: "cascade" }),
    fromPlan: text("from_plan").notNull(),
    toPlan: text("to_plan").notNull(),
    changedBy: integer("changed_by").references(() => users.id, { onDelete: "set null" }),
    /** `vendor` (through the payment provider) or `staff` (by hand). */
    via: text("via").notNull(),
    /** The payment provider that handled it (`builtin` without provider keys). */
    provider: text("provider").notNull(),
    note: text("note"),
    createdAt,
  },
  (table) => [
    index("vendor_plan_changes_vendor_idx").on(table.vendorId, table.createdAt),
    check("vendor_plan_changes_via_check", sql`${table.via} in ('vendor', 'staff')`),
  ],
);

/** An invoice the vendor can open as a printable page (number, period, amount, currency). */
export const invoices = pgTable(
  "invoices",
  {
    id: serial("id").primaryKey(),
    /** Human-readable and sequential per year, e.g. PG-2026-000042. */
    number: text("number").notNull().unique(),
    vendorId: integer("vendor_id")
      .notNull()
      .references(() => vendors.id, { onDelete: "cascade" }),
    plan: text("plan").notNull(),
    description: text("description").notNull(),
    amount: numeric("amount", { precision: 10, scale: 2 }).notNull(),
    currency: text("currency").notNull(),
    periodStart: timestamp("period_start", { withTimezone: true }).notNull(),
    periodEnd: timestamp("period_end", { withTimezone: true }).notNull(),
    /** `paid` when the provider took the payment (or staff recorded it), `void` when cancelled. */
    status: text("status").notNull().default("paid"),
    provider: text("provider").notNull(),
    providerReference: text("provider_reference"),
    createdAt,
  },
  (table) => [
    index("invoices_vendor_idx").on(table.vendorId, table.createdAt),
    check("invoices_status_check", sql`${table.status} in ('paid', 'open', 'void')`),
  ],
);
