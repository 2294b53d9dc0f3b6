import type { WatchAlertMode, WatchlistDetail, WatchlistEntryInput } from "@pressguard/domain";
import { useQueryClient } from "@tanstack/react-query";
import { useApiClient } from "../../lib/api/client.ts";
import { watchlistKey, watchlistsApi, watchlistsKey } from "./api.ts";

/**
 * A watchlist's changes: each answer is the watchlist as it now reads (exposures recomputed), put in
 * place of the page's copy; the list of watchlists reloads for its counts.
 */
export function useWatchlistActions(id: string) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const settle = async (detail: WatchlistDetail) => {
    queryClient.setQueryData(watchlistKey(id), detail);
    await queryClient.invalidateQueries({ queryKey: watchlistsKey, exact: true });
    return detail;
  };
  return {
    rename: async (name: string) => settle(await watchlistsApi.update(client, id, { name })),
    setAlertMode: async (mode: WatchAlertMode) =>
      settle(await watchlistsApi.update(client, id, { alert_mode: mode })),
    replaceEntries: async (entries: WatchlistEntryInput[]) =>
      settle(await watchlistsApi.replaceEntries(client, id, entries)),
    remove: async () => {
      await watchlistsApi.remove(client, id);
      queryClient.removeQueries({ queryKey: watchlistKey(id) });
      await queryClient.invalidateQueries({ queryKey: watchlistsKey, exact: true });
    },
  };
}
