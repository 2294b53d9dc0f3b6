import type { ProductDetails } from "@pressguard/domain";
import { useQuery } from "@tanstack/react-query";
import { useApiClient } from "../../lib/api/client.ts";
import { useLoaderSeed } from "../../lib/api/loader-seed.ts";
import { LoadError } from "../../ui/form-field.tsx";
import { FETCH_FAILURES, productDetailsQuery, programKeys } from "./api.ts";
import { Counter } from "./labels.tsx";

const COUNTERS: { key: keyof ProductDetails; label: string }[] = [
  { key: "active", label: "Active programs" },
  { key: "pending", label: "Pending programs" },
  { key: "open", label: "With open reports" },
  { key: "reports", label: "Reports" },
  { key: "fixed", label: "Fixed" },
  { key: "fixedOnTime", label: "Fixed on time" },
];

/**
 * Spec §3 product detail counters over all of the vendor's programs, above the list tabs. `seed`: the
 * counters as the page's loader read them, shown until the cache has its own.
 */
export function ProgramCounters({ seed }: { seed: ProductDetails | null }) {
  const client = useApiClient();
  useLoaderSeed(programKeys.details(), seed);
  const details = useQuery(productDetailsQuery(client));
  if (details.isError) {
    return (
      <div className="mb-6">
        <LoadError message={FETCH_FAILURES.productsDetails} />
      </div>
    );
  }
  return (
    <dl aria-label="Program counters" className="mb-6 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
      {COUNTERS.map(({ key, label }) => (
        <Counter key={key} label={label} value={details.data ? details.data[key] : "–"} />
      ))}
    </dl>
  );
}
