import type { ReportDetail } from "@pressguard/domain";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { SeverityLabel, StateBadge } from "../../components/report-badges.tsx";
import { FixLink, ReportFiles } from "../../components/report-files.tsx";
import {
  CommentForm,
  FactList,
  ReportCard,
  ReportComments,
  ReportTexts,
  ReportTimeline,
} from "../../components/report-parts.tsx";
import { isApiError } from "../../lib/api/api-error.ts";
import { useApiClient } from "../../lib/api/client.ts";
import { attachmentUrl } from "../../lib/api/report-attachments.ts";
import { usePublicConfig } from "../../lib/public-config.ts";
import {
  affectedVersionsLabel,
  daysLeft,
  daysLeftLabel,
  formatDateTime,
  formatDay,
  owaspLabel,
  privilegeLabel,
  vulnerabilityTypeLabel,
} from "../../lib/reports.ts";
import { LoadError } from "../../ui/form-field.tsx";
import { Link } from "../../ui/link.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { staffReportQuery } from "./api.ts";
import { ReportCve } from "./cve-form.tsx";
import { PossibleDuplicates } from "./duplicates.tsx";
import { ReportActions } from "./report-actions.tsx";
import { STAFF_QUEUE_PATH } from "./report-queue.tsx";
import { useStaffComment } from "./use-staff-mutations.ts";
import { VendorContact } from "./vendor-contact.tsx";

const QUEUE_LINK = (
  <Link to={STAFF_QUEUE_PATH} className="hover:underline">
    Reports queue
  </Link>
);

/** `/staff/reports/{uuid}`: everything about one report, its timeline, every comment and the actions. */
export function StaffReportDetail({ id, exploitation }: { id: string; exploitation?: ReportPart }) {
  const client = useApiClient();
  const report = useQuery(staffReportQuery(client, id));

  if (report.isError || !report.data) {
    return (
      <>
        <PageHeader eyebrow={QUEUE_LINK} title="Report" />
        {report.isError ? (
          <LoadError
            message={
              isApiError(report.error) && report.error.status === 404
                ? "This report does not exist."
                : "Error fetching the report"
            }
          />
        ) : (
          <p className="text-slate-600" aria-busy="true">
            Loading the report…
          </p>
        )}
      </>
    );
  }
  return <StaffReportView report={report.data} exploitation={exploitation} />;
}

/** A part the route composes into the page (the CRA clocks, issue 20: another feature's). */
type ReportPart = (report: ReportDetail) => ReactNode;

