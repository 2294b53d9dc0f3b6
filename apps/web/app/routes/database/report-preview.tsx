import { PIN_PREVIEW_COOKIE, PinPatch, type ReportDetail } from "@pressguard/domain";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { data, useNavigate } from "react-router";
import { CommentForm } from "../../features/reports/comment-form.tsx";
import { ReportView } from "../../features/reports/report-view.tsx";
import { vendorReportsApi } from "../../features/vendor-reports/api.ts";
import { FixFilesField, useFixFiles } from "../../features/vendor-reports/fix-files.tsx";
import { isApiError } from "../../lib/api/api-error.ts";
import { useApiClient } from "../../lib/api/client.ts";
import { readForPage } from "../../lib/api/page-read.server.ts";
import { FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { usePublicConfig } from "../../lib/public-config.ts";
import { pageMeta } from "../../lib/seo.ts";
import { FormAlert, FormField, INPUT_CLASS, LoadError } from "../../ui/form-field.tsx";
import { Link } from "../../ui/link.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import type { Route } from "./+types/report-preview";

export const meta = pageMeta(
  "Report preview",
  "Read the vulnerability report on your product and send the patch that fixes it.",
);

/** What the PIN contact reads: the vendor's view, plus the patch they may have sent. */

const previewKey = (uuid: string) => ["report-preview", uuid] as const;

/**
 * The report, rendered on the server when the browser sent this page the copy of the preview cookie
 * that the PIN page's action scoped to it (issue 38: the page opens the report without scripts). The
 * page request's cookies go to the API, which reads the same credential. A personal page: never
 * stored (http/web.ts WORKFLOW_PAGES), never cached.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const noStore = { headers: { "Cache-Control": "private, no-store" } };
  if (!(request.headers.get("cookie") ?? "").includes(`${PIN_PREVIEW_COOKIE}=`))
    return data({ report: null }, noStore);
  try {
    const report = await readForPage(
      { request, context },
      "/report-previews/:id",
      { id: params.uuid },
      undefined,
      {
        as: "visitor",
      },
    );
    return data({ report }, noStore);
  } catch {
    // Expired, for another report, or the API unreachable: the browser asks again after hydration.
    return data({ report: null }, noStore);
  }
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders;
}

/**
 * PRODUCT.md §2: the report behind the PIN, as the vendor sees it, and the patch form. Rendered from
 * the loader's report when the page's copy of the preview cookie came with the request; the browser
 * asks the API again after hydration, with the cookie scoped to this report's API path (decision 008).
 */
export default function ReportPreviewPage({ params, loaderData }: Route.ComponentProps) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const { apiBase } = usePublicConfig();
  const uuid = encodeURIComponent(params.uuid);
  const report = useQuery({
    queryKey: previewKey(params.uuid),
    queryFn: () => client.request<ReportDetail>(`/report-previews/${uuid}`, { retry: 0 }),
    retry: false,
    staleTime: 0,
    ...(loaderData.report && { initialData: loaderData.report }),
  });

  if (report.isPending) {
    return <PageHeader title="Report preview" lead="Loading the report…" />;
  }
  if (report.isError) {
    const status = isApiError(report.error) ? report.error.status : 0;
    if (status === 401) {
      return (
        <>
          <PageHeader
            title="Report preview"
            lead="This report opens with the 6-digit PIN we e-mailed you. Access lasts one hour after the PIN."
          />
          <Link to={`/database/report-preview/${uuid}/pin`} className="btn-primary">
            Enter the PIN
          </Link>
        </>
      );
    }
    if (status === 404) {
      return <PageHeader title="Report preview" lead="This link does not open a report." />;
    }
    return <LoadError message={report.error.message || "The report could not be loaded."} />;
  }

  const detail = report.data;
  // The files download with the preview cookie, whose path is this report's preview API.
  const attachmentBase = `${apiBase.replace(/\/+$/, "")}/report-previews/${uuid}/attachments`;
  const canPatch = detail.actions.includes("submit_fix");
  const comment = (
    <CommentForm
      reportId={params.uuid}
      pinPreview
      hint="Markdown. Seen by the researcher who reported it and by our triage team."
      onCommented={(answer) => queryClient.setQueryData(previewKey(params.uuid), answer)}
    />
  );
  return (
    <ReportView
      report={detail}
      attachmentHref={(attachmentId) => `${attachmentBase}/${encodeURIComponent(attachmentId)}`}
      footer={
        canPatch ? (
          <div className="space-y-6">
            {comment}
            <PatchForm report={detail} />
          </div>
        ) : (
          <div className="space-y-6">
            {comment}
            <section
              aria-labelledby="patch-status"
              className="rounded-lg border border-slate-200 bg-slate-50 p-5"
            >
              <h2 id="patch-status" className="text-lg font-semibold text-slate-900">
                Your fix
              </h2>
              <p className="mt-2 text-slate-700">
                {detail.status === "fix_pending"
                  ? "Your fix was received. Our team is checking it; we will e-mail you if anything more is needed."
                  : "This report does not take a fix right now."}
              </p>
              {detail.fix_diff && (
                <pre className="mt-3 max-h-96 overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs text-slate-100">
                  {detail.fix_diff}
                </pre>
              )}
            </section>
          </div>
        )
      }
    />
  );
}

