import type { ForwardDelivery } from "@pressguard/domain";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useApiClient } from "../../lib/api/client.ts";
import { LoadError } from "../../ui/form-field.tsx";
import { DELIVERIES_FAILURE, deliveriesQuery } from "./api.ts";
import { eventLabel, formatTime } from "./labels.ts";

const STATUS_CLASS: Record<ForwardDelivery["status"], string> = {
  succeeded: "bg-lime-100 text-lime-900",
  pending: "bg-amber-100 text-amber-900",
  failed: "bg-red-100 text-red-900",
};

function statusText(delivery: ForwardDelivery): string {
  if (delivery.status === "pending") return delivery.attempts > 0 ? "Retrying" : "Queued";
  return delivery.status === "succeeded" ? "Delivered" : "Failed";
}

/** One target's deliveries, newest first, with each one's attempts and a Redeliver button. */
export function DeliveryLog({
  targetId,
  canRedeliver,
  onRedeliver,
}: {
  targetId: number;
  canRedeliver: boolean;
  onRedeliver: (deliveryId: number) => void;
}) {
  const client = useApiClient();
  const [page, setPage] = useState(1);
  const log = useQuery(deliveriesQuery(client, targetId, page));
  if (log.isError) return <LoadError message={DELIVERIES_FAILURE} />;
  if (!log.data) return <p className="text-sm text-slate-600">Loading…</p>;
  const { data, pagination } = log.data;
  if (data.length === 0)
    return <p className="text-sm text-slate-600">Nothing was sent to this target yet.</p>;

  return (
    <div>
      <div className="overflow-x-auto">
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
                  {eventLabel(delivery.event_type)}
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
                  {canRedeliver && delivery.status !== "pending" && (
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
