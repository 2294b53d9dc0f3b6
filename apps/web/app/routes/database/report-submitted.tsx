import { readForPage } from "../../lib/api/page-read.server.ts";
import { pageMeta } from "../../lib/seo.ts";
import { getOptionalUser } from "../../lib/session.server.ts";
import { Link } from "../../ui/link.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import type { Route } from "./+types/report-submitted";

export const meta = pageMeta(
  "Report submitted",
  "Follow the vulnerability report you just sent while our triage team reviews it.",
);

/** `?report={id}`: the signed-in reporter's new report, read back to show its title and link its preview. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const id = new URL(request.url).searchParams.get("report");
  const user = await getOptionalUser(request, context);
  const researcherUuid = user?.researcher?.uuid ?? null;
  if (!id || !user) return { report: null, researcherUuid };
  try {
    const report = await readForPage({ request, context }, "/reports/:id", { id }, undefined, {
      as: "visitor",
    });
    return { report: { id: report.id, title: report.title }, researcherUuid };
  } catch {
    // Not theirs, or gone: the page still thanks them, without the link.
    return { report: null, researcherUuid };
  }
}

export default function ReportSubmittedPage({ loaderData }: Route.ComponentProps) {
  const { report, researcherUuid } = loaderData;
  return (
    <>
      <PageHeader
        title="Report submitted"
        lead="Thank you. Our triage team reviews every report; you get an e-mail at each step, and you are credited when it is published."
      />
      {report && (
        <div className="mb-8 rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
          <p className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Your report</p>
          <p className="mt-1 text-lg font-semibold break-words text-slate-900" data-testid="submitted-title">
            {report.title}
          </p>
          <Link
            to={`/researchers/reports/${encodeURIComponent(report.id)}/preview`}
            className="link mt-2 inline-block"
          >
            Open the report
          </Link>
        </div>
      )}
      <div className="flex flex-wrap gap-3">
        {researcherUuid && (
          <Link to={`/researchers/${encodeURIComponent(researcherUuid)}/in-review`} className="btn-primary">
            My reports
          </Link>
        )}
        <Link to="/database/report" className="btn-secondary">
          Report another vulnerability
        </Link>
        <Link to="/database" className="btn-secondary">
          Back to the database
        </Link>
      </div>
    </>
  );
}
