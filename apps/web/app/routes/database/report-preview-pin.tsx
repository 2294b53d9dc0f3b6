import { ReportPin } from "@pressguard/domain";
import { useNavigate } from "react-router";
import { isApiError } from "../../lib/api/api-error.ts";
import { useApiClient } from "../../lib/api/client.ts";
import { apiErrorToFieldErrors, FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { pageMeta } from "../../lib/seo.ts";
import { FormAlert, FormField, INPUT_CLASS } from "../../ui/form-field.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import type { Route } from "./+types/report-preview-pin";

export const meta = pageMeta("Enter the report PIN");

const UNKNOWN_LINK_MESSAGE =
  "This link does not open a report. Check that you copied the whole link from the e-mail.";

/**
 * PRODUCT.md §2: the contact of a product with no program opens a report with the PIN of a separate
 * e-mail. `POST /api/report-previews/{uuid}/pin` sets an HttpOnly preview cookie scoped to this
 * report's API (decision 008); five wrong tries lock the report for 15 minutes (429, message shown).
 */
export default function ReportPreviewPinPage({ params }: Route.ComponentProps) {
  const client = useApiClient();
  const navigate = useNavigate();
  const uuid = encodeURIComponent(params.uuid);
  const form = useSchemaForm({
    schema: ReportPin,
    fields: ["pin"],
    initialValues: { pin: "" },
    idPrefix: "report",
    // The PIN may be pasted with the spaces of the e-mail ("123 456").
    toInput: ({ pin }) => ({ pin: pin.replace(/\s+/g, "") }),
    async onSubmit(data) {
      await client.request(`/report-previews/${uuid}/pin`, { method: "POST", body: data, retry: 0 });
      await navigate(`/database/report-preview/${uuid}/preview`);
    },
    errorsOf: (error) =>
      isApiError(error) && error.status === 404
        ? { [FORM_ERROR_KEY]: [UNKNOWN_LINK_MESSAGE] }
        : apiErrorToFieldErrors(error, ["pin"]),
    onFailed() {
      form.setValues({ pin: "" });
      document.getElementById("report-pin")?.focus();
    },
  });
  const { errors, busy } = form;

  return (
    <>
      <PageHeader
        title="Enter the report PIN"
        lead="A security researcher reported a vulnerability in your product. The report is protected by a 6-digit PIN, sent in a separate e-mail from its link."
      />
      <form onSubmit={form.handleSubmit} noValidate className="max-w-sm space-y-5" aria-label="Report PIN">
        <FormField
          label="PIN"
          htmlFor="report-pin"
          errors={errors.pin}
          hint="Five wrong tries lock the report for 15 minutes."
        >
          <input
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            {...form.inputProps("pin")}
            className={`${INPUT_CLASS} font-mono text-lg tracking-[0.4em]`}
          />
        </FormField>
        <FormAlert messages={errors[FORM_ERROR_KEY]} />
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? "Checking…" : "Open the report"}
        </button>
      </form>
    </>
  );
}
