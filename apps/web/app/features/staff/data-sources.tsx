import type { DataSourceStatus } from "@pressguard/domain";
import { useQuery } from "@tanstack/react-query";
import { useApiClient } from "../../lib/api/client.ts";
import { formatDateTime } from "../../lib/dates.ts";
import { LoadError } from "../../ui/form-field.tsx";
import { dataSourcesQuery, useSyncNow } from "./data-sources-api.ts";

/**
 * `/staff/data-sources` (issue 34): per upstream source, whether it is configured, its last success and
 * attempt, the counts of its last run, its last error in words, and "Sync now".
 */
export function StaffDataSources() {
  const client = useApiClient();
  const sources = useQuery(dataSourcesQuery(client));
  const sync = useSyncNow();
  if (sources.isError) return <LoadError message="Error fetching the data sources" />;
  if (!sources.data)
    return (
      <p className="text-slate-600" aria-busy="true">
        Loading the data sources…
      </p>
    );
  return (
    <ul className="grid gap-4 md:grid-cols-2">
      {sources.data.data.map((source) => (
        <li key={source.source}>
          <SourceCard
            source={source}
            syncing={source.syncing || (sync.isPending && sync.variables === source.source)}
            onSync={() => sync.mutate(source.source)}
          />
        </li>
      ))}
    </ul>
  );
}

function SourceCard({
  source,
  syncing,
  onSync,
}: {
  source: DataSourceStatus;
  syncing: boolean;
  onSync: () => void;
}) {
  const headingId = `data-source-${source.source}`;
  return (
    <section
      aria-labelledby={headingId}
      className="flex h-full flex-col rounded-lg border border-slate-200 bg-white p-4 shadow-sm"
    >
      <div className="flex items-start justify-between gap-3">
        <h2 id={headingId} className="text-lg font-semibold text-slate-900">
          {source.label}
        </h2>
        <StateBadge source={source} syncing={syncing} />
      </div>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-500">Holds</dt>
        <dd className="text-slate-900">
          {source.held.count.toLocaleString("en")} {source.held.what}
        </dd>
        <dt className="text-slate-500">Last success</dt>
        <dd className="text-slate-900">{formatDateTime(source.last_success_at) ?? "Never"}</dd>
        <dt className="text-slate-500">Last attempt</dt>
        <dd className="text-slate-900">{formatDateTime(source.last_attempt_at) ?? "Never"}</dd>
        {source.next_attempt_at && (
          <>
            <dt className="text-slate-500">Next try</dt>
            <dd className="text-slate-900">{formatDateTime(source.next_attempt_at)}</dd>
          </>
        )}
        <dt className="text-slate-500">Last run</dt>
        <dd className="text-slate-900">
          {source.last_counts
            ? `${source.last_counts.new} new, ${source.last_counts.changed} changed, ${source.last_counts.unchanged} unchanged, ${source.last_counts.withdrawn} withdrawn, ${source.last_counts.rejected} rejected`
            : "No run has read a document yet"}
        </dd>
      </dl>
      {source.last_error && (
        <p role="alert" className="mt-3 rounded-md bg-red-50 p-2 text-sm text-red-800">
          {source.last_error}
        </p>
      )}
      <div className="mt-auto pt-4">
        {source.configured ? (
          <button type="button" className="btn-primary" onClick={onSync} disabled={syncing}>
            {syncing ? "Syncing…" : "Sync now"}
          </button>
        ) : (
          <p className="text-sm text-slate-600">Not configured: see the README for its variables.</p>
        )}
      </div>
    </section>
  );
}

function StateBadge({ source, syncing }: { source: DataSourceStatus; syncing: boolean }) {
  const [text, tone] = !source.configured
    ? ["Off", "bg-slate-100 text-slate-700"]
    : syncing
      ? ["Syncing", "bg-sky-100 text-sky-800"]
      : source.last_error
        ? ["Failing", "bg-red-100 text-red-800"]
        : source.last_success_at
          ? ["Connected", "bg-emerald-100 text-emerald-800"]
          : ["Not synced yet", "bg-amber-100 text-amber-800"];
  return <span className={`shrink-0 rounded-full px-2.5 py-0.5 text-xs font-medium ${tone}`}>{text}</span>;
}
