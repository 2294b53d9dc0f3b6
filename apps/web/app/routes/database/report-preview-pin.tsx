import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { isApiError } from "../../lib/api/api-error.ts";
import { useApiClient } from "../../lib/api/client.ts";
import { apiErrorToFieldErrors, type FieldErrorMap, FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { pageMeta } from "../../lib/seo.ts";
import { errorIdFor, FormAlert, FormField, INPUT_CLASS } from "../../ui/form-field.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import type { Route } from "./+types/report-preview-pin";

export const meta = pageMeta("Enter the report PIN");

const PIN_MESSAGE = "Enter the 6-digit PIN from the e-mail.";
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
  const [pin, setPin] = useState("");
  const [errors, setErrors] = useState<FieldErrorMap>({});
  const [busy, setBusy] = useState(false);
  const uuid = encodeURIComponent(params.uuid);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const value = pin.replace(/\s+/g, "");
    if (!/^[0-9]{6}$/.test(value)) {
      setErrors({ pin: [PIN_MESSAGE] });
      document.getElementById("report-pin")?.focus();
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      await client.request(`/report-previews/${uuid}/pin`, {
        method: "POST",
        body: { pin: value },
        retry: 0,
      });
      await navigate(`/database/report-preview/${uuid}/preview`);
    } catch (error) {
      setErrors(
        isApiError(error) && error.status === 404
          ? { [FORM_ERROR_KEY]: [UNKNOWN_LINK_MESSAGE] }
          : apiErrorToFieldErrors(error, ["pin"]),
      );
      setPin("");
      document.getElementById("report-pin")?.focus();
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <PageHeader
        title="Enter the report PIN"
        lead="A security researcher reported a vulnerability in your product. The report is protected by a 6-digit PIN, sent in a separate e-mail from its link."
      />
      <form onSubmit={submit} noValidate className="max-w-sm space-y-5" aria-label="Report PIN">
        <FormField
          label="PIN"
          htmlFor="report-pin"
          errors={errors.pin}
          hint="Five wrong tries lock the report for 15 minutes."
        >
          <input
            id="report-pin"
            name="pin"
            type="text"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            value={pin}
            onChange={(event) => {
              setPin(event.target.value);
              if (errors.pin) setErrors(({ pin: _removed, ...rest }) => rest);
            }}
            aria-invalid={errors.pin ? true : undefined}
            aria-describedby={errors.pin ? errorIdFor("report-pin") : undefined}
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
