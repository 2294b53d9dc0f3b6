import { useQuery } from "@tanstack/react-query";
import { WATCHLISTS_FAILURE, watchlistsQuery } from "../../features/watchlists/api.ts";
import { CreateWatchlistForm } from "../../features/watchlists/create-form.tsx";
import { WatchlistList } from "../../features/watchlists/watchlist-list.tsx";
import { useApiClient } from "../../lib/api/client.ts";
import { guardedLoader } from "../../lib/guards.server.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { LoadError } from "../../ui/form-field.tsx";
import { PageHeader, Panel } from "../../ui/page-header.tsx";

/** Issue 20: any signed-in user (a site owner's home) keeps watchlists. */
export const handle: RouteHandle = { guards: ["auth-user"], menu: "watchlists" };

/** Spec §6: the guards named in `handle`, enforced before the page renders. */
export const loader = guardedLoader(handle);
export const meta = pageMeta(
  "Watchlists",
  "Keep a watchlist per site and get an e-mail when a vulnerability affects a plugin, theme or WordPress version it runs.",
);

export default function WatchlistsPage() {
  const client = useApiClient();
  const watchlists = useQuery(watchlistsQuery(client));
  return (
    <>
      <PageHeader
        title="Watchlists"
        lead="The plugins, themes and WordPress version each of your sites runs, with the known vulnerabilities that affect them and the version to update to."
      />
      <div className="space-y-6">
        <Panel>
          <h2 className="mb-4 text-lg font-semibold text-slate-900">Your watchlists</h2>
          {watchlists.isError ? (
            <LoadError message={WATCHLISTS_FAILURE} />
          ) : watchlists.data ? (
            <WatchlistList watchlists={watchlists.data.data} />
          ) : (
            <p className="text-sm text-slate-600">Loading…</p>
          )}
        </Panel>
        <Panel>
          <h2 className="mb-1 text-lg font-semibold text-slate-900">New watchlist</h2>
          <p className="mb-4 text-sm text-slate-600">
            One per site. We e-mail you when a new vulnerability affects a version it runs.
          </p>
          <CreateWatchlistForm />
        </Panel>
      </div>
    </>
  );
}
