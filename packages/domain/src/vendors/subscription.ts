import { z } from "zod";
import { planByValue } from "../enums/plans.ts";

/**
 * The vendor subscription plans (spec §3/§9, PRODUCT.md §4): prices and labels come from the spec's
 * plan list; what each includes is decided in PRODUCT.md §4.
 */
export const SUBSCRIPTION_PLANS = [
  {
    value: "free",
    label: planByValue.get("free")?.label ?? "Free",
    price: planByValue.get("free")?.price ?? "0.00",
    currency: "USD",
    seats: 2,
    webhooks: false,
    customDeadline: false,
    customPolicy: false,
    features: ["2 seats", "Report forwarding by e-mail", "Default fix deadline"],
  },
  {
    value: "premium",
    label: planByValue.get("premium")?.label ?? "Paid",
    price: planByValue.get("premium")?.price ?? "75.00",
    currency: "USD",
    seats: 20,
    webhooks: true,
    customDeadline: true,
    customPolicy: true,
    features: [
      "20 seats",
      "Report forwarding by e-mail and signed webhooks (JSON, Slack, Discord)",
      "Custom fix deadline",
      "Custom security-policy text",
    ],
  },
] as const;

export type SubscriptionPlan = (typeof SUBSCRIPTION_PLANS)[number]["value"];
export const SubscriptionPlan = z.enum(["free", "premium"], { error: "Plan must be free or premium." });

export function subscriptionPlanOf(plan: SubscriptionPlan) {
  return plan === "premium" ? SUBSCRIPTION_PLANS[1] : SUBSCRIPTION_PLANS[0];
}

/** Seats a plan allows: members plus open invitations may not exceed it. */
export function seatLimitOf(plan: SubscriptionPlan): number {
  return subscriptionPlanOf(plan).seats;
}
