import {
  InvoiceDocument,
  PageQuery,
  Pagination,
  PlanChange,
  PlanChangeResult,
  StaffPlanChange,
  StaffPlanChangeResult,
  StaffVendor,
  Subscription,
} from "@pressguard/domain";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { AppError } from "../../errors.ts";
import { signedInCaller } from "../../http/access.ts";
import { idOrNotFound } from "../../http/ids.ts";
import type { PageReads } from "../../http/page-reads.ts";
import { pageRequest } from "../../http/pagination.ts";
import { type BillingService, VENDOR_NOT_FOUND } from "./service.ts";

/** Owners and admins (the `manage-vendor` capability) manage the subscription and read invoices. */
const vendorManagers = { access: "vendor", capability: "manage-vendor" } as const;
const staffOnly = { access: "staff" } as const;

function callerVendor(request: Pick<FastifyRequest, "auth">) {
  const { user } = signedInCaller(request);
  if (!user.vendor) throw new AppError("forbidden");
  return { vendorId: user.vendor.id, userId: user.id };
}

const InvoiceParams = z.object({ number: z.string() });
const VendorParams = z.object({ id: z.string() });
const StaffVendorQuery = PageQuery.extend({
  q: z.string().trim().max(200, "q must be at most 200 characters.").optional(),
});
const StaffVendorPage = z
  .object({ data: z.array(StaffVendor), pagination: Pagination })
  .meta({ id: "StaffVendorPage" });

function vendorIdOf(value: string): number {
  return idOrNotFound(value, VENDOR_NOT_FOUND);
}

/** The vendor's subscription and invoices (issue 8, decision 011). */
export const billingRoutes: FastifyPluginAsyncZod<{
  billing: BillingService;
  /** Reads its pages get in-process too (http/page-reads.ts). */
  reads: PageReads;
}> = async (app, { billing, reads }) => {
  const tags = ["vendor subscription"];

  app.get(
    "/vendor/subscription",
    {
      schema: {
        tags,
        summary: "The current plan, the plans on offer, seat usage, webhooks and invoices",
        response: { 200: Subscription },
      },
      config: vendorManagers,
    },
    (request) => billing.getSubscription(callerVendor(request).vendorId),
  );

  app.post(
    "/vendor/subscription",
    {
      schema: {
        tags,
        summary:
          "Upgrades or downgrades the plan through the payment provider (409 when the rules refuse it)",
        body: PlanChange,
        response: { 200: PlanChangeResult },
      },
      config: vendorManagers,
    },
    (request) => {
      const { vendorId, userId } = callerVendor(request);
      return billing.changeOwnPlan(vendorId, userId, request.body.plan);
    },
  );

  reads.get(
    app,
    "/vendor/invoices/:number",
    {
      schema: {
        tags,
        summary: "One of the vendor's invoices, with seller and buyer, for its printable page",
        params: InvoiceParams,
        response: { 200: InvoiceDocument },
      },
      config: vendorManagers,
    },
    (request) => billing.getInvoice(callerVendor(request).vendorId, request.params.number),
  );
};

/** Staff find vendors and change a plan by hand (PRODUCT.md §4). */
export const staffVendorRoutes: FastifyPluginAsyncZod<{ billing: BillingService }> = async (
  app,
  { billing },
) => {
  const tags = ["staff"];

  app.get(
    "/staff/vendors",
    {
      schema: {
        tags,
        summary: "Vendors by name, or matching q in the name or contact e-mail, with plan and seats",
        querystring: StaffVendorQuery,
        response: { 200: StaffVendorPage },
      },
      config: staffOnly,
    },
    (request) =>
      billing.findVendors(
        request.query.q || undefined,
        pageRequest(request, request.query.page, request.query.per_page),
      ),
  );

  app.post(
    "/staff/vendors/:id/plan",
    {
      schema: {
        tags,
        summary: "Changes a vendor's plan by hand, under the vendor's rules, with a note for the record",
        params: VendorParams,
        body: StaffPlanChange,
        response: { 200: StaffPlanChangeResult },
      },
      config: staffOnly,
    },
    (request) => {
      return billing.changePlanByStaff(
        signedInCaller(request).user.id,
        vendorIdOf(request.params.id),
        request.body,
      );
    },
  );
};
