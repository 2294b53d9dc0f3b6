import { z } from "zod";
import { SubscriptionPlan } from "./subscription.ts";

/**
 * The subscription and invoice API (issue 8, decision 011): request bodies validated by the server,
 * answers the pages read. Amounts travel as decimal strings ("75.00"), never as floats.
 */

/** A body that is not an object, or has fields the endpoint does not know. */
function bodyError(expected: string) {
  return (issue: { code?: string; keys?: readonly string[] }) =>
    issue.code === "unrecognized_keys"
      ? `Unknown field${issue.keys?.length === 1 ? "" : "s"}: ${issue.keys?.join(", ")}.`
      : `Send a JSON object with ${expected}.`;
}

/** `POST /api/vendor/subscription`: the vendor's own upgrade or downgrade. */
export const PlanChange = z.strictObject({ plan: SubscriptionPlan }, { error: bodyError("the plan") });
export type PlanChange = z.infer<typeof PlanChange>;

export const PLAN_CHANGE_NOTE_MAX = 500;

/** `POST /api/staff/vendors/{id}/plan`: staff change a plan by hand, saying why. */
export const StaffPlanChange = z.strictObject(
  {
    plan: SubscriptionPlan,
    note: z
      .string({
        error: (issue) =>
          issue.input === undefined
            ? "Say why the plan changes (for example the vendor's request)."
            : "The note must be text.",
      })
      .trim()
      .min(1, "Say why the plan changes (for example the vendor's request).")
      .max(PLAN_CHANGE_NOTE_MAX, `The note must be at most ${PLAN_CHANGE_NOTE_MAX} characters.`),
  },
  { error: bodyError("the plan and a note") },
);
export type StaffPlanChange = z.infer<typeof StaffPlanChange>;

export const INVOICE_STATUSES = ["paid", "open", "void"] as const;

/** `PG-2026-000001`: the prefix, the year, six digits. */
export const INVOICE_NUMBER_PATTERN = /^PG-\d{4}-\d{6}$/;

export const Invoice = z
  .object({
    number: z.string(),
    plan: SubscriptionPlan,
    description: z.string(),
    amount: z.string(),
    currency: z.string(),
    period_start: z.string(),
    period_end: z.string(),
    status: z.enum(INVOICE_STATUSES),
    /** `builtin`, `staff`, or a payment provider's name. */
    provider: z.string(),
    created_at: z.string(),
  })
  .meta({ id: "Invoice" });
export type Invoice = z.infer<typeof Invoice>;

/** One invoice as its printable page shows it: seller (the site) and buyer (the vendor account). */
export const InvoiceDocument = Invoice.extend({
  seller: z.object({ name: z.string(), url: z.string() }),
  buyer: z.object({
    vendor_name: z.string(),
    contact_person: z.string(),
    contact_email: z.string(),
    url: z.string().nullable(),
    country: z.string().nullable(),
  }),
}).meta({ id: "InvoiceDocument" });
export type InvoiceDocument = z.infer<typeof InvoiceDocument>;

const PlanOffer = z.object({
  value: SubscriptionPlan,
  label: z.string(),
  price: z.string(),
  currency: z.string(),
  seats: z.number().int(),
  webhooks: z.boolean(),
  features: z.array(z.string()),
});

/** `GET /api/vendor/subscription`. */
export const Subscription = z
  .object({
    plan: SubscriptionPlan,
    plans: z.array(PlanOffer),
    /** Members plus open invitations, against the current plan's seats. */
    seats: z.object({
      members: z.number().int(),
      invitations: z.number().int(),
      used: z.number().int(),
      limit: z.number().int(),
    }),
    webhooks: z.number().int(),
    /** Newest first. */
    invoices: z.array(Invoice),
  })
  .meta({ id: "Subscription" });
export type Subscription = z.infer<typeof Subscription>;

/** `POST /api/vendor/subscription`: the subscription as it is now, and the invoice the change made. */
export const PlanChangeResult = Subscription.extend({ invoice: Invoice.nullable() }).meta({
  id: "PlanChangeResult",
});
export type PlanChangeResult = z.infer<typeof PlanChangeResult>;

/** A row of the staff vendor search. */
export const StaffVendor = z
  .object({
    id: z.number().int(),
    vendor_name: z.string(),
    contact_email: z.string(),
    plan: SubscriptionPlan,
    seats_used: z.number().int(),
    seat_limit: z.number().int(),
    webhooks: z.number().int(),
    created_at: z.string(),
  })
  .meta({ id: "StaffVendor" });
export type StaffVendor = z.infer<typeof StaffVendor>;

/** `POST /api/staff/vendors/{id}/plan`: the vendor as it is now, and the invoice the change made. */
export const StaffPlanChangeResult = z
  .object({ vendor: StaffVendor, invoice: Invoice.nullable() })
  .meta({ id: "StaffPlanChangeResult" });
export type StaffPlanChangeResult = z.infer<typeof StaffPlanChangeResult>;
