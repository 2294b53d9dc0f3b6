import { planByValue, softwareTypeByValue } from "@pressguard/domain";

export function kindLabel(kind: string): string {
  return softwareTypeByValue.get(kind)?.label ?? kind.charAt(0).toUpperCase() + kind.slice(1);
}

/** Spec §3: plans free, premium (label Paid), both. */
export function planLabel(plan: string): string {
  return planByValue.get(plan)?.label ?? plan;
}

export function StatusBadge({ active }: { active: boolean }) {
  return active ? (
    <span className="inline-flex items-center rounded-full bg-lime-100 px-2.5 py-0.5 text-xs font-semibold text-lime-900">
      Active
    </span>
  ) : (
    <span className="inline-flex items-center rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-900">
      Pending
    </span>
  );
}

export function Counter({ label, value }: { label: string; value: number | string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white px-4 py-3 shadow-sm">
      <dt className="text-xs font-medium text-slate-500">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-slate-900 tabular-nums">{value}</dd>
    </div>
  );
}
