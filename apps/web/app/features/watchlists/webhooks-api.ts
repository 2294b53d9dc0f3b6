import type {
  ForwardDelivery,
  ForwardQueued,
  ForwardTarget,
  ForwardTargetWithSecret,
  Page,
  WatchlistWebhookInput,
} from "@pressguard/domain";
import { queryOptions } from "@tanstack/react-query";
import { deliveryLogQuery } from "../../components/webhooks/delivery-log.tsx";
import type { ApiClient } from "../../lib/api/request.ts";

const base = (id: string) => `/watchlists/${encodeURIComponent(id)}/webhooks`;

/** A watchlist's alert webhooks (issue 20): the owner's only. */
export const watchlistWebhooksApi = {
  list: (client: ApiClient, id: string) => client.request<{ data: ForwardTarget[] }>(base(id)),
  add: (client: ApiClient, id: string, body: WatchlistWebhookInput) =>
    client.request<ForwardTargetWithSecret>(base(id), { method: "POST", body }),
  action: (client: ApiClient, id: string, webhookId: number, action: "enable" | "disable" | "test") =>
    client.request<ForwardTarget | ForwardQueued>(`${base(id)}/${webhookId}/${action}`, { method: "POST" }),
  remove: (client: ApiClient, id: string, webhookId: number) =>
    client.request<null>(`${base(id)}/${webhookId}`, { method: "DELETE" }),
  deliveries: (client: ApiClient, id: string, webhookId: number, page: number) =>
    client.request<Page<ForwardDelivery>>(`${base(id)}/${webhookId}/deliveries?page=${page}&per_page=10`),
};

export const webhooksKey = (id: string) => ["watchlists", id, "webhooks"] as const;
const webhookDeliveriesKey = (id: string, webhookId: number) =>
  ["watchlists", id, "webhooks", webhookId, "deliveries"] as const;

export function webhooksQuery(client: ApiClient, id: string) {
  return queryOptions({
    queryKey: webhooksKey(id),
    queryFn: () => watchlistWebhooksApi.list(client, id),
    staleTime: 0,
    retry: false,
  });
}

export function webhookDeliveriesQuery(client: ApiClient, id: string, webhookId: number, page: number) {
  return deliveryLogQuery(webhookDeliveriesKey(id, webhookId), page, () =>
    watchlistWebhooksApi.deliveries(client, id, webhookId, page),
  );
}
