import { CommentSubmission, type ReportDetail } from "@pressguard/domain";
import { useApiClient } from "../../lib/api/client.ts";
import { FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { FormAlert, FormField, INPUT_CLASS } from "../../ui/form-field.tsx";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import { reportsApi } from "./api.ts";

interface CommentFormProps {
  reportId: string;
  /** The preview link's token, when the page was opened from one. */
  token?: string | null;
  /** The PIN preview: the comment goes with the PIN credential (`/report-previews/{id}/comments`). */
  pinPreview?: boolean;
  /** Who reads the comment, under the field. */
  hint?: string;
  /** The report as the API answers after the comment (201 ReportDetail). */
  onCommented: (report: ReportDetail) => void;
}

/** A comment to the people who handle the report (`POST /api/reports/{id}/comments`), in Markdown. */
export function CommentForm({
  reportId,
  token,
  pinPreview = false,
  hint = "Markdown. Seen by our triage team and, once the report is validated, by the vendor.",
  onCommented,
}: CommentFormProps) {
  const client = useApiClient();
  const form = useSchemaForm({
    schema: CommentSubmission,
    fields: ["body"],
    initialValues: { body: "" },
    idPrefix: "comment",
    async onSubmit({ body }) {
      const report = pinPreview
        ? await reportsApi.addPinComment(client, reportId, body)
        : await reportsApi.addComment(client, reportId, body, token);
      form.setValues({ body: "" });
      onCommented(report);
    },
  });
  const { errors, busy } = form;

  return (
    <form
      method="post"
      onSubmit={form.handleSubmit}
      noValidate
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
    >
      <FormField label="Add a comment" htmlFor={form.idOf("body")} errors={errors.body} hint={hint}>
        <textarea rows={4} {...form.inputProps("body")} className={`${INPUT_CLASS} text-sm`} />
      </FormField>
      <FormAlert messages={errors[FORM_ERROR_KEY]} />
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? "Sending…" : "Send comment"}
      </button>
    </form>
  );
}
