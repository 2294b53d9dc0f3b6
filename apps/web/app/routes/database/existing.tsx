import { databaseApi } from "../../features/database/api.server.ts";
import { SearchForm } from "../../features/database/search-form.tsx";
import { hasSearch, parseSearchParams } from "../../features/database/search-params.ts";
import { SearchResults } from "../../features/database/search-results.tsx";
import { STATIC_PAGE } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { Link } from "../../ui/link.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import type { Route } from "./+types/existing";

/** The look-up a researcher does before reporting: is this vulnerability already known? */

/** A reading page: sent without JavaScript (decision 007). */
export const handle = STATIC_PAGE;

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = parseSearchParams(new URL(request.url).searchParams);
  const searched = hasSearch(params);
  const results = await databaseApi.searchVulnerabilities({ request, context }, params);
  return { params, searched, results };
}

export const meta = pageMeta(
  "Check before you report",
  "Search the known WordPress vulnerabilities before you report one: by product, title or CVE id.",
);

export default function ExistingVulnerabilityPage({ loaderData }: Route.ComponentProps) {
  const { params, searched, results } = loaderData;
  return (
    <>
      <PageHeader
        eyebrow="Public database"
        title="Check before you report"
        lead="Search the product, the kind of flaw or the CVE id. If the vulnerability is already listed for the version you tested, it is known; otherwise, report it."
        actions={
          <Link to="/database/report" className="btn-primary">
            Report a vulnerability
          </Link>
        }
      />
      <SearchForm action="/database/existing" params={params} />
      <SearchResults
        results={results}
        heading={searched ? "Known vulnerabilities matching your search" : "Latest known vulnerabilities"}
        empty="Nothing known matches this search: the vulnerability may be new."
      />
    </>
  );
}
