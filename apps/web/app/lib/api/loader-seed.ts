import { type QueryKey, useQueryClient } from "@tanstack/react-query";

/**
 * Puts an answer a page's loader read on the server into the query cache, when no query with that key
 * was ever made in this browser (or this server render): the page renders with it on the server,
 * hydrates with the same data and asks the API nothing. A query that exists keeps its own life — the
 * cache rules of its feature (a tab's list kept, a reset after a change) are never undone by a loader's
 * older answer.
 */
export function useLoaderSeed(queryKey: QueryKey, data: unknown): void {
  const queryClient = useQueryClient();
  if (data === null || data === undefined) return;
  if (queryClient.getQueryState(queryKey) !== undefined) return;
  queryClient.setQueryData(queryKey, data);
}
