import type { ProgramFilter } from "@pressguard/domain";
import type { QueryClient } from "@tanstack/react-query";
import { programKeys } from "./api.ts";

/**
 * Spec §4: lists are cached once loaded; switching tabs or changing the product list resets the
 * cached project data. The tab last shown is remembered per query client (one per page load).
 */
const lastTabs = new WeakMap<QueryClient, ProgramFilter>();

/**
 * Called when a program list tab is shown. Coming back to the same tab (from a program page, say)
 * keeps its cache; moving to another tab drops every list but the one now shown, so that each tab
 * is loaded afresh when it is next opened.
 */
export function switchProgramTab(queryClient: QueryClient, filter: ProgramFilter): boolean {
  const previous = lastTabs.get(queryClient);
  lastTabs.set(queryClient, filter);
  if (previous === undefined || previous === filter) return false;
  const current = programKeys.list(filter);
  queryClient.removeQueries({
    queryKey: programKeys.lists(),
    predicate: (query) => query.queryKey[2] !== current[2],
  });
  return true;
}

/**
 * After anything that changes the product list (create, edit, activate, import, claim): every
 * cached list, the counters, the single products and the lobby go; the ones on screen load again.
 */
export function resetProgramData(queryClient: QueryClient): Promise<void> {
  return queryClient.resetQueries({ queryKey: programKeys.all });
}
