import type {
  ForwardConfirmed,
  ForwardDelivery,
  ForwardEmailTargetInput,
  ForwardQueued,
  ForwardTarget,
  ForwardTargets,
  ForwardTargetUpdate,
  ForwardTargetWithSecret,
  ForwardWebhookTargetInput,
  Page,
} from "@pressguard/domain";
import { queryOptions } from "@tanstack/react-query";
import { deliveryLogQuery } from "../../components/webhooks/delivery-log.tsx";
import type { ApiClient } from "../../lib/api/request.ts";

const base = "/vendor/forwarding";

/** The report forwarding API (issue 8): owners and admins of the organisation. */
export const forwardingApi = {
  list: (client: ApiClient) => client.request<ForwardTargets>(`${base}/targets`),
  addEmail: (client: ApiClient, body: ForwardEmailTargetInput) =>
    client.request<ForwardTarget>(`${base}/targets/email`, { method: "POST", body }),
  addWebhook: (client: ApiClient, body: ForwardWebhookTargetInput) =>
    client.request<ForwardTargetWithSecret>(`${base}/targets/webhook`, { method: "POST", body }),
  update: (client: ApiClient, id: number, body: ForwardTargetUpdate) =>
    client.request<ForwardTarget>(`${base}/targets/${id}`, { method: "PUT", body }),
  remove: (client: ApiClient, id: number) =>
    client.request<null>(`${base}/targets/${id}`, { method: "DELETE" }),
  action: (client: ApiClient, id: number, action: "resend-confirmation" | "disable" | "enable" | "test") =>
    client.request<ForwardTarget | { delivery_id: number }>(`${base}/targets/${id}/${action}`, {
      method: "POST",
    }),
  rotateSecret: (client: ApiClient, id: number) =>
    client.request<ForwardTargetWithSecret>(`${base}/targets/${id}/rotate-secret`, { method: "POST" }),
  deliveries: (client: ApiClient, id: number, page: number) =>
    client.request<Page<ForwardDelivery>>(`${base}/targets/${id}/deliveries?page=${page}&per_page=10`),
  redeliver: (client: ApiClient, deliveryId: number) =>
    client.request<ForwardQueued>(`${base}/deliveries/${deliveryId}/redeliver`, { method: "POST" }),
  confirm: (client: ApiClient, token: string) =>
    client.request<ForwardConfirmed>("/forwarding/confirm", {
      method: "POST",
      body: { token },
    }),
};

export const targetsKey = ["forwarding-targets"] as const;
export const deliveriesKey = (id: number) => ["forwarding-deliveries", id] as const;

export const TARGETS_FAILURE = "Error fetching the forwarding targets";

export function targetsQuery(client: ApiClient) {
  return queryOptions({
    queryKey: targetsKey,
    queryFn: () => forwardingApi.list(client),
    staleTime: 0,
    retry: false,
  });
}

export function deliveriesQuery(client: ApiClient, id: number, page: number) {
  return deliveryLogQuery(deliveriesKey(id), page, () => forwardingApi.deliveries(client, id, page));
}
