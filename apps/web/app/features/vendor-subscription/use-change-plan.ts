import type { SubscriptionPlan } from "@pressguard/domain";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useApiClient } from "../../lib/api/client.ts";
import { toast } from "../../ui/toast.ts";
import { subscriptionApi, subscriptionKey } from "./api.ts";

/**
 * Upgrades or downgrades the plan. The answer is the subscription as it is now (with the new
 * invoice in its history), which replaces the cached one. A refusal (409: seats or webhooks to
 * remove first, or already on that plan) is left to the confirm step, which shows its message.
 */
export function useChangePlan() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (plan: SubscriptionPlan) => subscriptionApi.changePlan(client, plan),
    onSuccess: (result) => {
      const { invoice: _invoice, ...subscription } = result;
      queryClient.setQueryData(subscriptionKey, subscription);
      const label = result.plans.find((plan) => plan.value === result.plan)?.label ?? result.plan;
      toast.success(
        result.invoice
          ? `You are now on the ${label} plan. Invoice ${result.invoice.number} is in your history.`
          : `You are now on the ${label} plan.`,
      );
    },
  });
}
