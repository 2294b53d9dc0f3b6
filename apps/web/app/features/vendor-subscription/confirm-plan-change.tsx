import type { Subscription } from "@pressguard/domain";
import { useEffect, useId, useRef, useState } from "react";
import { useChangePlan } from "./use-change-plan.ts";

type Offer = Subscription["plans"][number];

/**
 * The confirm step of a plan change: what the vendor gets or gives up, the price, and for a
 * downgrade the seats and webhooks it needs gone. A refusal from the server (409) is shown here.
 */
export function ConfirmPlanChange({
  subscription,
  from,
  to,
  onClose,
}: {
  subscription: Subscription;
  from: Offer;
  to: Offer;
  onClose: () => void;
}) {
  const change = useChangePlan();
  const [refusal, setRefusal] = useState<string | null>(null);
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const upgrade = Number(to.price) > Number(from.price);

  useEffect(() => {
    dialog.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [onClose]);

  function confirm() {
    setRefusal(null);
    change.mutate(to.value, {
      onSuccess: onClose,
      onError: (error) =>
        setRefusal(
          error instanceof Error && error.message ? error.message : "The plan could not be changed.",
        ),
    });
  }

  const seatsOver = subscription.seats.used - to.seats;
  return (
    <div className="fixed inset-0 z-40 flex items-end justify-center bg-slate-950/50 p-4 sm:items-center">
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        className="w-full max-w-lg rounded-xl bg-white p-6 shadow-xl focus:outline-none sm:p-8"
      >
        <h2 id={titleId} className="text-xl font-semibold text-slate-900">
          {upgrade ? `Upgrade to ${to.label}?` : `Downgrade to ${to.label}?`}
        </h2>
        {upgrade ? (
          <p className="mt-3 text-slate-600">
            Your organisation moves to the {to.label} plan at{" "}
            <strong className="text-slate-900">
              {to.price} {to.currency}
            </strong>{" "}
            a month, starting today. An invoice for the first month is added to your history.
          </p>
        ) : (
          <div className="mt-3 space-y-2 text-slate-600">
            <p>
              Your organisation moves to the {to.label} plan ({to.price} {to.currency} a month): {to.seats}{" "}
              seats
              {to.webhooks ? "" : ", report forwarding by e-mail only"}.
            </p>
            {(seatsOver > 0 || (!to.webhooks && subscription.webhooks > 0)) && (
              <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
                You use {subscription.seats.used} seats
                {subscription.webhooks > 0 ? ` and ${subscription.webhooks} webhooks` : ""}: remove what the{" "}
                {to.label} plan does not include first.
              </p>
            )}
          </div>
        )}
        {refusal && (
          <p
            role="alert"
            className="mt-4 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
          >
            {refusal}
          </p>
        )}
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <button type="button" className="btn-secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="button" className="btn-primary" disabled={change.isPending} onClick={confirm}>
            {change.isPending
              ? "Changing…"
              : upgrade
                ? `Confirm: upgrade for ${to.price} ${to.currency}`
                : `Confirm: downgrade to ${to.label}`}
          </button>
        </div>
      </div>
    </div>
  );
}
