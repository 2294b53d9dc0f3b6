import { useQuery } from "@tanstack/react-query";
import { useLocation, useNavigate, useParams } from "react-router";
import { AlertWebhooks } from "../../features/watchlists/alert-webhooks.tsx";
import { WATCHLIST_FAILURE, watchlistQuery } from "../../features/watchlists/api.ts";
import type { CreatedState } from "../../features/watchlists/create-form.tsx";
import { EntryItem } from "../../features/watchlists/entry-item.tsx";
import { exposureLine, orderEntries, withVersion } from "../../features/watchlists/inventory.ts";
import { InventoryProblems } from "../../features/watchlists/inventory-fields.tsx";
import { ReuploadForm } from "../../features/watchlists/reupload-form.tsx";
import { useWatchlistActions } from "../../features/watchlists/use-watchlist-actions.ts";
import { AlertModeForm, DeleteWatchlist, RenameForm } from "../../features/watchlists/watchlist-settings.tsx";
import { isApiError } from "../../lib/api/api-error.ts";
import { useApiClient } from "../../lib/api/client.ts";
import { guardedLoader } from "../../lib/guards.server.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { LoadError } from "../../ui/form-field.tsx";
import { Link } from "../../ui/link.tsx";
import { PageHeader, Panel } from "../../ui/page-header.tsx";
import { toast } from "../../ui/toast.ts";

/** Issue 20: the owner's watchlist (another user's answers as an unknown one: not found, in the page). */
export const handle: RouteHandle = { guards: ["auth-user"], menu: "watchlists" };

/** Spec §6: the guards named in `handle`, enforced before the page renders. */
export const loader = guardedLoader(handle);
export const meta = pageMeta(
  "Watchlist",
  "See the known vulnerabilities that affect the plugins, themes and WordPress version of one of your sites, and what to update.",
);

const BACK = (
  <Link to="/watchlists" className="link text-sm">
    ← All watchlists
  </Link>
);

export default function WatchlistPage() {
  const id = useParams().id ?? "";
  const client = useApiClient();
  const navigate = useNavigate();
  const created = useLocation().state as CreatedState | null;
  const watchlist = useQuery(watchlistQuery(client, id));
  const actions = useWatchlistActions(id);

  if (watchlist.isError) {
    const notFound = isApiError(watchlist.error) && watchlist.error.status === 404;
    return (
      <>
        <PageHeader eyebrow={BACK} title={notFound ? "Watchlist not found" : "Watchlist"} />
        {notFound ? (
          <Panel>This watchlist does not exist, or it is not yours. Open one from your watchlists.</Panel>
        ) : (
          <LoadError message={WATCHLIST_FAILURE} />
        )}
      </>
    );
  }
  if (!watchlist.data)
    return (
      <>
        <PageHeader eyebrow={BACK} title="Watchlist" />
        <Panel>Loading…</Panel>
      </>
    );
  const data = watchlist.data;
  const entries = orderEntries(data.items);

  return (
    <>
      <PageHeader eyebrow={BACK} title={data.name} lead={exposureLine(data)} />
      <div className="space-y-6">
        {created && created.problems.length > 0 && <InventoryProblems problems={created.problems} />}
        <section aria-labelledby="entries-heading">
          <h2 id="entries-heading" className="text-xl font-semibold text-slate-900">
            Entries
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            Change a version once you have updated: the exposures are read again.
          </p>
          {entries.length === 0 ? (
            <p className="mt-4 text-sm text-slate-600">No entries: upload the site's inventory below.</p>
          ) : (
            <ul className="mt-4 space-y-3">
              {entries.map((entry) => (
                <EntryItem
                  key={`${entry.kind}:${entry.slug}`}
                  entry={entry}
                  onVersion={async (version) => {
                    await actions.replaceEntries(withVersion(data.items, entry, version));
                    toast.success(`${entry.slug} is now at ${version}.`);
                  }}
                />
              ))}
            </ul>
          )}
        </section>
        <Panel>
          <h2 className="mb-1 text-lg font-semibold text-slate-900">Upload a new inventory</h2>
          <p className="mb-4 text-sm text-slate-600">It replaces every entry of this watchlist.</p>
          <ReuploadForm onReplace={actions.replaceEntries} />
        </Panel>
        <Panel>
          <h2 className="mb-4 text-lg font-semibold text-slate-900">Alerts</h2>
          <AlertModeForm key={data.alert_mode} watchlist={data} onChange={actions.setAlertMode} />
        </Panel>
        <Panel>
          <h2 className="mb-4 text-lg font-semibold text-slate-900">Alert webhooks</h2>
          <AlertWebhooks watchlistId={data.id} />
        </Panel>
        <Panel>
          <h2 className="mb-4 text-lg font-semibold text-slate-900">Settings</h2>
          <div className="space-y-6">
            <RenameForm key={data.name} watchlist={data} onRename={actions.rename} />
            <DeleteWatchlist
              watchlist={data}
              onDelete={async () => {
                await actions.remove();
                toast.success("Watchlist deleted.");
                navigate("/watchlists");
              }}
            />
          </div>
        </Panel>
      </div>
    </>
  );
}
