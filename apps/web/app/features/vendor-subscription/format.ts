import { formatDay } from "../../lib/reports.ts";

/** "2026-11-23T…" → "23 November 2026" (UTC). */
export const invoiceDay = (value: string) => formatDay(value) ?? value;

/** "23 November 2026 – 23 December 2026". */
export const billingPeriod = (start: string, end: string) => `${invoiceDay(start)} – ${invoiceDay(end)}`;

export const INVOICE_STATUS_LABELS: Record<string, string> = { paid: "Paid", open: "Open", void: "Void" };
