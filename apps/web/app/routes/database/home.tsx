import { databaseApi } from "../../features/database/api.server.ts";
import { SearchForm } from "../../features/database/search-form.tsx";
import { SearchMatches } from "../../features/database/search-matches.tsx";
import { hasSearch, parseSearchParams } from "../../features/database/search-params.ts";
import { SearchResults } from "../../features/database/search-results.tsx";
import { formatDateTime } from "../../lib/dates.ts";
import { formatCount } from "../../lib/numbers.ts";
import { STATIC_PAGE } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { Link } from "../../ui/link.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import type { Route } from "./+types/home";

/** A reading page: sent without JavaScript (decision 007). */
export const handle = STATIC_PAGE;

export async function loader({ request, context }: Route.LoaderArgs) {
  const params = parseSearchParams(new URL(request.url).searchParams);
  const [results, counts] = await Promise.all([
    databaseApi.searchVulnerabilities({ request, context }, params),
    databaseApi.getCounts({ request, context }),
  ]);
  return { params, searched: hasSearch(params), results, counts };
}

export const meta = pageMeta(
  "WordPress Vulnerability Database",
  "Known vulnerabilities in WordPress plugins, themes and core: affected versions, severity, fixes and credits.",
);

export default function DatabaseHomePage({ loaderData }: Route.ComponentProps) {
  const { params, searched, results, counts } = loaderData;
  return (
    <>
      <PageHeader
        eyebrow="Public database"
        title="Vulnerability database"
        lead="Known vulnerabilities in WordPress plugins, themes and core, with affected versions, severity, fixed versions and the researchers who found them."
        actions={
          <>
            <Link to="/database/check" className="btn-secondary">
              Check your site
            </Link>
            <Link to="/database/report" className="btn-primary">
              Report a vulnerability
            </Link>
          </>
        }
      />
      <dl className="mb-2 grid grid-cols-2 gap-4 md:grid-cols-4">
        {[
          ["Vulnerabilities", counts.vulnerabilities],
          ["Products", counts.products],
          ["Patched", counts.patched],
          ["Researchers credited", counts.researchers],
        ].map(([label, value]) => (
          <div key={label} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            <dt className="text-sm text-slate-600">{label}</dt>
            <dd className="text-2xl font-bold text-slate-900">{formatCount(Number(value))}</dd>
          </div>
        ))}
      </dl>
      <p className="mb-8 text-sm text-slate-600" data-testid="data-updated">
        {counts.updated_at && `Last updated ${formatDateTime(counts.updated_at)}.`}
      </p>
      <SearchForm action="/database" params={params} />
      {searched && <SearchMatches results={results} query={params.q ?? ""} />}
      <SearchResults
        results={results}
        heading={
          !searched
            ? "Latest vulnerabilities"
            : results.records_first
              ? `Vulnerabilities: ${results.records_first.name} first, then other matches`
              : "Vulnerabilities"
        }
        empty="No vulnerability matches this search."
      />
      <p className="mt-8 text-sm text-slate-600">
        Every record is also available as JSON (<code>/api/v1/vulnerabilities/&#123;id&#125;</code>) and as
        OSV (<code>/api/v1/osv/&#123;id&#125;</code>), and new records in an{" "}
        <a href="/database/feed" type="application/atom+xml" className="link">
          Atom feed
        </a>
        .{" "}
        <Link to="/database/about-data" className="link">
          About the data
        </Link>
      </p>
    </>
  );
}
