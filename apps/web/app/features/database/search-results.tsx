import type { VulnerabilityPage } from "@pressguard/domain";
import { useLocation } from "react-router";
import { formatCount } from "../../lib/numbers.ts";
import { PaginationNav } from "./pagination-nav.tsx";
import { searchWithPage } from "./search-params.ts";
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
  // The latest list with no words or filters is newest first anyway: the note is for a search.
  const searching = [...search.keys()].some((key) => key !== "page");
  return (
    <section aria-labelledby="results-heading" className="mt-8">
      <h2 id="results-heading" className="mb-4 text-xl font-semibold text-slate-900">
        {heading}
      </h2>
      {results.pagination.total_capped && searching && (
        <p
          role="note"
          className="mb-4 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700"
        >
          More than {formatCount(results.pagination.total)} vulnerabilities match: the newest are shown first.
          Add words or filters to narrow the search.
        </p>
      )}
      <VulnerabilityList items={results.data} empty={empty} />
      <PaginationNav
        pagination={results.pagination}
        hrefFor={(page) => `${location.pathname}${searchWithPage(search, page)}`}
      />
    </section>
  );
}
