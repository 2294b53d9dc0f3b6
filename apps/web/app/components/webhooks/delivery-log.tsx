import { deliveredEventLabel, type ForwardDelivery, type Page } from "@pressguard/domain";
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { LoadError } from "../../ui/form-field.tsx";
import { formatTime } from "./webhook-labels.ts";

const DELIVERIES_FAILURE = "Error fetching the delivery log";

/** A delivery log's page; it refreshes every 2 s while a delivery is still on its way (a test event, a retry). */
export function deliveryLogQuery(
  key: readonly unknown[],
  page: number,
  fetch: () => Promise<Page<ForwardDelivery>>,
) {
  return queryOptions({
    queryKey: [...key, page],
    queryFn: fetch,
    staleTime: 0,
    retry: false,
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.data.some((delivery) => delivery.status === "pending") ? 2_000 : false,
  });
}

const STATUS_CLASS: Record<ForwardDelivery["status"], string> = {
  succeeded: "bg-lime-100 text-lime-900",
  pending: "bg-amber-100 text-amber-900",
  failed: "bg-red-100 text-red-900",
};

function statusText(delivery: ForwardDelivery): string {
  if (delivery.status === "pending") return delivery.attempts > 0 ? "Retrying" : "Queued";
  return delivery.status === "succeeded" ? "Delivered" : "Failed";
}

/**
 * One webhook's deliveries (report forwarding's or a watchlist's), newest first, with each one's
 * attempts and, when `onRedeliver` is given, a Redeliver button.
 */
export function DeliveryLog({
  query,
  onRedeliver,
}: {
  query: (page: number) => ReturnType<typeof deliveryLogQuery>;
  onRedeliver?: ((deliveryId: number) => void) | undefined;
}) {
  const [page, setPage] = useState(1);
  const log = useQuery(query(page));
  if (log.isError) return <LoadError message={DELIVERIES_FAILURE} />;
  if (!log.data) return <p className="text-sm text-slate-600">Loading…</p>;
  const { data, pagination } = log.data;
  if (data.length === 0)
    return <p className="text-sm text-slate-600">Nothing was sent to this target yet.</p>;

  return (
    <div>
      {/* relative: the header's sr-only label is absolutely placed, and would escape the scroll box. */}
      <div className="relative overflow-x-auto">
        <table className="min-w-full text-left text-sm" aria-label="Delivery log">
          <thead className="border-b border-slate-200 text-xs text-slate-500 uppercase">
            <tr>
              <th scope="col" className="py-2 pr-4 font-medium">
                Time
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                Event
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                Status
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                Code
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                Latency
              </th>
              <th scope="col" className="py-2 pr-4 font-medium">
                Response
              </th>
              <th scope="col" className="py-2 font-medium">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {data.map((delivery) => (
              <tr key={delivery.id} className="align-top">
                <td className="py-2 pr-4 whitespace-nowrap text-slate-600">
                  {formatTime(delivery.created_at)}
                </td>
                <td className="py-2 pr-4 whitespace-nowrap">
                  {deliveredEventLabel(delivery.event_type)}
                  {delivery.manual && <span className="ml-1 text-xs text-slate-500">(manual)</span>}
                </td>
                <td className="py-2 pr-4 whitespace-nowrap">
                  <span
                    className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_CLASS[delivery.status]}`}
                  >
                    {statusText(delivery)}
                  </span>
                  <span className="ml-2 text-xs text-slate-500">
                    {delivery.attempts} {delivery.attempts === 1 ? "attempt" : "attempts"}
                  </span>
                </td>
                <td className="py-2 pr-4 font-mono" data-testid="delivery-status-code">
                  {delivery.last_status_code ?? "—"}
                </td>
                <td className="py-2 pr-4 whitespace-nowrap">
                  {delivery.last_latency_ms === null ? "—" : `${delivery.last_latency_ms} ms`}
                </td>
                <td className="max-w-xs py-2 pr-4">
                  <AttemptDetails delivery={delivery} />
                </td>
                <td className="py-2 text-right">
                  {onRedeliver && delivery.status !== "pending" && (
                    <button
                      type="button"
                      className="btn-secondary px-2 py-1 text-xs"
                      onClick={() => onRedeliver(delivery.id)}
                    >
                      Redeliver
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pagination.last_page > 1 && (
        <div className="mt-3 flex items-center justify-between text-sm">
          <button
            type="button"
            className="btn-secondary px-3 py-1"
            disabled={page <= 1}
            onClick={() => setPage(page - 1)}
          >
            Newer
          </button>
          <span className="text-slate-600">
            Page {pagination.current_page} of {pagination.last_page}
          </span>
          <button
            type="button"
            className="btn-secondary px-3 py-1"
            disabled={page >= pagination.last_page}
            onClick={() => setPage(page + 1)}
          >
            Older
          </button>
        </div>
      )}
    </div>
  );
}

function AttemptDetails({ delivery }: { delivery: ForwardDelivery }) {
  const excerpt = delivery.last_response_excerpt ?? "";
  if (delivery.attempt_log.length <= 1)
    return (
      <span className="block truncate font-mono text-xs text-slate-600" title={excerpt}>
        {excerpt || "—"}
      </span>
    );
  return (
    <details>
      <summary className="cursor-pointer truncate font-mono text-xs text-slate-600">{excerpt || "—"}</summary>
      <ol className="mt-2 space-y-1 text-xs text-slate-600">
        {delivery.attempt_log.map((attempt) => (
          <li key={attempt.attempted_at}>
            {formatTime(attempt.attempted_at)} · {attempt.status_code ?? "no answer"} · {attempt.latency_ms}{" "}
            ms
            {attempt.response_excerpt && (
              <span className="block truncate font-mono">{attempt.response_excerpt}</span>
            )}
          </li>
        ))}
      </ol>
    </details>
  );
}
