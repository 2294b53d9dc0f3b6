import { RESEARCHER_REPORT_TABS, type ResearcherReportTab } from "@pressguard/domain";
import { pageFromUrl } from "../../features/reports/api.ts";
import { ReportList } from "../../features/reports/report-list.tsx";
import { readForPage } from "../../lib/api/page-read.server.ts";
import { throwNotFound } from "../../lib/errors.ts";
import { enforceGuards } from "../../lib/guards.server.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { pageMeta } from "../../lib/seo.ts";
import { Link } from "../../ui/link.tsx";
import type { Route } from "./+types/reports";

export const handle: RouteHandle = { guards: ["auth-researcher"], menu: "researcher" };

function tabOf(pathname: string): ResearcherReportTab {
  const segment = pathname.replace(/\/+$/, "").split("/").pop() ?? "";
  return segment in RESEARCHER_REPORT_TABS ? (segment as ResearcherReportTab) : "in-review";
}

/** A lenient page number from the URL (STYLE.md): anything odd is page 1. */
function pageOf(url: URL): number {
  const page = Number(url.searchParams.get("page"));
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}

/**
 * Spec §6 auth-researcher, then ownership: these tabs are the signed-in researcher's own reports
 * (PRODUCT.md §2 tab table), so another uuid is "Page not found", as if the page did not exist.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await enforceGuards(handle, { request, context });
  if (!user?.researcher?.uuid || user.researcher.uuid !== params.uuid) throwNotFound();
  const url = new URL(request.url);
  const tab = tabOf(url.pathname);
  const page = pageOf(url);
  const reports = await readForPage(
    { request, context },
    "/researcher/reports",
    {},
    { tab, page },
    { as: "visitor" },
  );
  return {
    tab,
    reports: reports.data,
    total: reports.pagination.total,
    page: reports.pagination.current_page,
    nextPage: pageFromUrl(reports.pagination.next_page_url),
    previousPage: pageFromUrl(reports.pagination.prev_page_url),
  };
}

const DESCRIPTIONS: Record<ResearcherReportTab, string> = {
  "in-review": "Follow your vulnerability reports while our triage team reviews them.",
  rejected: "Your vulnerability reports that were not accepted, with the reason for each.",
  published:
    "Your fixed vulnerabilities published in the public database, which earn you points on the leaderboard.",
  validated: "Follow your validated vulnerability reports while their vendors prepare a fix.",
};

/** The title falls back to the tab segment ("In Review", "Rejected", …). */
export const meta = pageMeta(undefined, ({ location }) => DESCRIPTIONS[tabOf(location.pathname)]);

const EMPTY_STATES: Record<ResearcherReportTab, { title: string; text: string }> = {
  "in-review": {
    title: "No report in review",
    text: "Found a vulnerability in a WordPress plugin, theme or core? Report it: it shows here while our triage team reviews it.",
  },
  rejected: {
    title: "No rejected report",
    text: "Reports that are not accepted show here with the reason, so you know what to improve next time.",
  },
  published: {
    title: "Nothing published yet",
    text: "Once a validated report is fixed and published in the public database, it shows here and earns you points on the leaderboard.",
  },
  validated: {
    title: "No validated report yet",
    text: "Reports our triage team confirms move here while the vendor prepares a fix.",
  },
};

/** Four routes share this module (in-review, rejected, published, validated). */
export default function ResearcherReportsPage({ loaderData }: Route.ComponentProps) {
  const { tab, reports, total, page, nextPage, previousPage } = loaderData;
  if (reports.length === 0 && page === 1) {
    const empty = EMPTY_STATES[tab];
    return (
      <div className="rounded-lg border border-dashed border-slate-300 bg-white p-8 text-center">
        <h2 className="text-lg font-semibold text-slate-900">{empty.title}</h2>
        <p className="mx-auto mt-2 max-w-xl text-slate-600">{empty.text}</p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <Link to="/database/report" className="btn-primary">
            Report a vulnerability
          </Link>
          <Link to="/database/existing" className="btn-secondary">
            Check known vulnerabilities
          </Link>
        </div>
      </div>
    );
  }
  return (
    <>
      <p className="mb-4 flex justify-end">
        <Link to="/database/report" className="btn-primary">
          Report a vulnerability
        </Link>
      </p>
      <ReportList
        reports={reports}
        total={total}
        previousHref={previousPage ? `?page=${previousPage}` : null}
        nextHref={nextPage ? `?page=${nextPage}` : null}
        previewHref={(report) => `/researchers/reports/${encodeURIComponent(report.id)}/preview`}
      />
    </>
  );
}
