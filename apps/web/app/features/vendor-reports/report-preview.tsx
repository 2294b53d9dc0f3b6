import { actionsFrom, FIX_DEADLINE_REPORT_STATES, type ReportDetail, VendorFix } from "@pressguard/domain";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { isApiError } from "../../lib/api/api-error.ts";
import { useApiClient } from "../../lib/api/client.ts";
import { FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { daysLeft, daysLeftLabel, formatDay } from "../../lib/reports.ts";
import { FormAlert, FormField, LoadError } from "../../ui/form-field.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { toast } from "../../ui/toast.ts";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import { vendorReportKeys, vendorReportQuery, vendorReportsApi } from "./api.ts";
import { FixFilesField, useFixFiles } from "./fix-files.tsx";

const PAGE_TITLE = "Vulnerability preview";

/** The fix form's rules: the body the API declares (`POST /vendor/reports/{id}/fix`, decision 008). */
export const FixForm = VendorFix;

/** Some picked fix files were refused: the fix waits until they are uploaded or removed. */
class FixFilesRefused extends Error {}

/** The ids the fields had before the form layer (the e2e journeys select them). */
const FIX_FIELD_IDS: Record<string, string> = { fixed_version: "fix-version", fix_url: "fix-url" };

/**
 * `/vdp/vulnerabilities/{uuid}/preview` loads the report in the browser: what the vendor may read
 * of a report on one of its products (from validation on). Opened from the e-mail, the link's
 * `token` goes with every call. The route composes the shared report view around these parts.
 */
export function useVendorReport(id: string, token: string | null) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const report = useQuery(vendorReportQuery(client, id, token));
  /** A later answer (after a comment or a fix) replaces the report; the tab lists are refetched. */
  const replace = async (answer: ReportDetail) => {
    queryClient.setQueryData(vendorReportKeys.report(id), answer);
    await queryClient.invalidateQueries({ queryKey: vendorReportKeys.lists() });
  };
  return { report, replace };
}

