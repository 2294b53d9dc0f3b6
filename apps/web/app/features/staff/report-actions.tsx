import {
  actionsFrom,
  type NoteOnlyReportAction,
  parseCvssVector,
  REJECTION_REASONS,
  type ReportAction,
  type ReportDetail,
  ReportRejection,
  ReportValidation,
  transitionOf,
  VERSION_PREFIXES,
} from "@pressguard/domain";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ClassificationSelects } from "../../components/classification-selects.tsx";
import { useApiClient } from "../../lib/api/client.ts";
import { FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { formatDay } from "../../lib/reports.ts";
import { FormAlert, FormField, INPUT_CLASS } from "../../ui/form-field.tsx";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import { productContactQuery } from "./api.ts";
import { useReportTransition } from "./use-staff-mutations.ts";

/** The one-click actions, in lifecycle order, with their button words. */
const SIMPLE_ACTIONS: readonly { action: NoteOnlyReportAction; label: string; primary?: boolean }[] = [
  { action: "take_into_review", label: "Take into review", primary: true },
  { action: "notify_vendor", label: "Notify the vendor", primary: true },
  { action: "verify_fix", label: "Verify the fix", primary: true },
  { action: "mark_fix_insufficient", label: "Fix insufficient" },
  { action: "publish", label: "Publish", primary: true },
  { action: "publish_unpatched", label: "Publish unpatched" },
];

/**
 * The actions of the lifecycle staff may take on a report now, read from the domain's transition
 * table (and the fix deadline for publishing unpatched), so no button offers what the server refuses.
 */
export function staffActionsFor(
  report: Pick<ReportDetail, "status" | "fix_deadline_at">,
  now = new Date(),
): ReportAction[] {
  const fixDeadlineAt = report.fix_deadline_at ? new Date(report.fix_deadline_at) : null;
  return actionsFrom(report.status, "staff").filter(
    (action) => transitionOf(report.status, action, { actor: "staff", fixDeadlineAt, now }).ok,
  );
}

/** False while "Notify the vendor" would reach nobody: no program, no contact e-mail (issue 19). */
function useVendorReachable(report: ReportDetail, asked: boolean): boolean | null {
  const client = useApiClient();
  const contact = useQuery({
    ...productContactQuery(client, report.product.id),
    enabled: asked && !report.product.has_active_program,
  });
  if (report.product.has_active_program) return true;
  return contact.data ? contact.data.reachable : null;
}

export function ReportActions({ report }: { report: ReportDetail }) {
  const transition = useReportTransition(report.id);
  const [note, setNote] = useState("");
  const fixDeadlineAt = report.fix_deadline_at ? new Date(report.fix_deadline_at) : null;
  const allowed = staffActionsFor(report);
  const simple = SIMPLE_ACTIONS.filter(({ action }) => allowed.includes(action));
  const reachable = useVendorReachable(report, allowed.includes("notify_vendor"));
  const waitingForDeadline =
    report.status === "awaiting_fix" && !allowed.includes("publish_unpatched") && fixDeadlineAt !== null;

  if (allowed.length === 0) {
    return (
      <p className="text-sm text-slate-600">
        {report.status === "awaiting_fix"
          ? "Waiting for the vendor's fix."
          : report.status === "published" || report.status === "rejected"
            ? "This report is closed: no further action."
            : "No action is open to staff in this state."}
      </p>
    );
  }

  const run = (action: NoteOnlyReportAction) =>
    transition.mutate(
      { action, ...(note.trim() && { note: note.trim() }) },
      { onSuccess: () => setNote("") },
    );

  return (
    <div className="space-y-5">
      {simple.length > 0 && (
        <div className="space-y-3">
          <FormField
            label="Note"
            htmlFor="transition-note"
            optional
            hint="Shown on the timeline to the researcher and the vendor. Private remarks go in a staff-only comment."
          >
            <textarea
              id="transition-note"
              rows={2}
              maxLength={5000}
              value={note}
              onChange={(event) => setNote(event.target.value)}
              className={INPUT_CLASS}
            />
          </FormField>
          <div className="flex flex-wrap gap-2">
            {simple.map(({ action, label, primary }) => (
              <button
                key={action}
                type="button"
                className={primary ? "btn-primary" : "btn-secondary"}
                disabled={transition.isPending || (action === "notify_vendor" && reachable === false)}
                aria-describedby={
                  action === "notify_vendor" && reachable === false ? "no-vendor-contact" : undefined
                }
                onClick={() => run(action)}
              >
                {label}
              </button>
            ))}
          </div>
          {allowed.includes("notify_vendor") && reachable === false && (
            <p id="no-vendor-contact" className="text-xs text-slate-600">
              Nobody to notify yet: set the vendor contact below first. The report waits as it is.
            </p>
          )}
        </div>
      )}
      {waitingForDeadline && (
        <p className="text-xs text-slate-600">
          Publishing unpatched opens once the fix deadline ({formatDay(report.fix_deadline_at)}) has passed.
        </p>
      )}
      {allowed.includes("validate") && <ValidateForm report={report} />}
      {allowed.includes("reject") && <RejectForm report={report} />}
    </div>
  );
}

function RejectForm({ report }: { report: ReportDetail }) {
  const transition = useReportTransition(report.id);
  const form = useSchemaForm({
    schema: ReportRejection,
    fields: ["reason", "note"],
    initialValues: { reason: "", note: "" },
    idPrefix: "reject",
    async onSubmit({ reason }, { note }) {
      await transition.mutateAsync({ action: "reject", reason, ...(note.trim() && { note: note.trim() }) });
    },
  });
  const { errors, inputProps } = form;

  return (
    <form
      method="post"
      aria-label="Reject the report"
      onSubmit={form.handleSubmit}
      noValidate
      className="space-y-3 border-t border-slate-200 pt-4"
    >
      <h3 className="text-sm font-semibold text-slate-900">Reject</h3>
      <FormField label="Reason" htmlFor="reject-reason" errors={errors.reason}>
        <select {...inputProps("reason")}>
          <option value="">Choose a reason…</option>
          {REJECTION_REASONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </FormField>
      <FormField label="Note to the researcher" htmlFor="reject-note" optional errors={errors.note}>
        <textarea rows={2} maxLength={5000} {...inputProps("note")} />
      </FormField>
      <button
        type="submit"
        className="inline-flex items-center justify-center rounded-md bg-red-700 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-red-800"
        disabled={transition.isPending}
      >
        Reject the report
      </button>
    </form>
  );
}

const VALIDATION_FIELDS = [
  "vulnerability_type",
  "owasp_category",
  "required_privilege",
  "affected_version_prefix",
  "affected_version",
  "fixed_version",
  "cvss_vector",
  "cve",
] as const;
type ValidationField = (typeof VALIDATION_FIELDS)[number];
type ValidationValues = Record<ValidationField, string>;

function initialValues(report: ReportDetail): ValidationValues {
  return {
    vulnerability_type: report.vulnerability_type?.toString() ?? "",
    owasp_category: report.owasp_category?.toString() ?? "",
    required_privilege: report.required_privilege?.toString() ?? "",
    affected_version_prefix: report.affected_version_prefix ?? "<=",
    affected_version: report.affected_version ?? "",
    fixed_version: report.fixed_version ?? "",
    cvss_vector: report.cvss_vector ?? report.reported_cvss_vector ?? "",
    cve: report.cve ?? "",
  };
}

/** The select values as the schema reads them: codes are numbers, an empty choice is missing. */
function toInput(values: ValidationValues) {
  const code = (value: string) => (value === "" ? undefined : Number(value));
  return {
    ...values,
    vulnerability_type: code(values.vulnerability_type),
    owasp_category: code(values.owasp_category),
    required_privilege: code(values.required_privilege),
  };
}

/** The live score of the vector being typed, by the same calculator the server uses. */
function CvssPreview({ vector }: { vector: string }) {
  const trimmed = vector.trim();
  const parsed = trimmed ? parseCvssVector(trimmed) : null;
  return (
    <p aria-live="polite" className="mt-1 text-sm" data-testid="cvss-preview">
      {parsed === null ? (
        <span className="text-slate-500">Paste a CVSS 3.1 vector to see its base score.</span>
      ) : parsed.ok ? (
        <span className="font-medium text-slate-900">
          Base score {parsed.baseScore.toFixed(1)} · {parsed.severity.charAt(0).toUpperCase()}
          {parsed.severity.slice(1)}
          {parsed.version !== "3.1" && <span className="text-red-700"> (CVSS 3.1 is required)</span>}
        </span>
      ) : (
        <span className="text-slate-600">{parsed.error}</span>
      )}
    </p>
  );
}

function ValidateForm({ report }: { report: ReportDetail }) {
  const transition = useReportTransition(report.id);
  const form = useSchemaForm({
    schema: ReportValidation,
    fields: [...VALIDATION_FIELDS, "note"],
    initialValues: () => ({ ...initialValues(report), note: "" }),
    idPrefix: "validate",
    idOf: (field) => `validate-${field.replaceAll("_", "-")}`,
    toInput,
    async onSubmit(validation, { note }) {
      await transition.mutateAsync({
        action: "validate",
        ...validation,
        ...(note.trim() && { note: note.trim() }),
      });
    },
  });
  const { values, errors, inputProps: fieldProps } = form;

  return (
    <form
      method="post"
      aria-label="Validate the report"
      onSubmit={form.handleSubmit}
      noValidate
      className="space-y-3 border-t border-slate-200 pt-4"
    >
      <h3 className="text-sm font-semibold text-slate-900">Validate</h3>
      <FormAlert messages={errors[FORM_ERROR_KEY]} />
      <ClassificationSelects form={form} owaspCategoryLabel="OWASP category" />
      <div className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] gap-3">
        <FormField
          label="Affected"
          htmlFor="validate-affected-version-prefix"
          errors={errors.affected_version_prefix}
        >
          <select {...fieldProps("affected_version_prefix")}>
            {VERSION_PREFIXES.map((prefix) => (
              <option key={prefix.value} value={prefix.value}>
                {prefix.value || "= (exact)"}
              </option>
            ))}
          </select>
        </FormField>
        <FormField label="Version" htmlFor="validate-affected-version" errors={errors.affected_version}>
          <input type="text" autoComplete="off" maxLength={64} {...fieldProps("affected_version")} />
        </FormField>
      </div>
      <FormField
        label="Fixed in version"
        htmlFor="validate-fixed-version"
        optional
        errors={errors.fixed_version}
      >
        <input type="text" autoComplete="off" maxLength={64} {...fieldProps("fixed_version")} />
      </FormField>
      <FormField label="CVSS 3.1 vector" htmlFor="validate-cvss-vector" errors={errors.cvss_vector}>
        <input
          type="text"
          autoComplete="off"
          spellCheck={false}
          placeholder="CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N"
          {...fieldProps("cvss_vector")}
          className={`${INPUT_CLASS} font-mono text-xs`}
        />
        <CvssPreview vector={values.cvss_vector} />
      </FormField>
      <FormField label="CVE id" htmlFor="validate-cve" optional errors={errors.cve}>
        <input
          type="text"
          autoComplete="off"
          placeholder="CVE-2025-12345"
          maxLength={32}
          {...fieldProps("cve")}
        />
      </FormField>
      <FormField label="Note to the researcher" htmlFor="validate-note" optional errors={errors.note}>
        <textarea rows={2} maxLength={5000} {...fieldProps("note")} />
      </FormField>
      <button type="submit" className="btn-primary" disabled={transition.isPending}>
        {transition.isPending ? "Validating…" : "Validate the report"}
      </button>
    </form>
  );
}
