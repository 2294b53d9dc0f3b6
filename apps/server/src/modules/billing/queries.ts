import type { SqlRunner } from "../../db/client.ts";

/** The SQL of the billing module (decision 011); each function takes an optional transaction. */

export interface InvoiceRow {
  number: string;
  plan: string;
  description: string;
  amount: string;
  currency: string;
  period_start: Date | string;
  period_end: Date | string;
  status: string;
  provider: string;
  created_at: Date | string;
}

export interface InvoiceDocumentRow extends InvoiceRow {
  vendor_name: string;
  contact_person: string;
  contact_email: string;
  url: string | null;
  country: string | null;
}

export interface BillingVendorRow {
  id: number;
  vendor_name: string;
  contact_email: string;
  plan: string;
  members: number;
  invitations: number;
  webhooks: number;
  created_at: Date | string;
}

export interface NewInvoice {
  vendorId: number;
  plan: string;
  description: string;
  amount: string;
  currency: string;
  periodStart: Date;
  periodEnd: Date;
  status: "paid" | "open";
  provider: string;
  providerReference: string | null;
}

export interface NewPlanChange {
  vendorId: number;
  fromPlan: string;
  toPlan: string;
  changedBy: number | null;
  via: "vendor" | "staff";
  provider: string;
  note: string | null;
}

const INVOICE_COLUMNS = `i.number, i.plan, i.description, i.amount::text as amount, i.currency, i.period_start,
  i.period_end, i.status, i.provider, i.created_at`;

/** Seats in use (PRODUCT.md §4): members plus invitations still open. */
const VENDOR_COLUMNS = `v.id, v.vendor_name, v.contact_email, v.plan, v.created_at,
  (select count(*)::int from vendor_members m where m.vendor_id = v.id) as members,
  (select count(*)::int from vendor_invitations vi where vi.vendor_id = v.id and vi.accepted_at is null
     and vi.revoked_at is null and vi.expires_at > now()) as invitations,
  (select count(*)::int from forward_targets t where t.vendor_id = v.id and t.kind = 'webhook') as webhooks`;

/** `%`, `_` and `\` in a search are matched literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

export function createBillingQueries(sql: SqlRunner) {
  return {
    async findVendor(vendorId: number, tx: SqlRunner = sql): Promise<BillingVendorRow | null> {
      const { rows } = await tx.query<BillingVendorRow>(
        `select ${VENDOR_COLUMNS} from vendors v where v.id = $1`,
        [vendorId],
      );
      return rows[0] ?? null;
    },

    /** Holds the vendor row until the transaction ends, so two plan changes of one vendor queue up. */
    async lockVendor(vendorId: number, tx: SqlRunner): Promise<boolean> {
      const { rows } = await tx.query("select id from vendors where id = $1 for update", [vendorId]);
      return rows.length > 0;
    },

    /** The transaction's clock: the billing period starts now and lasts one calendar month. */
    async billingPeriod(tx: SqlRunner): Promise<{ start: Date; end: Date }> {
      const { rows } = await tx.query<{ start: Date | string; end: Date | string }>(
        `select now() as start, now() + interval '1 month' as "end"`,
      );
      const row = rows[0];
      if (!row) throw new Error("no clock");
      return { start: new Date(row.start), end: new Date(row.end) };
    },

    /**
     * The next number of this year's sequence, PG-2026-000001 upwards with no gaps. A transaction-
     * scoped advisory lock makes concurrent invoices take turns until commit; the unique index
     * on `number` is the backstop.
     */
    async nextInvoiceNumber(tx: SqlRunner): Promise<string> {
      await tx.query("select pg_advisory_xact_lock(hashtext('pressguard.invoice-number'))");
      const { rows } = await tx.query<{ number: string }>(
        `with year as (select extract(year from now() at time zone 'UTC')::int as value)
         select 'PG-' || year.value || '-' || lpad((coalesce(max(substring(i.number from 9)::int), 0) + 1)::text, 6, '0')
           as number
         from year left join invoices i on i.number like 'PG-' || year.value || '-%'
         group by year.value`,
      );
      const number = rows[0]?.number;
      if (!number) throw new Error("no invoice number");
      return number;
    },

    async insertInvoice(invoice: NewInvoice & { number: string }, tx: SqlRunner): Promise<InvoiceRow> {
      const { rows } = await tx.query<InvoiceRow>(
        `insert into invoices as i (number, vendor_id, plan, description, amount, currency, period_start, period_end,
           status, provider, provider_reference)
         values ($1, $2, $3, $4, $5::numeric, $6, $7, $8, $9, $10, $11)
         returning ${INVOICE_COLUMNS}`,
        [
          invoice.number,
          invoice.vendorId,
          invoice.plan,
          invoice.description,
          invoice.amount,
          invoice.currency,
          invoice.periodStart,
          invoice.periodEnd,
          invoice.status,
          invoice.provider,
          invoice.providerReference,
        ],
      );
      const row = rows[0];
      if (!row) throw new Error("invoice not stored");
      return row;
    },

    async insertPlanChange(change: NewPlanChange, tx: SqlRunner): Promise<void> {
      await tx.query(
        `insert into vendor_plan_changes (vendor_id, from_plan, to_plan, changed_by, via, provider, note)
         values ($1, $2, $3, $4, $5, $6, $7)`,
        [
          change.vendorId,
          change.fromPlan,
          change.toPlan,
          change.changedBy,
          change.via,
          change.provider,
          change.note,
        ],
      );
    },

    async setPlan(vendorId: number, plan: string, tx: SqlRunner): Promise<void> {
      await tx.query("update vendors set plan = $2 where id = $1", [vendorId, plan]);
    },

    async listInvoices(vendorId: number, tx: SqlRunner = sql): Promise<InvoiceRow[]> {
      const { rows } = await tx.query<InvoiceRow>(
        `select ${INVOICE_COLUMNS} from invoices i where i.vendor_id = $1 order by i.created_at desc, i.id desc`,
        [vendorId],
      );
      return rows;
    },

    /** One of the vendor's own invoices; another vendor's number finds nothing. */
    async findInvoice(
      vendorId: number,
      number: string,
      tx: SqlRunner = sql,
    ): Promise<InvoiceDocumentRow | null> {
      const { rows } = await tx.query<InvoiceDocumentRow>(
        `select ${INVOICE_COLUMNS}, v.vendor_name, v.contact_person, v.contact_email, v.url, v.country
         from invoices i join vendors v on v.id = i.vendor_id
         where i.vendor_id = $1 and i.number = $2`,
        [vendorId, number],
      );
      return rows[0] ?? null;
    },

    /** Vendors whose name or contact e-mail contains `search` (all without one), by name. */
    async findVendors(
      search: string | undefined,
      limit: number,
      offset: number,
      tx: SqlRunner = sql,
    ): Promise<{ rows: BillingVendorRow[]; total: number }> {
      const where = search
        ? "where v.vendor_name ilike $1 or v.contact_email ilike $1"
        : "where $1::text is null";
      const pattern = search ? containsPattern(search) : null;
      const [page, count] = await Promise.all([
        tx.query<BillingVendorRow>(
          `select ${VENDOR_COLUMNS} from vendors v ${where} order by lower(v.vendor_name), v.id limit $2 offset $3`,
          [pattern, limit, offset],
        ),
        tx.query<{ total: number }>(`select count(*)::int as total from vendors v ${where}`, [pattern]),
      ]);
      return { rows: page.rows, total: count.rows[0]?.total ?? 0 };
    },
  };
}
