import type { PublicProduct } from "@pressguard/domain";
import { formatDay } from "../../lib/dates.ts";
import { formatCount } from "../../lib/numbers.ts";

type ProductFactsSource = Pick<
  PublicProduct,
  "version" | "active_installs" | "directory_updated" | "closed_at"
>;

/**
 * What the WordPress.org directory says of a product (issue 34): its current version, its active
 * installs and its last update, and whether the directory closed it. Nothing for a product the
 * directory does not describe (WordPress core has only its version).
 */
export function ProductFacts({ product }: { product: ProductFactsSource }) {
  const facts = [
    { label: "Current version", value: product.version },
    {
      label: "Active installs",
      value: product.active_installs == null ? null : `${formatCount(product.active_installs)}+`,
    },
    { label: "Last updated", value: formatDay(product.directory_updated) ?? product.directory_updated },
  ].filter((fact): fact is { label: string; value: string } => Boolean(fact.value));
  const closed = formatDay(product.closed_at);
  if (facts.length === 0 && !closed) return null;
  return (
    <div className="mb-6 space-y-3" data-testid="product-facts">
      {closed && (
        <p
          role="note"
          className="rounded-lg border border-amber-500 bg-amber-50 px-4 py-3 text-sm font-semibold text-amber-950"
        >
          Closed on WordPress.org on {closed}: it can no longer be downloaded there, and may get no further
          updates.
        </p>
      )}
      {facts.length > 0 && (
        <dl className="flex flex-wrap gap-x-8 gap-y-2 text-sm">
          {facts.map((fact) => (
            <div key={fact.label}>
              <dt className="text-slate-600">{fact.label}</dt>
              <dd className="font-semibold text-slate-900">{fact.value}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}
