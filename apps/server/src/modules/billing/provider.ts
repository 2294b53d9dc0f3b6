import { randomUUID } from "node:crypto";
import type { SubscriptionPlan } from "@pressguard/domain";

/** The payment providers the configuration can name (`BILLING_PROVIDER`). */
export const BILLING_PROVIDERS = ["builtin"] as const;
export type BillingProviderName = (typeof BILLING_PROVIDERS)[number];

interface PlanChangeRequest {
  vendor: { id: number; name: string; contactEmail: string };
  from: SubscriptionPlan;
  to: SubscriptionPlan;
  /** The plan's monthly price as a decimal string ("75.00"); "0.00" for a downgrade to free. */
  amount: string;
  currency: string;
  period: { start: Date; end: Date };
}

interface PlanChangeOutcome {
  /** The provider's id for the payment or subscription change (kept on the invoice). */
  reference: string;
  /** `paid`: the money was taken; `open`: the provider will collect it later. */
  status: "paid" | "open";
}

/**
 * Takes the payment for a plan change (PRODUCT.md §4, decision 011). A provider only talks to the
 * payment service: the billing service records the invoice and the change in its own transaction,
 * so a Stripe or Paddle adapter is one more implementation of this interface and a config value.
 */
export interface PaymentProvider {
  readonly name: string;
  changePlan(request: PlanChangeRequest): Promise<PlanChangeOutcome>;
}

/**
 * Used when no provider keys are configured: nothing is charged, the change is accepted as paid and
 * the invoice is the record of it.
 */
function createBuiltinProvider(): PaymentProvider {
  return {
    name: "builtin",
    async changePlan() {
      return { reference: `builtin_${randomUUID()}`, status: "paid" };
    },
  };
}

export function createPaymentProvider(name: BillingProviderName): PaymentProvider {
  switch (name) {
    case "builtin":
      return createBuiltinProvider();
  }
}
