import type { Invoice } from "@pressguard/domain";
import { Link } from "../../ui/link.tsx";
import { invoicePath } from "./api.ts";
import { billingPeriod, INVOICE_STATUS_LABELS, invoiceDay } from "./format.ts";

const statusOf = (invoice: Invoice) => INVOICE_STATUS_LABELS[invoice.status] ?? invoice.status;

/**
 * The vendor's invoices, newest first, each opening its printable page: a table from `md` up, a
 * list of cards below it (six columns do not fit a phone).
 */
export function InvoiceHistory({ invoices }: { invoices: readonly Invoice[] }) {
  return (
    <section aria-labelledby="invoice-history-heading" className="mt-8">
      <h2 id="invoice-history-heading" className="text-lg font-semibold text-slate-900">
        Invoices
      </h2>
      {invoices.length === 0 ? (
        <p className="mt-3 rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-600">
          No invoices yet. Upgrading to the Paid plan adds one here.
        </p>
      ) : (
        <>
          <InvoiceTable invoices={invoices} />
          <InvoiceCards invoices={invoices} />
        </>
      )}
    </section>
  );
}

function InvoiceTable({ invoices }: { invoices: readonly Invoice[] }) {
  const header = "px-4 py-3 font-semibold";
  return (
    <div className="mt-3 hidden overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm md:block">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <thead className="bg-slate-50 text-left text-slate-700">
          <tr>
            <th scope="col" className={header}>
              Number
            </th>
            <th scope="col" className={header}>
              Date
            </th>
            <th scope="col" className={header}>
              Period
            </th>
            <th scope="col" className={`${header} text-right`}>
              Amount
            </th>
            <th scope="col" className={header}>
              Currency
            </th>
            <th scope="col" className={header}>
              Status
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 text-slate-700">
          {invoices.map((invoice) => (
            <tr key={invoice.number}>
              <td className="px-4 py-3 whitespace-nowrap">
                <Link to={invoicePath(invoice.number)} className="link font-mono">
                  {invoice.number}
                </Link>
              </td>
              <td className="px-4 py-3 whitespace-nowrap">{invoiceDay(invoice.created_at)}</td>
              <td className="px-4 py-3">{billingPeriod(invoice.period_start, invoice.period_end)}</td>
              <td className="px-4 py-3 text-right whitespace-nowrap tabular-nums">{invoice.amount}</td>
              <td className="px-4 py-3">{invoice.currency}</td>
              <td className="px-4 py-3">{statusOf(invoice)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function InvoiceCards({ invoices }: { invoices: readonly Invoice[] }) {
  return (
    <ul aria-label="Invoices" className="mt-3 space-y-3 md:hidden">
      {invoices.map((invoice) => (
        <li
          key={invoice.number}
          className="rounded-lg border border-slate-200 bg-white p-4 text-sm shadow-sm"
        >
          <div className="flex items-baseline justify-between gap-3">
            <Link to={invoicePath(invoice.number)} className="link font-mono">
              {invoice.number}
            </Link>
            <span className="font-semibold whitespace-nowrap text-slate-900 tabular-nums">
              {invoice.amount} {invoice.currency}
            </span>
          </div>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-slate-700">
            <dt className="text-slate-500">Date</dt>
            <dd>{invoiceDay(invoice.created_at)}</dd>
            <dt className="text-slate-500">Period</dt>
            <dd>{billingPeriod(invoice.period_start, invoice.period_end)}</dd>
            <dt className="text-slate-500">Status</dt>
            <dd>{statusOf(invoice)}</dd>
          </dl>
        </li>
      ))}
    </ul>
  );
}
