import {
  INVOICE_NUMBER_PATTERN,
  type Invoice,
  type InvoiceDocument,
  type PlanChangeResult,
  type StaffPlanChangeResult,
  type StaffVendor,
  SUBSCRIPTION_PLANS,
  type Subscription,
  type SubscriptionPlan,
  seatLimitOf,
  subscriptionPlanOf,
} from "@pressguard/domain";
import type { Database, SqlRunner } from "../../db/client.ts";
import { isoOf } from "../../db/timestamps.ts";
import { AppError } from "../../errors.ts";
import { type PageRequest, paginationOf } from "../../http/pagination.ts";
import type { Mailer } from "../../mail/outbox.ts";
import type { PaymentProvider } from "./provider.ts";
import { type BillingVendorRow, createBillingQueries, type InvoiceRow } from "./queries.ts";

const INVOICE_NOT_FOUND = "Invoice not found.";
export const VENDOR_NOT_FOUND = "Vendor not found.";
/** Staff changes are recorded with this provider name: no payment service took part. */
const STAFF_PROVIDER = "staff";

export interface BillingServiceOptions {
  database: Database;
  provider: PaymentProvider;
  mailer?: Mailer;
  /** Links in e-mail. */
  appUrl: string;
  /** The seller on invoices. */
  siteName: string;
  onMailError?: (error: unknown) => void;
}

/** Who asks for a plan change: the vendor's owner or admin, or staff by hand with a note. */
type PlanChangeActor = { via: "vendor"; userId: number } | { via: "staff"; userId: number; note: string };

function invoiceOf(row: InvoiceRow): Invoice {
  return {
    number: row.number,
    plan: row.plan as SubscriptionPlan,
    description: row.description,
    amount: row.amount,
    currency: row.currency,
    period_start: isoOf(row.period_start),
    period_end: isoOf(row.period_end),
    status: row.status as Invoice["status"],
    provider: row.provider,
    created_at: isoOf(row.created_at),
  };
}

function staffVendorOf(row: BillingVendorRow): StaffVendor {
  const plan = row.plan as SubscriptionPlan;
  return {
    id: row.id,
    vendor_name: row.vendor_name,
    contact_email: row.contact_email,
    plan,
    seats_used: row.members + row.invitations,
    seat_limit: seatLimitOf(plan),
    webhooks: row.webhooks,
    created_at: isoOf(row.created_at),
  };
}

const plural = (count: number, one: string, many: string) => (count === 1 ? one : many);

/**
 * Why the vendor cannot move to `plan` yet (PRODUCT.md §4), or null. Seats in use (members and open
 * invitations) must fit the new plan, and webhooks exist only on premium. Staff get the same answer:
 * the vendor decides what to give up, not us.
 */
function downgradeRefusal(vendor: BillingVendorRow, plan: SubscriptionPlan): string | null {
  const target = subscriptionPlanOf(plan);
  const reasons: string[] = [];
  const excess = vendor.members + vendor.invitations - target.seats;
  if (excess > 0)
    reasons.push(
      `Downgrading to ${target.label} leaves ${target.seats} seats: remove ${excess} ${plural(excess, "member or invitation", "members or invitations")} first.`,
    );
  if (!target.webhooks && vendor.webhooks > 0)
    reasons.push(
      `Downgrading to ${target.label} stops webhook forwarding: delete your ${vendor.webhooks === 1 ? "webhook" : `${vendor.webhooks} webhooks`} first.`,
    );
  return reasons.length > 0 ? reasons.join(" ") : null;
}

/** A number in a path: anything that is not an invoice number names no invoice. */
function requireInvoiceNumber(value: string): string {
  if (!INVOICE_NUMBER_PATTERN.test(value)) throw new AppError("not_found", { message: INVOICE_NOT_FOUND });
  return value;
}

/**
 * Subscriptions and invoices (issue 8, decision 011). A plan change runs in one transaction that
 * holds the vendor's row: check the rules, take the payment through the provider, number and store
 * the invoice, record the change, set the plan. The vendor hears of it by e-mail after the commit.
 * Plans are private: nothing public changes, so the public data version is left alone.
 */
