/**
 * Spec §3 "Plans: free, premium (label Paid), both" and §9 "Plan prices: free 0.00, premium 75.00".
 * `both` is a choice (e.g. a filter over free and paid), not a plan one can subscribe to: it has no price.
 */
export const PLANS = [
  { value: "free", label: "Free", price: "0.00" },
  { value: "premium", label: "Paid", price: "75.00" },
  { value: "both", label: "Both", price: null },
] as const;

export const planByValue: ReadonlyMap<string, (typeof PLANS)[number]> = new Map(
  PLANS.map((plan) => [plan.value, plan]),
);