/**
 * `POST /api/report-previews/{uuid}/patch`: awaiting_fix → fix_pending, then /database/patch-submitted.
 * The picked zips are uploaded first, while the report still takes them.
 */
function PatchForm({ report }: { report: ReportDetail }) {
  const uuid = report.id;
  const client = useApiClient();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const fixFiles = useFixFiles(report);
  const form = useSchemaForm({
    schema: PinPatch,
    fields: ["fixed_version", "notes", "fix_url", "diff"],
    initialValues: { fixed_version: "", notes: "", fix_url: "", diff: "" },
    idPrefix: "patch",
    async onSubmit({ fix_url, diff, ...patch }) {
      const uploaded = await fixFiles.uploadAll((file) =>
        vendorReportsApi.uploadPinFixFile(client, uuid, file),
      );
      if (!uploaded) {
        // The files stored before the refusal are listed on the report.
        await queryClient.invalidateQueries({ queryKey: previewKey(uuid) });
        document.getElementById("patch-files")?.focus();
        return;
      }
      const saved = await client.request<ReportDetail>(`/report-previews/${encodeURIComponent(uuid)}/patch`, {
        method: "POST",
        body: { ...patch, ...(fix_url && { fix_url }), ...(diff && { diff }) },
        retry: 0,
      });
      queryClient.setQueryData(previewKey(uuid), saved);
      await navigate("/database/patch-submitted");
    },
  });
  const { errors, busy, inputProps } = form;

  return (
    <section
      aria-labelledby="patch-heading"
      className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="patch-heading" className="text-lg font-semibold text-slate-900">
        Submit a fix
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Tell us which version fixes the vulnerability. Our team checks the fix before the vulnerability is
        published with it.
      </p>
      <form method="post" onSubmit={form.handleSubmit} noValidate className="mt-4 space-y-5">
        <FormField label="Fixed version" htmlFor="patch-fixed_version" errors={errors.fixed_version}>
          <input type="text" autoComplete="off" {...inputProps("fixed_version")} />
        </FormField>
        <FormField label="Notes" htmlFor="patch-notes" errors={errors.notes} hint="What the fix changes.">
          <textarea rows={4} {...inputProps("notes")} />
        </FormField>
        <FormField
          label="Link to the fix"
          htmlFor="patch-fix_url"
          errors={errors.fix_url}
          optional
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
        <FixFilesField id="patch-files" fixFiles={fixFiles} />
        <FormField
          label="Patch (diff)"
          htmlFor="patch-diff"
          errors={errors.diff}
          optional
          hint="A unified diff of the fix, if you have one."
        >
          <textarea
            rows={8}
            spellCheck={false}
            {...inputProps("diff")}
            className={`${INPUT_CLASS} font-mono text-xs`}
          />
        </FormField>
        <FormAlert messages={errors[FORM_ERROR_KEY]} />
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? "Submitting…" : "Submit the fix"}
        </button>
      </form>
    </section>
  );
}