export function createBillingService(options: BillingServiceOptions) {
  const { database, provider } = options;
  const queries = createBillingQueries(database.sql);

  async function requireVendor(vendorId: number, tx?: SqlRunner) {
    const vendor = await queries.findVendor(vendorId, tx);
    if (!vendor) throw new AppError("not_found", { message: VENDOR_NOT_FOUND });
    return vendor;
  }

  async function subscriptionOf(vendorId: number): Promise<Subscription> {
    const [vendor, invoices] = await Promise.all([requireVendor(vendorId), queries.listInvoices(vendorId)]);
    const plan = vendor.plan as SubscriptionPlan;
    return {
      plan,
      plans: SUBSCRIPTION_PLANS.map((offer) => ({
        value: offer.value,
        label: offer.label,
        price: offer.price,
        currency: offer.currency,
        seats: offer.seats,
        webhooks: offer.webhooks,
        features: [...offer.features],
      })),
      seats: {
        members: vendor.members,
        invitations: vendor.invitations,
        used: vendor.members + vendor.invitations,
        limit: seatLimitOf(plan),
      },
      webhooks: vendor.webhooks,
      invoices: invoices.map(invoiceOf),
    };
  }

  async function changePlan(vendorId: number, to: SubscriptionPlan, actor: PlanChangeActor) {
    const change = await database.sql.transaction(async (tx) => {
      if (!(await queries.lockVendor(vendorId, tx)))
        throw new AppError("not_found", { message: VENDOR_NOT_FOUND });
      const vendor = await requireVendor(vendorId, tx);
      const from = vendor.plan as SubscriptionPlan;
      const target = subscriptionPlanOf(to);
      if (from === to)
        throw new AppError("conflict", {
          message:
            actor.via === "vendor"
              ? `Your organisation is already on the ${target.label} plan.`
              : `This vendor is already on the ${target.label} plan.`,
        });
      const refusal = downgradeRefusal(vendor, to);
      if (refusal) throw new AppError("conflict", { message: refusal });

      const period = await queries.billingPeriod(tx);
      const charged = Number(target.price) > 0;
      const payment =
        actor.via === "vendor"
          ? await provider.changePlan({
              vendor: { id: vendor.id, name: vendor.vendor_name, contactEmail: vendor.contact_email },
              from,
              to,
              amount: target.price,
              currency: target.currency,
              period,
            })
          : { reference: null, status: "paid" as const };
      const providerName = actor.via === "vendor" ? provider.name : STAFF_PROVIDER;
      // A move to the free plan costs nothing, so it makes no invoice (decision 011).
      const invoice = charged
        ? await queries.insertInvoice(
            {
              number: await queries.nextInvoiceNumber(tx),
              vendorId,
              plan: to,
              description: `${options.siteName} ${target.label} plan, 1 month`,
              amount: target.price,
              currency: target.currency,
              periodStart: period.start,
              periodEnd: period.end,
              status: payment.status,
              provider: providerName,
              providerReference: payment.reference,
            },
            tx,
          )
        : null;
      await queries.insertPlanChange(
        {
          vendorId,
          fromPlan: from,
          toPlan: to,
          changedBy: actor.userId,
          via: actor.via,
          provider: providerName,
          note: actor.via === "staff" ? actor.note : null,
        },
        tx,
      );
      await queries.setPlan(vendorId, to, tx);
      return { vendor, from, invoice: invoice && invoiceOf(invoice) };
    });
    await mailPlanChange(change.vendor, change.from, to, change.invoice, actor.via);
    return change.invoice;
  }

  /** The change is committed: a mail that cannot be queued is logged, not turned into an error. */
  async function mailPlanChange(
    vendor: BillingVendorRow,
    from: SubscriptionPlan,
    to: SubscriptionPlan,
    invoice: Invoice | null,
    via: PlanChangeActor["via"],
  ) {
    if (!options.mailer) return;
    try {
      await options.mailer.enqueue(vendor.contact_email, {
        template: "plan_changed",
        vendorName: vendor.vendor_name,
        fromPlan: subscriptionPlanOf(from).label,
        toPlan: subscriptionPlanOf(to).label,
        byStaff: via === "staff",
        invoice: invoice && { number: invoice.number, amount: invoice.amount, currency: invoice.currency },
        url: invoice
          ? `${options.appUrl}/vdp/account/invoices/${invoice.number}`
          : `${options.appUrl}/vdp/account/subscription`,
      });
    } catch (error) {
      options.onMailError?.(error);
    }
  }

  return {
    getSubscription: subscriptionOf,

    /** The vendor's own upgrade or downgrade, paid through the configured provider. */
    async changeOwnPlan(vendorId: number, userId: number, plan: SubscriptionPlan): Promise<PlanChangeResult> {
      const invoice = await changePlan(vendorId, plan, { via: "vendor", userId });
      return { ...(await subscriptionOf(vendorId)), invoice };
    },

    async getInvoice(vendorId: number, number: string): Promise<InvoiceDocument> {
      const row = await queries.findInvoice(vendorId, requireInvoiceNumber(number));
      if (!row) throw new AppError("not_found", { message: INVOICE_NOT_FOUND });
      return {
        ...invoiceOf(row),
        seller: { name: options.siteName, url: options.appUrl },
        buyer: {
          vendor_name: row.vendor_name,
          contact_person: row.contact_person,
          contact_email: row.contact_email,
          url: row.url,
          country: row.country,
        },
      };
    },

    async findVendors(search: string | undefined, page: PageRequest) {
      const { rows, total } = await queries.findVendors(search, page.perPage, (page.page - 1) * page.perPage);
      return {
        data: rows.map(staffVendorOf),
        pagination: paginationOf(page.path, page.query, page.page, page.perPage, total),
      };
    },

    /** Staff change a plan by hand (PRODUCT.md §4), under the same rules, with a note for the record. */
    async changePlanByStaff(
      staffUserId: number,
      vendorId: number,
      change: { plan: SubscriptionPlan; note: string },
    ): Promise<StaffPlanChangeResult> {
      const invoice = await changePlan(vendorId, change.plan, {
        via: "staff",
        userId: staffUserId,
        note: change.note,
      });
      return { vendor: staffVendorOf(await requireVendor(vendorId)), invoice };
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
