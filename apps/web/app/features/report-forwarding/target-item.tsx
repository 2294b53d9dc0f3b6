import type { ForwardTarget, ForwardTargetWithSecret } from "@pressguard/domain";
import { useState } from "react";
import { DeliveryLog } from "../../components/webhooks/delivery-log.tsx";
import { useApiClient } from "../../lib/api/client.ts";
import { deliveriesQuery } from "./api.ts";
import { eventsSummary, formatLabel, statusLabel } from "./labels.ts";
import { TargetSettings } from "./target-settings.tsx";
import { useTargetActions } from "./use-target-actions.ts";

const STATUS_CLASS: Record<ForwardTarget["status"], string> = {
  active: "bg-lime-100 text-lime-900",
  pending: "bg-amber-100 text-amber-900",
  disabled: "bg-slate-200 text-slate-800",
};

/** One target: what and where it forwards, its state, its buttons and its delivery log. */
export function TargetItem({
  target,
  premium,
  onSecret,
}: {
  target: ForwardTarget;
  premium: boolean;
  onSecret: (created: ForwardTargetWithSecret) => void;
}) {
  const client = useApiClient();
  const { act, rotate, redeliver, busy } = useTargetActions(target.id, onSecret);
  const [editing, setEditing] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const address = target.kind === "webhook" ? target.url : target.email;
  const sendable = target.status === "active" && (target.kind === "email" || premium);

  function remove() {
    if (window.confirm(`Delete the target ${address}? Its delivery log is deleted too.`))
      act.mutate("delete");
  }

  return (
    <li className="space-y-3 px-4 py-4" data-testid="forward-target">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1 basis-64">
          <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">
            {target.kind === "webhook" ? `Webhook · ${formatLabel(target.format)}` : "E-mail"}
          </p>
          <p className="truncate font-medium text-slate-900" title={address ?? ""}>
            {address}
          </p>
          <p className="mt-1 text-sm text-slate-600">{eventsSummary(target.events)}</p>
        </div>
        <div className="text-right text-xs text-slate-600">
          <span className={`rounded-full px-2 py-0.5 font-medium ${STATUS_CLASS[target.status]}`}>
            {statusLabel(target)}
          </span>
          {target.consecutive_failures > 0 && (
            <p className="mt-1 text-red-800">
              {target.consecutive_failures} failed{" "}
              {target.consecutive_failures === 1 ? "delivery" : "deliveries"} in a row
            </p>
          )}
          {target.kind === "webhook" && !premium && (
            <p className="mt-1 text-amber-900">Paused: webhooks need the premium plan.</p>
          )}
        </div>
      </div>
      {target.status === "disabled" && target.disabled_reason && (
        <p className="text-sm text-slate-700">Disabled: {target.disabled_reason}</p>
      )}
      <div className="flex flex-wrap gap-2">
        {target.status === "pending" && (
          <button
            type="button"
            className="btn-secondary px-3 py-1.5"
            disabled={busy}
            onClick={() => act.mutate("resend-confirmation")}
          >
            Resend confirmation
          </button>
        )}
        {sendable && (
          <button
            type="button"
            className="btn-secondary px-3 py-1.5"
            disabled={busy}
            onClick={() => act.mutate("test")}
          >
            Send test event
          </button>
        )}
        {target.kind === "webhook" && (
          <button
            type="button"
            className="btn-secondary px-3 py-1.5"
            disabled={busy}
            onClick={() => rotate.mutate()}
          >
            Rotate secret
          </button>
        )}
        <button type="button" className="btn-secondary px-3 py-1.5" onClick={() => setEditing(!editing)}>
          Edit events
        </button>
        {target.status === "disabled" ? (
          <button
            type="button"
            className="btn-secondary px-3 py-1.5"
            disabled={busy}
            onClick={() => act.mutate("enable")}
          >
            Enable
          </button>
        ) : (
          <button
            type="button"
            className="btn-secondary px-3 py-1.5"
            disabled={busy}
            onClick={() => act.mutate("disable")}
          >
            Disable
          </button>
        )}
        <button
          type="button"
          className="btn-secondary px-3 py-1.5"
          aria-expanded={showLog}
          onClick={() => setShowLog(!showLog)}
        >
          {showLog ? "Hide delivery log" : "Delivery log"}
        </button>
        <button
          type="button"
          className="btn-secondary px-3 py-1.5 text-red-800"
          disabled={busy}
          onClick={remove}
          aria-label={`Delete ${address}`}
        >
          Delete
        </button>
      </div>
      {editing && <TargetSettings target={target} onDone={() => setEditing(false)} />}
      {showLog && (
        <DeliveryLog
          query={(page) => deliveriesQuery(client, target.id, page)}
          onRedeliver={sendable ? (id) => redeliver.mutate(id) : undefined}
        />
      )}
    </li>
  );
}
