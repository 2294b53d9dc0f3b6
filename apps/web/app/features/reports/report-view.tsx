import { parseCvssVector, type ReportDetail } from "@pressguard/domain";
import type { ReactNode } from "react";
import { FixLink, ReportFiles } from "../../components/report-files.tsx";
import { SeverityBadge } from "../../components/severity-badge.tsx";
import { formatDateTime, formatDay } from "../../lib/dates.ts";
import {
  actionLabel,
  affectedVersionsLabel,
  kindLabel,
  owaspLabel,
  privilegeLabel,
  rejectionReasonLabel,
  stateLabel,
  vulnerabilityTypeLabel,
} from "../../lib/report-labels.ts";
import { Markdown } from "../../ui/markdown.tsx";

/** What a field the report leaves empty shows. */
const NOT_SET = "Not set";

export interface ReportViewProps {
  /** The `ReportDetail` JSON of `GET /api/reports/{id}` (or the staff and PIN variants), as it came. */
  report: ReportDetail;
  /** Buttons or forms that act on the report (a vendor's fix, staff transitions), under the header. */
  actions?: ReactNode;
  /** Shown after the comments: a comment form, a patch form. */
  footer?: ReactNode;
  /** The report's title is the page's h1 unless the page already has one. */
  headingLevel?: 1 | 2;
  /**
   * Where an attachment downloads from, for the caller's credential (session, link token, PIN
   * cookie); without it the files are not listed.
   */
  attachmentHref?: (attachmentId: string) => string;
}

const STATE_CLASSES: Record<string, string> = {
  rejected: "border-red-200 bg-red-50 text-red-800",
  published: "border-lime-300 bg-lime-50 text-lime-900",
  fixed: "border-lime-300 bg-lime-50 text-lime-900",
};

/**
 * The read-only view of one report: every field the caller may see, the Markdown fields rendered
 * safely (ui/markdown.tsx: no raw HTML, no script URLs), the CVSS vector and score, the status, the
 * timeline and the comments. Text fields are plain React text, so they are escaped.
 */