function StaffReportView({ report, exploitation }: { report: ReportDetail; exploitation?: ReportPart }) {
  const comment = useStaffComment(report.id);
  const { apiBase } = usePublicConfig();
  const { attachments } = report;
  const left = daysLeft(report.fix_deadline_at);
  return (
    <>
      <PageHeader
        eyebrow={QUEUE_LINK}
        title={report.title}
        lead={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1 text-base">
            <StateBadge state={report.status} />
            <span>
              {report.product.name}{" "}
              <span className="font-mono text-sm text-slate-500">
                ({report.product.kind}/{report.product.slug})
              </span>
            </span>
            <span className="text-sm">Received {formatDay(report.created_at)}</span>
          </span>
        }
        actions={
          report.public_path ? (
            <Link to={report.public_path} className="btn-secondary">
              Public page
            </Link>
          ) : undefined
        }
      />
      {report.possible_duplicate_of && (
        <p
          role="note"
          className="mb-6 rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900"
        >
          <strong>Possible duplicate:</strong> another open or published report covers the same product and
          vulnerability type.{" "}
          <Link to={`/staff/reports/${report.possible_duplicate_of}`} className="link">
            Open that report
          </Link>
        </p>
      )}
      {report.possible_duplicate_of_vulnerability_id && report.status !== "rejected" && (
        <p
          role="note"
          className="mb-6 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
        >
          <strong>Possible duplicate:</strong> a published record of the same type affects this product.
          Compare it under{" "}
          <a href="#report-duplicates" className="link">
            Possible duplicates
          </a>
          .
        </p>
      )}
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <ReportCard id="report-facts" title="Classification">
            <FactList
              facts={[
                ["Product", `${report.product.name} (${report.product.kind})`],
                [
                  "Program",
                  report.product.has_active_program
                    ? "Active program"
                    : report.product.is_lobby_product
                      ? "Lobby product (no vendor)"
                      : "No active program",
                ],
                [
                  "Affected versions",
                  affectedVersionsLabel(report.affected_version_prefix, report.affected_version),
                ],
                ["Fixed in", report.fixed_version],
                ["Fix link", report.fix_url ? <FixLink key="fix-link" url={report.fix_url} /> : null],
                ["Vulnerability type", vulnerabilityTypeLabel(report.vulnerability_type)],
                ["OWASP category", owaspLabel(report.owasp_category)],
                ["Required privilege", privilegeLabel(report.required_privilege)],
                [
                  "Severity",
                  report.severity ? (
                    <SeverityLabel key="severity" severity={report.severity} score={report.cvss_score} />
                  ) : null,
                ],
                [
                  "CVSS vector",
                  report.cvss_vector && <code className="text-xs break-all">{report.cvss_vector}</code>,
                ],
                [
                  "CVSS vector given by the researcher",
                  report.reported_cvss_vector && report.reported_cvss_vector !== report.cvss_vector ? (
                    <code key="reported" className="text-xs break-all">
                      {report.reported_cvss_vector}
                    </code>
                  ) : null,
                ],
                ["CVE", report.cve],
                ["Rejection reason", report.rejection_reason?.replaceAll("_", " ")],
              ]}
            />
          </ReportCard>
          <ReportTexts report={report} />
          {exploitation && report.status !== "rejected" && (
            <ReportCard id="report-exploitation" title="Actively exploited? (EU Cyber Resilience Act)">
              {exploitation(report)}
            </ReportCard>
          )}
          {attachments.length > 0 && (
            <ReportCard id="report-files" title="Files">
              <ReportFiles
                attachments={attachments}
                href={(attachmentId) => attachmentUrl(apiBase, report.id, attachmentId)}
                Heading="h3"
              />
            </ReportCard>
          )}
          <ReportCard id="report-timeline" title="Timeline">
            <ReportTimeline events={report.timeline} />
          </ReportCard>
          <ReportCard id="report-comments" title="Comments">
            <ReportComments comments={report.comments} />
            <CommentForm
              allowStaffOnly
              pending={comment.isPending}
              onSubmit={async (body, visibility) => {
                await comment.mutateAsync({ body, visibility });
              }}
            />
          </ReportCard>
        </div>
        <aside className="min-w-0 space-y-6" aria-label="Triage">
          <ReportCard id="report-actions" title="Actions">
            <ReportActions key={report.status} report={report} />
          </ReportCard>
          <ReportCard id="report-duplicates" title="Possible duplicates">
            <PossibleDuplicates report={report} />
          </ReportCard>
          <ReportCard id="report-cve" title="CVE">
            <ReportCve report={report} />
          </ReportCard>
          <ReportCard id="report-vendor-contact" title="Vendor contact">
            <VendorContact report={report} />
          </ReportCard>
          <ReportCard id="report-people" title="Reporter">
            <FactList
              narrow
              facts={[
                [
                  "Researcher",
                  report.researcher ? (
                    <Link
                      key="researcher"
                      to={`/database/researchers/${report.researcher.uuid}`}
                      className="link"
                    >
                      {report.researcher.display_name}
                    </Link>
                  ) : (
                    "—"
                  ),
                ],
                [
                  "E-mail",
                  report.reporter_email ? (
                    <a key="email" href={`mailto:${report.reporter_email}`} className="link break-all">
                      {report.reporter_email}
                    </a>
                  ) : (
                    <span key="email" className="text-slate-600">
                      Reported from a signed-in account: reply with a comment for the researcher.
                    </span>
                  ),
                ],
              ]}
            />
          </ReportCard>
          <ReportCard id="report-dates" title="Dates">
            <FactList
              narrow
              facts={[
                ["Received", formatDateTime(report.created_at)],
                ["Validated", formatDateTime(report.validated_at)],
                ["Vendor notified", formatDateTime(report.vendor_notified_at)],
                [
                  "Fix deadline",
                  report.fix_deadline_at && `${formatDay(report.fix_deadline_at)} (${daysLeftLabel(left)})`,
                ],
                ["Fixed", formatDateTime(report.fixed_at)],
                ["Published", formatDateTime(report.published_at)],
              ]}
            />
          </ReportCard>
        </aside>
      </div>
    </>
  );
}
