import type { ReportDetail } from "@pressguard/domain";
import { type FormEvent, useState } from "react";
import { useApiClient } from "../../lib/api/client.ts";
import { apiErrorToFieldErrors, type FieldErrorMap, FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { errorIdFor, FormAlert, FormField, INPUT_CLASS } from "../../ui/form-field.tsx";
import { reportsApi } from "./api.ts";

/** The API's limits and messages for a comment (decision 008, `CommentBody`). */
const COMMENT_MAX = 20_000;
const COMMENT_MESSAGES = {
  required: "The comment is required.",
  tooLong: "The comment must be at most 20,000 characters long.",
} as const;

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
  const [body, setBody] = useState("");
  const [errors, setErrors] = useState<FieldErrorMap>({});
  const [busy, setBusy] = useState(false);
  const fieldId = "comment-body";

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = body.trim();
    if (!text || text.length > COMMENT_MAX) {
      setErrors({ body: [text ? COMMENT_MESSAGES.tooLong : COMMENT_MESSAGES.required] });
      document.getElementById(fieldId)?.focus();
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      const report = pinPreview
        ? await reportsApi.addPinComment(client, reportId, text)
        : await reportsApi.addComment(client, reportId, text, token);
      setBody("");
      onCommented(report);
    } catch (error) {
      setErrors(apiErrorToFieldErrors(error, ["body"]));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
    >
      <FormField label="Add a comment" htmlFor={fieldId} errors={errors.body} hint={hint}>
        <textarea
          id={fieldId}
          name="body"
          rows={4}
          className={`${INPUT_CLASS} text-sm`}
          value={body}
          aria-invalid={errors.body ? true : undefined}
          aria-describedby={errors.body ? errorIdFor(fieldId) : undefined}
          onChange={(event) => {
            setBody(event.target.value);
            if (errors.body) setErrors({});
          }}
        />
      </FormField>
      <FormAlert messages={errors[FORM_ERROR_KEY]} />
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? "Sending…" : "Send comment"}
      </button>
    </form>
  );
}
