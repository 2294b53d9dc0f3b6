import { useEffect, useState } from "react";
import { CommentForm } from "../../features/reports/comment-form.tsx";
import { CveRequest, showsCveRequest } from "../../features/reports/cve-request.tsx";
import { ReportView } from "../../features/reports/report-view.tsx";
import { isApiError } from "../../lib/api/api-error.ts";
import { readForPage } from "../../lib/api/page-read.server.ts";
import { attachmentUrl } from "../../lib/api/report-attachments.ts";
import { throwNotFound } from "../../lib/errors.ts";
import { enforceGuards } from "../../lib/guards.server.ts";
import { exchangeLinkToken, hasLinkGrant } from "../../lib/link-grant.server.ts";
import { usePublicConfig } from "../../lib/public-config.ts";
import type { RouteHandle } from "../../lib/route-handle.ts";
import { secretUrlHeaders } from "../../lib/secret-url.ts";
import { type MetaArgsLike, pageMeta } from "../../lib/seo.ts";
import { Link } from "../../ui/link.tsx";
import type { Route } from "./+types/report-preview";

/** A link's `?token=` that could not be exchanged must not leave the page either (issue 15). */
export const headers = secretUrlHeaders;

export const handle: RouteHandle = { guards: ["check-token-researcher"] };

/**
 * The e-mailed link's `?token=` is exchanged for the grant cookie first, and the page reloaded
 * without it (issue 15, `lib/link-grant.server.ts`). Then spec §6 check-token-researcher, then the
 * report itself (`GET /api/reports/{uuid}`: the forwarded grant cookie, or a token the exchange
 * refused). The API answers only its researcher (or the link's holder): anything it refuses is
 * "Page not found", so the page never tells whether a report exists.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await exchangeLinkToken(
    { request, context },
    { reportId: params.uuid, pagePrefix: "/researchers/reports" },
  );
  const user = await enforceGuards(handle, { request, context });
  const token = new URL(request.url).searchParams.get("token");
  try {
    const report = await readForPage(
      { request, context },
      "/reports/:id",
      { id: params.uuid },
      { token: token || undefined },
      { as: "visitor" },
    );
    return {
      report,
      token,
      linkGrant: hasLinkGrant(request),
      researcherUuid: user?.researcher?.uuid ?? null,
    };
  } catch (error) {
    if (isApiError(error) && [401, 403, 404, 422].includes(error.status)) throwNotFound();
    throw error;
  }
}

/** The report's title once the loader has read it. */
function titleOf({ matches }: MetaArgsLike): string {
  const data = matches.find((match) => match?.id === "routes/researchers/report-preview")?.loaderData as
    | { report?: { title?: string } }
    | undefined;
  return data?.report?.title ? `${data.report.title} — Report preview` : "Report preview";
}

export const meta = pageMeta(
  titleOf,
  "Follow your vulnerability report: its status, the vendor's fix and the conversation with the vendor and our triage team.",
);

export default function ResearcherReportPreviewPage({ loaderData }: Route.ComponentProps) {
  const { apiBase } = usePublicConfig();
  const [report, setReport] = useState(loaderData.report);
  // A new load (another report, or a revalidation) replaces what a comment returned.
  useEffect(() => setReport(loaderData.report), [loaderData.report]);
  const isOwner = loaderData.researcherUuid !== null && loaderData.researcherUuid === report.researcher?.uuid;
  return (
    <>
      {loaderData.researcherUuid && (
        <p className="mb-6 text-sm">
          <Link
            to={`/researchers/${encodeURIComponent(loaderData.researcherUuid)}/in-review`}
            className="text-slate-600 underline-offset-4 hover:text-slate-900 hover:underline"
          >
            ← My reports
          </Link>
        </p>
      )}
      <ReportView
        report={report}
        actions={
          showsCveRequest(report, isOwner) ? (
            <CveRequest report={report} canRequest={isOwner} onRequested={setReport} />
          ) : undefined
        }
        attachmentHref={(attachmentId) => attachmentUrl(apiBase, report.id, attachmentId, loaderData.token)}
        footer={
          // The mailed link (its grant, or its token) is enough to comment, signed in or not.
          loaderData.researcherUuid || loaderData.token || loaderData.linkGrant ? (
            <CommentForm reportId={report.id} token={loaderData.token} onCommented={setReport} />
          ) : (
            // Without a session or a link's token the API answers nothing, so this is only a fallback.
            <p className="rounded-lg border border-slate-200 bg-white p-5 text-sm text-slate-600 shadow-sm">
              <Link
                to={`/researchers/login?${new URLSearchParams({ redirect: `/researchers/reports/${report.id}/preview` })}`}
                className="link"
              >
                Sign in
              </Link>{" "}
              to comment on this report.
            </p>
          )
        }
      />
    </>
  );
}
