import { countryByCode, isUuid, type PublicResearcherProfile } from "@pressguard/domain";
import { useLocation } from "react-router";
import { databaseApi } from "../../features/database/api.server.ts";
import { PaginationNav } from "../../features/database/pagination-nav.tsx";
import { VulnerabilityList } from "../../features/database/vulnerability-list.tsx";
import { throwNotFound } from "../../lib/errors.ts";
import { STATIC_PAGE } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { Markdown } from "../../ui/markdown.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import type { Route } from "./+types/researcher-profile";

const NETWORK_LABELS: Record<PublicResearcherProfile["social"][number]["network"], string> = {
  github: "GitHub",
  x: "X",
  mastodon: "Mastodon",
  linkedin: "LinkedIn",
};

/** A reading page: sent without JavaScript (decision 007). */
export const handle = STATIC_PAGE;

export async function loader({ params, request, context }: Route.LoaderArgs) {
  if (!isUuid(params.uuid)) throwNotFound();
  const pageParam = new URL(request.url).searchParams.get("page") ?? "";
  const page = /^\d{1,6}$/.test(pageParam) && Number(pageParam) >= 1 ? Number(pageParam) : 1;
  const [researcher, vulnerabilities] = await Promise.all([
    databaseApi.getResearcher({ request, context }, params.uuid),
    databaseApi.getResearcherVulnerabilities({ request, context }, params.uuid, page),
  ]);
  return { researcher, vulnerabilities };
}

function researcherOf(matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>) {
  const data = matches.find((match) => match?.id === "routes/database/researcher-profile")?.loaderData;
  return (data as { researcher?: PublicResearcherProfile } | undefined)?.researcher;
}

export const meta = pageMeta(
  ({ matches }) => researcherOf(matches)?.display_name ?? "Researcher profile",
  ({ matches }) => {
    const researcher = researcherOf(matches);
    return researcher
      ? `${researcher.display_name}: ${researcher.vulnerabilities} published WordPress vulnerabilities, ${researcher.points} points.`
      : "A WordPress security researcher's published vulnerabilities and leaderboard points.";
  },
);

export default function ResearcherProfilePage({ loaderData }: Route.ComponentProps) {
  const { researcher, vulnerabilities } = loaderData;
  const { pathname } = useLocation();
  const country = researcher.country ? countryByCode.get(researcher.country)?.name : undefined;
  return (
    <>
      <PageHeader eyebrow="Security researcher" title={researcher.display_name} />
      {researcher.bio && (
        <section aria-label="Bio" className="mb-6 max-w-3xl text-slate-700">
          {/* Untrusted Markdown: rendered on the server without raw HTML or unsafe URLs (decision 010). */}
          <Markdown>{researcher.bio}</Markdown>
        </section>
      )}
      {researcher.social.length > 0 && (
        <ul aria-label="Social profiles" className="mb-6 flex flex-wrap gap-x-6 gap-y-2 text-sm">
          {researcher.social.map((link) => (
            <li key={link.network}>
              <span className="text-slate-600">{NETWORK_LABELS[link.network]}: </span>
              <a href={link.url} rel="nofollow noopener" className="link break-all">
                {link.handle}
              </a>
            </li>
          ))}
        </ul>
      )}
      <dl className="mb-8 grid grid-cols-2 gap-4 md:grid-cols-4">
        <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <dt className="text-sm text-slate-600">Published vulnerabilities</dt>
          <dd className="text-2xl font-bold text-slate-900">{researcher.vulnerabilities}</dd>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <dt className="text-sm text-slate-600">Points</dt>
          <dd className="text-2xl font-bold text-slate-900">{researcher.points}</dd>
        </div>
        <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          <dt className="text-sm text-slate-600">All-time rank</dt>
          <dd className="text-2xl font-bold text-slate-900">
            {researcher.rank ? `#${researcher.rank}` : "—"}
          </dd>
        </div>
        {(country || researcher.website) && (
          <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            {country && (
              <>
                <dt className="text-sm text-slate-600">Country</dt>
                <dd className="font-semibold text-slate-900">{country}</dd>
              </>
            )}
            {researcher.website && (
              <>
                <dt className="text-sm text-slate-600">Website</dt>
                <dd className="break-all">
                  <a href={researcher.website} rel="nofollow noopener" className="link">
                    {researcher.website}
                  </a>
                </dd>
              </>
            )}
          </div>
        )}
      </dl>
      <section aria-labelledby="published-heading">
        <h2 id="published-heading" className="mb-4 text-xl font-semibold text-slate-900">
          Published vulnerabilities
        </h2>
        <VulnerabilityList items={vulnerabilities.data} empty="No published vulnerability yet." />
        <PaginationNav
          pagination={vulnerabilities.pagination}
          hrefFor={(page) => (page > 1 ? `${pathname}?page=${page}` : pathname)}
        />
      </section>
    </>
  );
}
