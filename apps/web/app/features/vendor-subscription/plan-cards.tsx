import type { Subscription, SubscriptionPlan } from "@pressguard/domain";
import { useState } from "react";
import { ConfirmPlanChange } from "./confirm-plan-change.tsx";

type Offer = Subscription["plans"][number];

/**
 * The two plans side by side (PRODUCT.md §4) with their price and what each includes; the current
 * one is marked, the other offers the upgrade or downgrade behind a confirm step.
 */
export function PlanCards({ subscription }: { subscription: Subscription }) {
  const [chosen, setChosen] = useState<SubscriptionPlan | null>(null);
  const current = subscription.plans.find((plan) => plan.value === subscription.plan);
  const target = subscription.plans.find((plan) => plan.value === chosen);
  return (
    <>
      <ul aria-label="Plans" className="grid gap-4 md:grid-cols-2">
        {subscription.plans.map((plan) => (
          <PlanCard
            key={plan.value}
            plan={plan}
            current={plan.value === subscription.plan}
            upgrade={Number(plan.price) > Number(current?.price ?? 0)}
            onChoose={() => setChosen(plan.value)}
          />
        ))}
      </ul>
      {current && target && (
        <ConfirmPlanChange
          subscription={subscription}
          from={current}
          to={target}
          onClose={() => setChosen(null)}
        />
      )}
    </>
  );
}

function PlanCard({
  plan,
  current,
  upgrade,
  onChoose,
}: {
  plan: Offer;
  current: boolean;
  upgrade: boolean;
  onChoose: () => void;
}) {
  const headingId = `plan-${plan.value}-heading`;
  return (
    <li
      aria-labelledby={headingId}
      aria-current={current ? "true" : undefined}
      className={`flex flex-col rounded-lg border bg-white p-6 shadow-sm ${
        current ? "border-lime-700 ring-2 ring-lime-700" : "border-slate-200"
      }`}
    >
      <div className="flex items-start justify-between gap-3">
        <h2 id={headingId} className="text-xl font-semibold text-slate-900">
          {plan.label}
        </h2>
        {current && (
          <span className="rounded-full bg-lime-100 px-2.5 py-0.5 text-xs font-semibold text-lime-900">
            Current plan
          </span>
        )}
      </div>
      <p className="mt-3 text-slate-900">
        <span className="text-3xl font-bold tabular-nums">{plan.price}</span>{" "}
        <span className="text-sm text-slate-600">{plan.currency} a month</span>
      </p>
      <ul className="mt-4 flex-1 space-y-2 text-sm text-slate-700">
        {plan.features.map((feature) => (
          <li key={feature} className="flex gap-2">
            <span aria-hidden="true" className="text-lime-700">
              ✓
            </span>
            {feature}
          </li>
        ))}
      </ul>
      {!current && (
        <button
          type="button"
          className={`mt-6 ${upgrade ? "btn-primary" : "btn-secondary"}`}
          onClick={onChoose}
        >
          {upgrade ? `Upgrade to ${plan.label}` : `Downgrade to ${plan.label}`}
        </button>
      )}
    </li>
  );
}
