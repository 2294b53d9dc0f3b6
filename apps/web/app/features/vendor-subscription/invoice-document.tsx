import { COUNTRIES, type InvoiceDocument } from "@pressguard/domain";
import type { ReactNode } from "react";
import { Link } from "../../ui/link.tsx";
import { billingPeriod, INVOICE_STATUS_LABELS, invoiceDay } from "./format.ts";

const countryName = (code: string | null) =>
  code ? (COUNTRIES.find((country) => country.code === code)?.name ?? code) : null;

/**
 * A clean A4 page when printed: the invoice alone, on white, with the margins set here. Toasts and
 * the loading bar belong to the app shell, so they are hidden from print here.
 */
const PRINT_CSS = `@page { size: A4; margin: 18mm 16mm; }
@media print {
  body { background: #fff; }
  .Toastify, [role="progressbar"] { display: none !important; }
}`;

/** An invoice as a printable page: seller (the site), buyer (the vendor account), the line and totals. */
export function PrintableInvoice({ invoice }: { invoice: InvoiceDocument }) {
  const status = INVOICE_STATUS_LABELS[invoice.status] ?? invoice.status;
  return (
    <>
      <style>{PRINT_CSS}</style>
      <nav className="mb-6 flex flex-wrap items-center justify-between gap-3 print:hidden">
        <Link to="/vdp/account/subscription" className="link text-sm">
          ← Subscription
        </Link>
        <button type="button" className="btn-primary" onClick={() => window.print()}>
          Print
        </button>
      </nav>
      <article
        aria-labelledby="invoice-title"
        className="rounded-lg border border-slate-200 bg-white p-6 text-slate-800 shadow-sm sm:p-10 print:border-0 print:p-0 print:shadow-none"
      >
        <header className="flex flex-wrap items-start justify-between gap-6 border-b border-slate-200 pb-6">
          <div>
            <p className="text-2xl font-bold text-slate-900">{invoice.seller.name}</p>
            <p className="text-sm text-slate-600">{invoice.seller.url}</p>
          </div>
          <div className="text-right">
            <h1 id="invoice-title" className="text-2xl font-bold text-slate-900">
              Invoice
            </h1>
            <p className="font-mono text-sm text-slate-700">{invoice.number}</p>
          </div>
        </header>

        <div className="grid gap-6 border-b border-slate-200 py-6 sm:grid-cols-2 print:grid-cols-2">
          <div>
            <h2 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Billed to</h2>
            <address className="mt-2 text-sm leading-6 not-italic">
              <span className="font-semibold text-slate-900">{invoice.buyer.vendor_name}</span>
              <br />
              {invoice.buyer.contact_person}
              <br />
              {invoice.buyer.contact_email}
              {invoice.buyer.url && (
                <>
                  <br />
                  {invoice.buyer.url}
                </>
              )}
              {invoice.buyer.country && (
                <>
                  <br />
                  {countryName(invoice.buyer.country)}
                </>
              )}
            </address>
          </div>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm sm:justify-self-end print:justify-self-end">
            <Fact term="Invoice number">
              <span className="font-mono">{invoice.number}</span>
            </Fact>
            <Fact term="Date of issue">{invoiceDay(invoice.created_at)}</Fact>
            <Fact term="Period">{billingPeriod(invoice.period_start, invoice.period_end)}</Fact>
            <Fact term="Status">{status}</Fact>
          </dl>
        </div>

        <table className="mt-6 w-full text-sm">
          <thead>
            <tr className="border-b border-slate-300 text-left text-slate-600">
              <th scope="col" className="py-2 pr-4 font-semibold">
                Description
              </th>
              <th scope="col" className="py-2 pr-4 font-semibold">
                Period
              </th>
              <th scope="col" className="py-2 text-right font-semibold">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            <tr className="border-b border-slate-200 align-top">
              <td className="py-3 pr-4">{invoice.description}</td>
              <td className="py-3 pr-4">{billingPeriod(invoice.period_start, invoice.period_end)}</td>
              <td className="py-3 text-right tabular-nums whitespace-nowrap">
                {invoice.amount} {invoice.currency}
              </td>
            </tr>
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={2} className="pt-4 pr-4 text-right font-semibold text-slate-900">
                Total ({status.toLowerCase()})
              </th>
              <td className="pt-4 text-right text-lg font-bold whitespace-nowrap text-slate-900 tabular-nums">
                {invoice.amount} {invoice.currency}
              </td>
            </tr>
          </tfoot>
        </table>
      </article>
    </>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-slate-500">{term}</dt>
      <dd className="text-slate-900">{children}</dd>
    </>
  );
}
