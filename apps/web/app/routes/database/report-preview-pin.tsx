import { PIN_PREVIEW_COOKIE, ReportPin } from "@pressguard/domain";
import { useEffect } from "react";
import { data, Form, redirect, useSubmit } from "react-router";
import { isApiError } from "../../lib/api/api-error.ts";
import { createServerApiClient } from "../../lib/api/client.server.ts";
import {
  apiErrorToFieldErrors,
  type FieldErrorMap,
  FORM_ERROR_KEY,
  validateForm,
} from "../../lib/form-errors.ts";
import { pageMeta } from "../../lib/seo.ts";
import { FormAlert, FormField, INPUT_CLASS } from "../../ui/form-field.tsx";
import { PageHeader } from "../../ui/page-header.tsx";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import type { Route } from "./+types/report-preview-pin";

export const meta = pageMeta(
  "Enter the report PIN",
  "Enter the 6-digit PIN we e-mailed you to open the vulnerability report on your product.",
);

const UNKNOWN_LINK_MESSAGE =
  "This link does not open a report. Check that you copied the whole link from the e-mail.";
const UNAVAILABLE_MESSAGE = "The PIN could not be checked just now. Try again in a moment.";

/** The PIN may be pasted with the spaces of the e-mail ("123 456"). */
const pinInput = (pin: string) => ({ pin: pin.replace(/\s+/g, "") });

interface PinRefusal {
  errors: FieldErrorMap;
}

/** The API's refusal in the page's words: an unknown link, a wrong PIN (tries left), a lock (429). */
function pinErrorsOf(error: unknown): FieldErrorMap {
  if (isApiError(error) && error.status === 404) return { [FORM_ERROR_KEY]: [UNKNOWN_LINK_MESSAGE] };
  if (isApiError(error) && (error.status === 0 || error.status >= 500))
    return { [FORM_ERROR_KEY]: [UNAVAILABLE_MESSAGE] };
  return apiErrorToFieldErrors(error, ["pin"]);
}

/**
 * The form posts here, with or without JavaScript (issue 38: it had no method, so without scripts the
 * browser put the PIN in the URL, its history and Referers, and opened nothing). The PIN goes to
 * `POST /api/report-previews/{uuid}/pin` from the server, counted on the visitor's address (the PIN
 * limit is per address); the API's HttpOnly preview cookie (path `/api/report-previews/{uuid}`,
 * decision 008) is handed to the browser unchanged with a 303 to the preview, together with a copy
 * scoped to the report's pages (`/database/report-preview/{uuid}`), which their server render sends
 * on to the API. A refusal renders the
 * page again with its message and the API's status (429 with its Retry-After).
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  const uuid = encodeURIComponent(params.uuid);
  const form = await request.formData();
  const checked = validateForm(ReportPin, pinInput(String(form.get("pin") ?? "")));
  if (!checked.success) return data<PinRefusal>({ errors: checked.errors }, 422);

  const client = createServerApiClient(request, context, {
    forwardCookies: false,
    countedOnVisitor: true,
    retry: 0,
  });
  let answer = undefined as Response | undefined;
  try {
    await client.request(`/report-previews/${uuid}/pin`, {
      method: "POST",
      body: checked.data,
      retry: 0,
      onResponse: (response) => {
        answer = response;
      },
    });
  } catch (error) {
    const status = isApiError(error) && error.status >= 400 && error.status < 500 ? error.status : 503;
    const headers = new Headers({ "Cache-Control": "no-store" });
    const retryAfter = answer?.headers.get("retry-after");
    if (status === 429 && retryAfter) headers.set("Retry-After", retryAfter);
    return data<PinRefusal>({ errors: pinErrorsOf(error) }, { status, headers });
  }
  const headers = new Headers({ "Cache-Control": "no-store" });
  for (const cookie of answer?.headers.getSetCookie() ?? []) {
    headers.append("Set-Cookie", cookie);
    // A copy for the report's pages, whose server render then opens the report without scripts.
    if (cookie.startsWith(`${PIN_PREVIEW_COOKIE}=`))
      headers.append(
        "Set-Cookie",
        cookie.replace(/;\s*Path=[^;]*/i, `; Path=/database/report-preview/${uuid}`),
      );
  }
  return redirect(`/database/report-preview/${uuid}/preview`, { status: 303, headers });
}

/** A refusal's headers reach the page's response (React Router keeps only cookies by default). */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

/**
 * PRODUCT.md §2: the contact of a product with no program opens a report with the PIN of a separate
 * e-mail. Five wrong tries lock the report for 15 minutes (429, message shown). With JavaScript the
 * form checks the PIN's shape first and submits to the same action.
 */
export default function ReportPreviewPinPage({ actionData }: Route.ComponentProps) {
  const submit = useSubmit();
  const refusal = actionData as PinRefusal | undefined;
  const form = useSchemaForm({
    schema: ReportPin,
    fields: ["pin"],
    initialValues: { pin: "" },
    idPrefix: "report",
    toInput: ({ pin }) => pinInput(pin),
    serverErrors: refusal?.errors,
    async onSubmit(body) {
      await submit(body, { method: "post" });
    },
    errorsOf: pinErrorsOf,
  });
  const { errors, busy, setValues } = form;

  // After a refusal the field is emptied and focused for the next try.
  useEffect(() => {
    if (!refusal) return;
    setValues({ pin: "" });
    document.getElementById("report-pin")?.focus();
  }, [refusal, setValues]);

  return (
    <>
      <PageHeader
        title="Enter the report PIN"
        lead="A security researcher reported a vulnerability in your product. The report is protected by a 6-digit PIN, sent in a separate e-mail from its link."
      />
      <Form
        method="post"
        onSubmit={form.handleSubmit}
        noValidate
        className="max-w-sm space-y-5"
        aria-label="Report PIN"
      >
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
      </Form>
    </>
  );
}
