import type {
  WatchAlertMode,
  WatchlistCreation,
  WatchlistDetail,
  WatchlistEntryInput,
  WatchlistList,
} from "@pressguard/domain";
import { queryOptions } from "@tanstack/react-query";
import type { ApiClient } from "../../lib/api/request.ts";

/** The watchlists API (issue 20, decision 031): any signed-in user, their own lists only. */
export const watchlistsApi = {
  list: (client: ApiClient) => client.request<WatchlistList>("/watchlists"),
  create: (client: ApiClient, body: WatchlistCreation) =>
    client.request<WatchlistDetail>("/watchlists", { method: "POST", body }),
  get: (client: ApiClient, id: string) =>
    client.request<WatchlistDetail>(`/watchlists/${encodeURIComponent(id)}`),
  update: (client: ApiClient, id: string, body: { name?: string; alert_mode?: WatchAlertMode }) =>
    client.request<WatchlistDetail>(`/watchlists/${encodeURIComponent(id)}`, { method: "PATCH", body }),
  replaceEntries: (client: ApiClient, id: string, entries: WatchlistEntryInput[]) =>
    client.request<WatchlistDetail>(`/watchlists/${encodeURIComponent(id)}/entries`, {
      method: "PUT",
      body: { entries },
    }),
  remove: (client: ApiClient, id: string) =>
    client.request<null>(`/watchlists/${encodeURIComponent(id)}`, { method: "DELETE" }),
};

export const watchlistsKey = ["watchlists"] as const;
export const watchlistKey = (id: string) => ["watchlists", id] as const;

export const WATCHLISTS_FAILURE = "Error fetching your watchlists";
export const WATCHLIST_FAILURE = "Error fetching the watchlist";

export function watchlistsQuery(client: ApiClient) {
  return queryOptions({
    queryKey: watchlistsKey,
    queryFn: () => watchlistsApi.list(client),
    staleTime: 0,
    retry: false,
  });
}

export function watchlistQuery(client: ApiClient, id: string) {
  return queryOptions({
    queryKey: watchlistKey(id),
    queryFn: () => watchlistsApi.get(client, id),
    staleTime: 0,
    retry: false,
  });
}

export const watchlistPath = (id: string) => `/watchlists/${encodeURIComponent(id)}`;
