import type { VulnerabilitySummary } from "@pressguard/domain";
import { useQuery } from "@tanstack/react-query";
import { useApiClient } from "../../lib/api/client.ts";
import { reportsApi } from "./api.ts";
import type { ChosenProduct } from "./chosen-product.ts";

/** PRODUCT.md §2: the known vulnerabilities of the chosen product, offered before reporting. */
export function KnownVulnerabilities({
  productId,
  product,
  count,
}: {
  productId: number;
  product: ChosenProduct;
  count: number | undefined;
}) {
  const client = useApiClient();
  const present = useQuery({
    queryKey: ["report-form", "known", productId, "present"],
    queryFn: () => reportsApi.findKnownVulnerabilities(client, productId, "present"),
    staleTime: 60_000,
    retry: false,
  });
  const fixed = useQuery({
    queryKey: ["report-form", "known", productId, "fixed"],
    queryFn: () => reportsApi.findKnownVulnerabilities(client, productId, "fixed"),
    staleTime: 60_000,
    retry: false,
  });
  const existingPath = `/database/existing?${new URLSearchParams({ q: product.slug, kind: product.kind })}`;
  const items: VulnerabilitySummary[] = [...(present.data?.data ?? []), ...(fixed.data?.data ?? [])].slice(
    0,
    5,
  );
  const total = (present.data?.pagination.total ?? 0) + (fixed.data?.pagination.total ?? 0) || (count ?? 0);

  return (
    <section
      aria-labelledby="known-vulnerabilities"
      className="rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id="known-vulnerabilities" className="font-semibold text-slate-900">
        Is it already known?
      </h2>
      {total === 0 && present.isSuccess && fixed.isSuccess ? (
        <p className="mt-1 text-sm text-slate-600">
          No vulnerability of {product.name} is in the database yet.
        </p>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-600">
            {product.name} has {total} known {total === 1 ? "vulnerability" : "vulnerabilities"}. If yours is
            one of them for the version you tested, it is already known.
          </p>
          {items.length > 0 && (
            <ul className="mt-3 space-y-2 text-sm">
              {items.map((item) => (
                <li key={item.id} className="break-words">
                  <a
                    className="link"
                    href={`/database/${item.product.platform}/${item.product.kind}/${encodeURIComponent(item.product.slug)}/vulnerability/${encodeURIComponent(item.slug)}`}
                    target="_blank"
                    rel="noopener"
                  >
                    {item.title}
                  </a>{" "}
                  {item.patched && item.fixed_in && (
                    <span className="text-slate-500">fixed in {item.fixed_in}</span>
                  )}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      <p className="mt-3 text-sm">
        <a className="link" href={existingPath} target="_blank" rel="noopener">
          Search all known vulnerabilities of {product.name}
        </a>
      </p>
    </section>
  );
}