export function ReportView({ report, actions, footer, headingLevel = 1, attachmentHref }: ReportViewProps) {
  const Title = headingLevel === 1 ? "h1" : "h2";
  const Section = headingLevel === 1 ? "h2" : "h3";
  const rejection = rejectionReasonLabel(report.rejection_reason);
  return (
    <article aria-labelledby="report-title" className="space-y-8">
      <header className="space-y-3">
        <p className="text-sm font-semibold tracking-wide break-words text-lime-800 uppercase">
          {kindLabel(report.product.kind)} · {report.product.name}
        </p>
        <Title
          id="report-title"
          className="text-2xl font-bold tracking-tight break-words text-slate-900 sm:text-3xl"
        >
          {report.title}
        </Title>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span
            data-testid="report-status"
            className={`rounded-full border px-2.5 py-0.5 text-xs font-semibold ${
              STATE_CLASSES[report.status] ?? "border-slate-300 bg-white text-slate-800"
            }`}
          >
            {stateLabel(report.status)}
          </span>
          {(report.severity || report.cvss_score != null) && (
            <SeverityBadge severity={report.severity} score={report.cvss_score} />
          )}
          <span className="text-slate-600">
            Reported {formatDay(report.created_at) ?? "—"}
            {report.researcher && <> by {report.researcher.display_name}</>}
          </span>
        </div>
        {report.public_path && (
          <p className="text-sm">
            <a href={report.public_path} className="link">
              View the published vulnerability
            </a>
          </p>
        )}
        {report.duplicate_of && (
          <p role="note" className="text-sm text-slate-700">
            Closed as a duplicate of{" "}
            {report.duplicate_of.public_path ? (
              <a href={report.duplicate_of.public_path} className="link">
                {report.duplicate_of.title ?? "the published vulnerability"}
              </a>
            ) : (
              "an earlier report"
            )}
            .
          </p>
        )}
      </header>

      {actions && <div className="rounded-lg border border-slate-200 bg-slate-50 p-4">{actions}</div>}

      <section
        aria-labelledby="report-details"
        className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
      >
        <Section id="report-details" className="text-lg font-semibold text-slate-900">
          Details
        </Section>
        <dl className="mt-4 grid gap-x-6 gap-y-4 sm:grid-cols-2">
          <Field label="Product">
            {report.product.name}{" "}
            <span className="text-slate-500">
              ({kindLabel(report.product.kind)},{" "}
              <span className="font-mono break-all">{report.product.slug}</span>)
            </span>
          </Field>
          <Field label="Affected versions">
            {affectedVersionsLabel(report.affected_version_prefix, report.affected_version) ?? NOT_SET}
          </Field>
          <Field label="Vulnerability type">
            {vulnerabilityTypeLabel(report.vulnerability_type) ?? NOT_SET}
          </Field>
          <Field label="OWASP category">{owaspLabel(report.owasp_category) ?? NOT_SET}</Field>
          <Field label="Required privilege">{privilegeLabel(report.required_privilege) ?? NOT_SET}</Field>
          <Field label="CVSS 3.1">
            <Cvss vector={report.cvss_vector} score={report.cvss_score} severity={report.severity} />
            {report.reported_cvss_vector && report.reported_cvss_vector !== report.cvss_vector && (
              <span className="mt-1 block text-xs text-slate-500">
                Suggested by the reporter:{" "}
                <code className="font-mono break-all">{report.reported_cvss_vector}</code>
                {scoreOf(report.reported_cvss_vector)}
              </span>
            )}
          </Field>
          {report.cve && <Field label="CVE">{report.cve}</Field>}
          {report.fixed_version && <Field label="Fixed in">{report.fixed_version}</Field>}
          {report.fix_url && (
            <Field label="Fix link">
              <FixLink url={report.fix_url} />
            </Field>
          )}
          {report.fix_deadline_at && <Field label="Fix deadline">{formatDay(report.fix_deadline_at)}</Field>}
          {rejection && <Field label="Rejection reason">{rejection}</Field>}
          {report.reporter_email && <Field label="Reporter e-mail">{report.reporter_email}</Field>}
          {report.possible_duplicate_of && (
            <Field label="Possible duplicate of">
              <span className="font-mono break-all">{report.possible_duplicate_of}</span>
            </Field>
          )}
          <Field label="Report id">
            <span className="font-mono text-xs break-all">{report.id}</span>
          </Field>
        </dl>
      </section>

      <MarkdownSection
        heading={Section}
        id="report-description"
        title="Description"
        text={report.description}
      />
      <MarkdownSection
        heading={Section}
        id="report-steps"
        title="Steps to reproduce"
        text={report.steps_to_reproduce}
      />
      <MarkdownSection
        heading={Section}
        id="report-poc"
        title="Proof of concept"
        text={report.proof_of_concept}
      />
      {report.suggested_fix && (
        <MarkdownSection
          heading={Section}
          id="report-fix"
          title="Suggested fix"
          text={report.suggested_fix}
        />
      )}

      {attachmentHref && report.attachments && report.attachments.length > 0 && (
        <section aria-labelledby="report-attachments">
          <Section id="report-attachments" className="text-lg font-semibold text-slate-900">
            Attachments
          </Section>
          <ReportFiles
            attachments={report.attachments}
            href={attachmentHref}
            Heading={headingLevel === 1 ? "h3" : "h4"}
          />
        </section>
      )}

      <section aria-labelledby="report-timeline">
        <Section id="report-timeline" className="text-lg font-semibold text-slate-900">
          Timeline
        </Section>
        {report.timeline.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">No events yet.</p>
        ) : (
          <ol className="mt-3 space-y-3 border-l-2 border-slate-200 pl-4">
            {report.timeline.map((event) => (
              <li key={`${event.created_at}-${event.action}-${event.to_state}`} className="relative text-sm">
                <span
                  aria-hidden="true"
                  className="absolute top-1.5 -left-[1.4rem] h-2.5 w-2.5 rounded-full bg-lime-600"
                />
                <p className="font-medium text-slate-900">
                  {actionLabel(event.action)}
                  {event.from_state && (
                    <span className="font-normal text-slate-600">
                      {" "}
                      ({stateLabel(event.from_state)} → {stateLabel(event.to_state)})
                    </span>
                  )}
                </p>
                <p className="text-xs text-slate-500">
                  <time dateTime={event.created_at}>{formatDateTime(event.created_at) ?? "—"}</time>
                  {event.actor && <> · {event.actor.name}</>}
                </p>
                {event.note && (
                  <p className="mt-1 whitespace-pre-wrap break-words text-slate-700">{event.note}</p>
                )}
              </li>
            ))}
          </ol>
        )}
      </section>

      <section aria-labelledby="report-comments">
        <Section id="report-comments" className="text-lg font-semibold text-slate-900">
          Comments
        </Section>
        {report.comments.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">No comments yet.</p>
        ) : (
          <ol className="mt-3 space-y-3">
            {report.comments.map((comment) => (
              <li key={comment.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
                <p className="text-xs text-slate-500">
                  <span className="font-semibold text-slate-800">
                    {comment.author?.name ?? "Vendor's security contact"}
                  </span>{" "}
                  · <time dateTime={comment.created_at}>{formatDateTime(comment.created_at) ?? "—"}</time>
                  {comment.visibility === "staff" && (
                    <span className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 font-semibold text-amber-900">
                      Staff only
                    </span>
                  )}
                </p>
                <Markdown className="markdown mt-2 text-sm">{comment.body}</Markdown>
              </li>
            ))}
          </ol>
        )}
      </section>

      {footer}
    </article>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd className="mt-1 text-sm break-words text-slate-900">{children}</dd>
    </div>
  );
}

function MarkdownSection({
  heading: Heading,
  id,
  title,
  text,
}: {
  heading: "h2" | "h3";
  id: string;
  title: string;
  text: string | null;
}) {
  return (
    <section aria-labelledby={id}>
      <Heading id={id} className="text-lg font-semibold text-slate-900">
        {title}
      </Heading>
      {text ? (
        <Markdown className="markdown mt-2 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
          {text}
        </Markdown>
      ) : (
        <p className="mt-2 text-sm text-slate-600">Not given.</p>
      )}
    </section>
  );
}

function Cvss({
  vector,
  score,
  severity,
}: {
  vector: string | null;
  score: number | null;
  severity: string | null;
}) {
  if (!vector) return <span className="text-slate-600">Not scored yet</span>;
  return (
    <span className="flex flex-wrap items-center gap-2">
      {score != null && <SeverityBadge severity={severity} score={score} />}
      <code className="font-mono text-xs break-all">{vector}</code>
    </span>
  );
}

/** The base score of the reporter's own vector, for comparison (scored here with the domain's rules). */
function scoreOf(vector: string): string {
  const parsed = parseCvssVector(vector);
  return parsed.ok ? ` (${parsed.baseScore.toFixed(1)})` : "";
}
