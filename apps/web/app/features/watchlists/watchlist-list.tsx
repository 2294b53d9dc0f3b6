import type { WatchlistSummary } from "@pressguard/domain";
import { Link } from "../../ui/link.tsx";
import { watchlistPath } from "./api.ts";
import { ALERT_MODE_LABELS, exposureLine } from "./inventory.ts";

/** The account's watchlists, each with its counts and its alerts, linking to its page. */
export function WatchlistList({ watchlists }: { watchlists: readonly WatchlistSummary[] }) {
  if (watchlists.length === 0)
    return (
      <p className="text-sm text-slate-600">
        No watchlists yet. Create one below from your site's plugin list.
      </p>
    );
  return (
    <ul className="divide-y divide-slate-200 rounded-md border border-slate-200" aria-label="Your watchlists">
      {watchlists.map((watchlist) => (
        <li
          key={watchlist.id}
          className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 px-4 py-3"
          data-testid="watchlist-summary"
        >
          <div className="min-w-0">
            <Link to={watchlistPath(watchlist.id)} className="link font-semibold break-all">
              {watchlist.name}
            </Link>
            <p className={`text-sm ${watchlist.exposed_entries > 0 ? "text-red-800" : "text-slate-600"}`}>
              {exposureLine(watchlist)}
            </p>
          </div>
          <p className="text-sm text-slate-600">Alerts: {ALERT_MODE_LABELS[watchlist.alert_mode]}</p>
        </li>
      ))}
    </ul>
  );
}
