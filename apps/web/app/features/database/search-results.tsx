import { useLocation } from "react-router";
import { PaginationNav } from "./pagination-nav.tsx";
import { searchWithPage } from "./search-params.ts";
import type { VulnerabilityPage } from "./types.ts";
import { VulnerabilityList } from "./vulnerability-list.tsx";

/** The results of a search with their pagination; links keep the search's own query string. */
export function SearchResults({
  results,
  heading,
  empty,
}: {
  results: VulnerabilityPage;
  heading: string;
  empty: string;
}) {
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  return (
    <section aria-labelledby="results-heading" className="mt-8">
      <h2 id="results-heading" className="mb-4 text-xl font-semibold text-slate-900">
        {heading}
      </h2>
      <VulnerabilityList items={results.data} empty={empty} />
      <PaginationNav
        pagination={results.pagination}
        hrefFor={(page) => `${location.pathname}${searchWithPage(search, page)}`}
      />
    </section>
  );
}
