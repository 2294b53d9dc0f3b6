import { DUPLICATE_MATCH_LABELS, type DuplicateCandidate, type ReportDetail } from "@pressguard/domain";
import { useQuery } from "@tanstack/react-query";
import { isApiError } from "../../lib/api/api-error.ts";
import { useApiClient } from "../../lib/api/client.ts";
import { stateLabel, vulnerabilityTypeLabel } from "../../lib/report-labels.ts";
import { FormAlert, LoadError } from "../../ui/form-field.tsx";
import { Link } from "../../ui/link.tsx";
import { duplicateCandidatesQuery } from "./api.ts";
import { useReportTransition } from "./use-staff-mutations.ts";

/**
 * "Possible duplicates" (issue 19): the product's published records and other reports that may be
 * the same finding, strongest match first; while the report can be rejected, staff close it as a
 * duplicate of one of them.
 */
export function PossibleDuplicates({ report }: { report: ReportDetail }) {
  const client = useApiClient();
  const candidates = useQuery(duplicateCandidatesQuery(client, report.id));
  const reject = useReportTransition(report.id);
  const canReject = report.actions.includes("reject");

  if (candidates.isError) return <LoadError message="Error fetching the possible duplicates." />;
  if (!candidates.data)
    return (
      <p className="text-sm text-slate-600" aria-busy="true">
        Looking for possible duplicates…
      </p>
    );
  const { data, known_vulnerability_count: known } = candidates.data;
  const refusal = isApiError(reject.error) && reject.error.status === 422 ? reject.error : null;

  const markDuplicate = (candidate: DuplicateCandidate) =>
    reject.mutate({
      action: "reject",
      reason: "duplicate",
      ...(candidate.kind === "vulnerability"
        ? { duplicate_of_vulnerability_id: candidate.id }
        : { duplicate_of_report_id: candidate.id }),
    });

  return (
    <div className="space-y-3 text-sm">
      <p className="text-slate-700" data-testid="known-vulnerability-count">
        {known === 1
          ? "1 known vulnerability on this product."
          : `${known} known vulnerabilities on this product.`}
      </p>
      {report.duplicate_of && (
        <p role="note" className="text-slate-700">
          Closed as a duplicate of{" "}
          {report.duplicate_of.public_path ? (
            <Link to={report.duplicate_of.public_path} className="link">
              {report.duplicate_of.title}
            </Link>
          ) : report.duplicate_of.id ? (
            <Link to={`/staff/reports/${report.duplicate_of.id}`} className="link">
              {report.duplicate_of.title ?? "a report"}
            </Link>
          ) : (
            "an earlier report"
          )}
          .
        </p>
      )}
      {refusal && <FormAlert messages={Object.values(refusal.errors ?? {}).flat()} />}
      {data.length === 0 ? (
        <p className="text-slate-600">No record or report matches this report's type or versions.</p>
      ) : (
        <ul className="divide-y divide-slate-200" aria-label="Possible duplicates">
          {data.map((candidate) => (
            <li key={`${candidate.kind}-${candidate.id}`} className="space-y-1 py-3">
              <p className="font-medium break-words text-slate-900">
                <Link to={candidate.public_path ?? `/staff/reports/${candidate.id}`} className="link">
                  {candidate.title}
                </Link>
              </p>
              <p className="text-slate-600">
                {candidate.kind === "vulnerability"
                  ? "Published record"
                  : `Report, ${stateLabel(candidate.status ?? "")}`}{" "}
                · {vulnerabilityTypeLabel(candidate.vulnerability_type) ?? "Type not set"} ·{" "}
                {candidate.affected_versions}
              </p>
              <p className="text-slate-700">{DUPLICATE_MATCH_LABELS[candidate.match]}</p>
              {canReject && (
                <button
                  type="button"
                  className="btn-secondary"
                  disabled={reject.isPending}
                  onClick={() => markDuplicate(candidate)}
                >
                  Mark as duplicate of this
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
