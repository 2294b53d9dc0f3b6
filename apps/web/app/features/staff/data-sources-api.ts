import type { DataSourceList, DataSourceSyncResult } from "@pressguard/domain";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { useApiClient } from "../../lib/api/client.ts";
import type { ApiClient } from "../../lib/api/request.ts";
import { messageOf } from "../../lib/errors.ts";
import { toast } from "../../ui/toast.ts";

/** `GET /api/staff/data-sources` and `POST /api/staff/data-sources/{source}/sync` (issue 34, decision 035). */
const dataSourcesKey = ["staff", "data-sources"] as const;

export function dataSourcesQuery(client: ApiClient) {
  return queryOptions({
    queryKey: dataSourcesKey,
    queryFn: () => client.request<DataSourceList>("/staff/data-sources"),
    // A run started elsewhere (the schedule, another instance) shows up without a reload.
    refetchInterval: 15_000,
    retry: false,
  });
}

const COUNT_WORDS = (result: DataSourceSyncResult) => {
  const counts = result.counts;
  if (!counts) return "";
  return `: ${counts.new} new, ${counts.changed} changed, ${counts.unchanged} unchanged, ${counts.withdrawn} withdrawn, ${counts.rejected} rejected`;
};

/** "Sync now": the outcome in a toast, the list refetched either way. */
export function useSyncNow() {
  const client = useApiClient();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (source: string) =>
      client.request<DataSourceSyncResult>(`/staff/data-sources/${encodeURIComponent(source)}/sync`, {
        method: "POST",
        retry: 0,
        // A full first sync of the Wordfence feed reads ≈160 MB.
        timeout: 10 * 60_000,
      }),
    onSuccess: (result) => {
      const label = result.status.label;
      if (result.outcome === "synced") toast.success(`${label} synced${COUNT_WORDS(result)}.`);
      else if (result.outcome === "not_modified") toast.info(`${label}: nothing new since the last sync.`);
      else toast.error(`${label} failed: ${result.error ?? "unknown error"}`);
    },
    onError: (error) => {
      toast.error(messageOf(error));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: dataSourcesKey }),
  });
}
