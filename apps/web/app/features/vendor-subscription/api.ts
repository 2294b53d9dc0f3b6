import type { PlanChangeResult, Subscription, SubscriptionPlan } from "@pressguard/domain";
import { queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "../../lib/api/request.ts";

/** The vendor's subscription API (decision 011), as the subscription and invoice pages call it. */
export const subscriptionApi = {
  get: (client: ApiClient) => client.request<Subscription>("/vendor/subscription"),
  changePlan: (client: ApiClient, plan: SubscriptionPlan) =>
    client.request<PlanChangeResult>("/vendor/subscription", { method: "POST", body: { plan } }),
};

export const SUBSCRIPTION_FAILURE = "Error fetching your subscription";

export const subscriptionKey = ["vendor-subscription"] as const;

/** Seats and webhooks change on other tabs: read again whenever the page is opened. */
export function subscriptionQuery(client: ApiClient) {
  return queryOptions({
    queryKey: subscriptionKey,
    queryFn: () => subscriptionApi.get(client),
    staleTime: 0,
    retry: false,
  });
}

/** The printable page of an invoice. */
export const invoicePath = (number: string) => `/vdp/account/invoices/${encodeURIComponent(number)}`;
