import type { VulnerabilitySearchPage } from "@pressguard/domain";
import { formatCount } from "../../lib/numbers.ts";
import { kindLabel } from "../../lib/report-labels.ts";
import { Link } from "../../ui/link.tsx";
import { databasePaths } from "./paths.ts";

/**
 * What a search names before its records (issue 17): "did you mean", the products (name, kind,
 * current version, installs, known and unfixed vulnerabilities) and the researchers.
 */
export function SearchMatches({ results, query }: { results: VulnerabilitySearchPage; query: string }) {
  const { products, researchers, did_you_mean: didYouMean } = results;
  if (products.length === 0 && researchers.length === 0 && !didYouMean) return null;
  return (
    <div className="mt-8 space-y-6">
      {didYouMean && (
        <p className="rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          No product is named “{query}”. Did you mean{" "}
          <Link to={`/database?q=${encodeURIComponent(didYouMean)}`} className="link font-semibold">
            {didYouMean}
          </Link>
          ? The records of the product most alike are listed first.
        </p>
      )}
      {products.length > 0 && (
        <section aria-labelledby="product-matches-heading">
          <h2 id="product-matches-heading" className="mb-3 text-xl font-semibold text-slate-900">
            Products
          </h2>
          <ul className="grid gap-3 md:grid-cols-2">
            {products.map((product) => (
              <li key={product.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
                <Link
                  to={databasePaths.product(product)}
                  className="font-semibold break-words text-slate-900 underline-offset-2 hover:underline"
                >
                  {product.name}
                </Link>
                <p className="mt-1 text-sm break-words text-slate-600">
                  {kindLabel(product.kind)} · <span className="font-mono">{product.slug}</span>
                  {product.version && <> · current version {product.version}</>}
                  {product.active_installs != null && (
                    <> · {formatCount(product.active_installs)}+ installs</>
                  )}
                </p>
                <p className="mt-2 text-sm">
                  {product.vulnerabilities === 0 ? (
                    <span className="text-slate-700">No known vulnerability</span>
                  ) : (
                    <>
                      <span className="font-semibold text-slate-900">
                        {formatCount(product.vulnerabilities)} known{" "}
                        {product.vulnerabilities === 1 ? "vulnerability" : "vulnerabilities"}
                      </span>
                      {" · "}
                      <span className={product.unfixed > 0 ? "font-semibold text-red-700" : "text-slate-700"}>
                        {formatCount(product.unfixed)} without a known fix
                      </span>
                    </>
                  )}
                </p>
              </li>
            ))}
          </ul>
        </section>
      )}
      {researchers.length > 0 && (
        <section aria-labelledby="researcher-matches-heading">
          <h2 id="researcher-matches-heading" className="mb-3 text-xl font-semibold text-slate-900">
            Researchers
          </h2>
          <ul className="flex flex-wrap gap-3">
            {researchers.map((researcher) => (
              <li
                key={researcher.uuid}
                className="rounded-lg border border-slate-200 bg-white px-4 py-2 shadow-sm"
              >
                <Link
                  to={databasePaths.researcher(researcher.uuid)}
                  className="font-semibold text-slate-900 underline-offset-2 hover:underline"
                >
                  {researcher.display_name}
                </Link>{" "}
                <span className="text-sm text-slate-600">
                  · {formatCount(researcher.vulnerabilities)} credited{" "}
                  {researcher.vulnerabilities === 1 ? "record" : "records"}
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
