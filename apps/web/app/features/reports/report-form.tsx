import type { ReportSubmissionRequest, SubmittedReport } from "@pressguard/domain";
import type { ReactNode } from "react";
import { AttachmentField } from "../../components/attachment-field.tsx";
import { FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { useRootLoaderData } from "../../lib/public-config.ts";
import { errorIdFor, FormAlert, FormField } from "../../ui/form-field.tsx";
import { CaptchaWidget } from "./captcha-widget.tsx";
import type { ChosenProduct, ProductChoice } from "./chosen-product.ts";
import { ProductPicker } from "./product-picker.tsx";
import {
  AffectedVersions,
  ClassificationSection,
  Fieldset,
  VulnerabilitySection,
} from "./report-form-sections.tsx";
import { type Unattached, useReportForm } from "./use-report-form.ts";

export interface ReportFormProps {
  /** Signed in: no e-mail and no captcha (the account reports as a researcher). */
  signedIn: boolean;
  /** Where the captcha fetches its challenge (`{apiBase}/captcha/challenge`). */
  captchaChallengeUrl: string;
  /** The product of the pre-filled route, if any; `id` when it is in the database. */
  initialProduct?: ChosenProduct;
  /** Limits the product to these (the vendor embed): picked from a list, never searched or typed in. */
  productChoices?: readonly ProductChoice[] | undefined;
  /** Sends the validated report (`POST /api/reports`); a thrown 422 puts the API's messages by the fields. */
  onSubmit: (body: ReportSubmissionRequest) => Promise<SubmittedReport>;
  /** After a 201: where to go next. */
  onSubmitted: (report: SubmittedReport, email: string | null) => void;
  idPrefix?: string;
  footer?: ReactNode;
}

/**
 * The one report form of PRODUCT.md §3 (`/database/report`, the pre-filled product route, the vendor
 * embed): validated in the browser with the domain schema the server uses (`ReportSubmission`, or
 * `SignedOutReportSubmission` with its required e-mail), so each field shows the server's own message.
 * Its state and save are `useReportForm`; its sections are in `report-form-sections.tsx`.
 */
export function ReportForm({
  signedIn,
  captchaChallengeUrl,
  initialProduct,
  productChoices,
  onSubmit,
  onSubmitted,
  idPrefix = "report",
  footer,
}: ReportFormProps) {
  const { form, unattached, attachments, captcha } = useReportForm({
    signedIn,
    initialProduct,
    idPrefix,
    onSubmit,
    onSubmitted,
  });
  const { values, errors, busy, idOf: id, inputProps } = form;
  const user = useRootLoaderData()?.user ?? null;
  const userName = typeof user?.name === "string" ? user.name : null;

  if (unattached) return <UnattachedFiles unattached={unattached} onContinue={onSubmitted} />;

  return (
    <form
      method="post"
      onSubmit={form.handleSubmit}
      noValidate
      className="space-y-8"
      aria-label="Report a vulnerability"
    >
      {signedIn && user && (
        // Issue 19: nothing said whose report this would be.
        <p role="note" className="rounded-md border border-slate-200 bg-white p-4 text-sm text-slate-700">
          You are signed in
          {userName && (
            <>
              {" "}
              as <strong>{userName}</strong>
            </>
          )}
          : the report is filed under your researcher account, and you follow it from your reports.
        </p>
      )}
      <Fieldset legend="1. Affected software">
        <ProductPicker
          value={values.product}
          onChange={(next) => {
            form.set("product", next);
            form.clearErrors("kind", "product_slug", "product_name");
          }}
          errors={{ kind: errors.kind, product_slug: errors.product_slug, product_name: errors.product_name }}
          idPrefix={idPrefix}
          initiallyManual={initialProduct !== undefined && initialProduct.id === undefined}
          choices={productChoices}
        />
        <AffectedVersions form={form} />
      </Fieldset>

      <ClassificationSection form={form} />

      <VulnerabilitySection form={form}>
        <AttachmentField
          id={id("attachments")}
          label="Attachments"
          hint="Screenshots, recordings, scripts or captures: up to 5 files of at most 20 MB each. Only the people handling the report can download them."
          {...attachments}
        />
      </VulnerabilitySection>

      {!signedIn && (
        <Fieldset legend="4. About you">
          <FormField
            label="Your e-mail address"
            htmlFor={id("email")}
            errors={errors.email}
            hint="We create your researcher account, or link the report to it, and e-mail you a sign-in link to follow the report."
          >
            <input type="email" autoComplete="email" inputMode="email" {...inputProps("email")} />
          </FormField>
          {captcha && (
            <div>
              <p className="block text-sm font-medium text-slate-700" id={id("captcha-label")}>
                Verification
              </p>
              <div className="mt-1">
                <CaptchaWidget
                  key={captcha.key}
                  config={captcha.config}
                  challengeUrl={captchaChallengeUrl}
                  describedBy={errors.captcha ? errorIdFor(id("captcha")) : undefined}
                  onChange={captcha.onChange}
                />
              </div>
              {errors.captcha && (
                <p id={errorIdFor(id("captcha"))} className="mt-1 text-sm text-red-700">
                  {errors.captcha.join(" ")}
                </p>
              )}
            </div>
          )}
        </Fieldset>
      )}

      <FormAlert messages={errors[FORM_ERROR_KEY]} />
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? "Submitting…" : "Submit report"}
        </button>
        {footer}
      </div>
    </form>
  );
}

/** The report was stored but some files were not: said, with a way on. */
function UnattachedFiles({
  unattached,
  onContinue,
}: {
  unattached: Unattached;
  onContinue: (report: SubmittedReport, email: string | null) => void;
}) {
  return (
    <div role="alert" className="space-y-4 rounded-lg border border-amber-300 bg-amber-50 p-5 text-amber-950">
      <h2 className="text-lg font-semibold">Your report was received, but some files were not attached</h2>
      <ul className="list-disc space-y-1 pl-5 text-sm">
        {unattached.failed.map((message) => (
          <li key={message} className="break-words">
            {message}
          </li>
        ))}
      </ul>
      <p className="text-sm">
        Sign in and attach them from the report's page, or put the proof of concept in a comment.
      </p>
      <button
        type="button"
        className="btn-primary"
        onClick={() => onContinue(unattached.report, unattached.email)}
      >
        Continue
      </button>
    </div>
  );
}