/** The page while the report loads or when it cannot be read. */
export function VendorReportLoadState({ error }: { error: unknown }) {
  return (
    <>
      <PageHeader eyebrow="Vendor preview" title={PAGE_TITLE} />
      {error ? (
        <LoadError
          message={
            isApiError(error) && (error.status === 404 || error.status === 403)
              ? "This report does not exist, or it is not one of your products' reports. If you opened an e-mailed link, it may have expired: sign in to see your reports."
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

/** The vendor's part of the report: the deadline and days left, and the fix form or where the fix stands. */
export function VendorFixPanel({
  report,
  token,
  onSaved,
}: {
  report: ReportDetail;
  token: string | null;
  onSaved: (report: ReportDetail) => Promise<void>;
}) {
  const canSubmitFix = actionsFrom(report.status, "vendor").includes("submit_fix");
  return (
    <div className="space-y-4">
      <DeadlineNotice report={report} left={daysLeft(report.fix_deadline_at)} />
      {canSubmitFix ? (
        <section aria-labelledby="report-fix-form" className="max-w-xl">
          <h2 id="report-fix-form" className="text-lg font-semibold text-slate-900">
            Submit a fix
          </h2>
          <FixSubmissionForm report={report} token={token} onSaved={onSaved} />
        </section>
      ) : (
        <p className="text-sm text-slate-700">{fixStatusText(report)}</p>
      )}
    </div>
  );
}

function fixStatusText(report: ReportDetail): string {
  switch (report.status) {
    case "validated":
      return "Our team validated this report and will notify you shortly; the fix deadline starts then.";
    case "fix_pending":
      return `Your fix${report.fixed_version ? ` (version ${report.fixed_version})` : ""} is waiting for verification by our team.`;
    case "fixed":
      return "Your fix is verified. The vulnerability will be published with credit to the researcher.";
    case "published":
      return "The vulnerability is published in the public database.";
    default:
      return "No fix can be submitted for this report now.";
  }
}

function DeadlineNotice({ report, left }: { report: ReportDetail; left: number | null }) {
  if (!report.fix_deadline_at || left === null || !FIX_DEADLINE_REPORT_STATES.includes(report.status))
    return null;
  const overdue = left < 0;
  return (
    <p
      role="note"
      className={`rounded-md border px-4 py-3 text-sm ${
        overdue ? "border-red-200 bg-red-50 text-red-900" : "border-amber-200 bg-amber-50 text-amber-950"
      }`}
    >
      <strong>Fix deadline: {formatDay(report.fix_deadline_at)}</strong> — {daysLeftLabel(left)}.{" "}
      {overdue
        ? "Our team may now publish the vulnerability without a fix."
        : "After the deadline our team may publish the vulnerability without a fix."}
    </p>
  );
}

function FixSubmissionForm({
  report,
  token,
  onSaved,
}: {
  report: ReportDetail;
  token: string | null;
  onSaved: (report: ReportDetail) => Promise<void>;
}) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const fixFiles = useFixFiles(report);
  const submit = useMutation({
    // The zips go first, while the report still awaits a fix; the fix follows once all are stored.
    mutationFn: async (body: z.input<typeof VendorFix>) => {
      const uploaded = await fixFiles.uploadAll((file) =>
        vendorReportsApi.uploadFixFile(client, report.id, token, file),
      );
      if (!uploaded) throw new FixFilesRefused();
      return vendorReportsApi.submitFix(client, report.id, token, body);
    },
    onSuccess: async (answer) => {
      await onSaved(answer);
      toast.success("Fix submitted: our team will verify it.");
    },
    onError: async (error) => {
      // Files stored before the failure are listed on the report.
      await queryClient.invalidateQueries({ queryKey: vendorReportKeys.report(report.id) });
      if (error instanceof FixFilesRefused) {
        toast.error("Some fix files were not uploaded, so the fix is not submitted yet.");
        return;
      }
      if (isApiError(error) && error.status === 409) toast.error(error.message);
    },
  });
  const form = useSchemaForm({
    schema: FixForm,
    fields: ["fixed_version", "notes", "fix_url"],
    initialValues: { fixed_version: "", notes: "", fix_url: "" },
    idPrefix: "fix",
    idOf: (field) => FIX_FIELD_IDS[field] ?? `fix-${field}`,
    async onSubmit({ fixed_version, notes, fix_url }) {
      try {
        await submit.mutateAsync({ fixed_version, ...(notes && { notes }), ...(fix_url && { fix_url }) });
      } catch (error) {
        // Said by a toast: the refused files are listed by their field.
        if (!(error instanceof FixFilesRefused)) throw error;
      }
    },
  });
  const { errors, inputProps } = form;

  return (
    <form
      method="post"
      aria-label="Submit a fix"
      onSubmit={form.handleSubmit}
      noValidate
      className="space-y-3"
    >
      <p className="text-sm text-slate-600">
        Tell us which release fixes the vulnerability. Our team verifies the fix before it is published.
      </p>
      <FormAlert messages={errors[FORM_ERROR_KEY]} />
      <FormField label="Fixed in version" htmlFor="fix-version" errors={errors.fixed_version}>
        <input
          type="text"
          autoComplete="off"
          maxLength={64}
          placeholder="1.2.4"
          {...inputProps("fixed_version")}
        />
      </FormField>
      <FormField
        label="Notes"
        htmlFor="fix-notes"
        optional
        errors={errors.notes}
        hint="What changed in the fix."
      >
        <textarea rows={5} maxLength={10_000} {...inputProps("notes")} />
      </FormField>
      <FormField
        label="Link to the fix"
        htmlFor="fix-url"
        optional
        errors={errors.fix_url}
        hint="The release, changeset or advisory, starting with https:// or http://."
      >
        <input
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder="https://"
          {...inputProps("fix_url")}
        />
      </FormField>
      <FixFilesField id="fix-files" fixFiles={fixFiles} />
      <button type="submit" className="btn-primary" disabled={submit.isPending}>
        {submit.isPending ? "Submitting…" : "Submit the fix"}
      </button>
    </form>
  );
}
