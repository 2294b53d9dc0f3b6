import { useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, useNavigate } from "react-router";
import { ReportView } from "../../features/reports/report-view.tsx";
import type { ReportDetail } from "../../features/reports/types.ts";
import { isApiError } from "../../lib/api/api-error.ts";
import { useApiClient } from "../../lib/api/client.ts";
import { apiErrorToFieldErrors, type FieldErrorMap, FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { usePublicConfig } from "../../lib/public-config.ts";
import { pageMeta } from "../../lib/seo.ts";
import { errorIdFor, FormAlert, FormField, INPUT_CLASS, LoadError } from "../../ui/form-field.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import type { Route } from "./+types/report-preview";

export const meta = pageMeta("Report preview");

/** What the PIN contact reads: the vendor's view, plus the patch they may have sent and the files. */
type PinPreview = ReportDetail & {
  fix_diff?: string | null;
  attachments?: { id: string; filename: string; size: number }[];
};

const previewKey = (uuid: string) => ["report-preview", uuid] as const;

/**
 * PRODUCT.md §2: the report behind the PIN, as the vendor sees it, and the patch form. The preview
 * cookie is scoped to this report's API path (decision 008), so the browser fetches the report
 * after hydration; the server-rendered page shows the frame only.
 */
export default function ReportPreviewPage({ params }: Route.ComponentProps) {
  const client = useApiClient();
  const uuid = encodeURIComponent(params.uuid);
  const report = useQuery({
    queryKey: previewKey(params.uuid),
    queryFn: () => client.request<PinPreview>(`/report-previews/${uuid}`, { retry: 0 }),
    retry: false,
    staleTime: 0,
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
  const canPatch = detail.actions.includes("submit_fix");
  return (
    <ReportView
      report={detail}
      actions={
        detail.attachments && detail.attachments.length > 0 ? (
          <Attachments uuid={params.uuid} files={detail.attachments} />
        ) : undefined
      }
      footer={
        canPatch ? (
          <PatchForm uuid={params.uuid} />
        ) : (
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
        )
      }
    />
  );
}

/** The proof-of-concept files, downloaded with the preview cookie (never opened in the page). */
function Attachments({ uuid, files }: { uuid: string; files: NonNullable<PinPreview["attachments"]> }) {
  const { apiBase } = usePublicConfig();
  const base = `${apiBase.replace(/\/+$/, "")}/report-previews/${encodeURIComponent(uuid)}/attachments`;
  return (
    <div>
      <h2 className="text-sm font-semibold text-slate-900">Attachments</h2>
      <ul className="mt-2 space-y-1 text-sm">
        {files.map((file) => (
          <li key={file.id}>
            <a href={`${base}/${encodeURIComponent(file.id)}`} download className="link break-all">
              {file.filename}
            </a>{" "}
            <span className="text-slate-500">({Math.max(1, Math.round(file.size / 1024))} KB)</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

const FIELDS = ["fixed_version", "notes", "diff"] as const;
type FieldName = (typeof FIELDS)[number];

/** `POST /api/report-previews/{uuid}/patch`: awaiting_fix → fix_pending, then /database/patch-submitted. */
function PatchForm({ uuid }: { uuid: string }) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [values, setValues] = useState<Record<FieldName, string>>({ fixed_version: "", notes: "", diff: "" });
  const [errors, setErrors] = useState<FieldErrorMap>({});
  const [busy, setBusy] = useState(false);

  function set(field: FieldName, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors(({ [field]: _removed, ...rest }) => rest);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const local: FieldErrorMap = {};
    if (!values.fixed_version.trim()) local.fixed_version = ["The fixed version is required."];
    if (!values.notes.trim()) local.notes = ["Tell us what the fix changes."];
    if (Object.keys(local).length > 0) {
      setErrors(local);
      focusFirst(local);
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      const saved = await client.request<PinPreview>(`/report-previews/${encodeURIComponent(uuid)}/patch`, {
        method: "POST",
        body: {
          fixed_version: values.fixed_version.trim(),
          notes: values.notes,
          ...(values.diff.trim() && { diff: values.diff }),
        },
        retry: 0,
      });
      queryClient.setQueryData(previewKey(uuid), saved);
      await navigate("/database/patch-submitted");
    } catch (error) {
      const mapped = apiErrorToFieldErrors(error, FIELDS);
      setErrors(mapped);
      focusFirst(mapped);
    } finally {
      setBusy(false);
    }
  }

  const props = (field: FieldName) => ({
    id: `patch-${field}`,
    name: field,
    value: values[field],
    "aria-invalid": errors[field] ? true : undefined,
    "aria-describedby": errors[field] ? errorIdFor(`patch-${field}`) : undefined,
  });

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
      <form onSubmit={submit} noValidate className="mt-4 space-y-5">
        <FormField label="Fixed version" htmlFor="patch-fixed_version" errors={errors.fixed_version}>
          <input
            type="text"
            autoComplete="off"
            {...props("fixed_version")}
            onChange={(event) => set("fixed_version", event.target.value)}
            className={INPUT_CLASS}
          />
        </FormField>
        <FormField label="Notes" htmlFor="patch-notes" errors={errors.notes} hint="What the fix changes.">
          <textarea
            rows={4}
            {...props("notes")}
            onChange={(event) => set("notes", event.target.value)}
            className={INPUT_CLASS}
          />
        </FormField>
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
            {...props("diff")}
            onChange={(event) => set("diff", event.target.value)}
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

function focusFirst(errors: FieldErrorMap) {
  const first = FIELDS.find((field) => errors[field]);
  if (first) document.getElementById(`patch-${first}`)?.focus();
}
