import {
  OWASP_CATEGORIES,
  parseCvssVector,
  REPORT_FORM_FIELDS,
  REPORT_LIMITS,
  ReportSubmission,
  SignedOutReportSubmission,
  type SubmittedReport,
  VERSION_PREFIXES,
  VULNERABILITY_TYPES,
  WORDPRESS_ROLES,
} from "@pressguard/domain";
import { type FormEvent, type ReactNode, useState } from "react";
import { AttachmentField } from "../../components/attachment-field.tsx";
import { useApiClient } from "../../lib/api/client.ts";
import {
  apiErrorToFieldErrors,
  type FieldErrorMap,
  FORM_ERROR_KEY,
  validateForm,
} from "../../lib/form-errors.ts";
import { usePublicConfig } from "../../lib/public-config.ts";
import { owaspLabel } from "../../lib/report-labels.ts";
import { errorIdFor, FormAlert, FormField, INPUT_CLASS } from "../../ui/form-field.tsx";
import { reportsApi } from "./api.ts";
import { CaptchaWidget } from "./captcha-widget.tsx";
import { type ChosenProduct, type ProductChoice, ProductPicker } from "./product-picker.tsx";

type FieldName = (typeof REPORT_FORM_FIELDS)[number];
/** Every field the server may answer about, in the order the form shows them. */
const KNOWN_FIELDS: readonly string[] = [...REPORT_FORM_FIELDS, "captcha"];

type TextField = Exclude<FieldName, "kind" | "product_slug" | "product_name">;
type TextValues = Record<TextField, string>;

const EMPTY_VALUES: TextValues = {
  affected_version_prefix: "<=",
  affected_version: "",
  vulnerability_type: "",
  owasp_category: "",
  required_privilege: "",
  title: "",
  description: "",
  steps_to_reproduce: "",
  proof_of_concept: "",
  suggested_fix: "",
  cvss_vector: "",
  email: "",
};

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
  onSubmit: (body: Record<string, unknown>) => Promise<SubmittedReport>;
  /** After a 201: where to go next. */
  onSubmitted: (report: SubmittedReport, email: string | null) => void;
  idPrefix?: string;
  footer?: ReactNode;
}

/** The domain schema's codes are numbers; the selects hold text. Blank stays undefined (the schema's "required"). */
function codeOf(value: string): number | undefined {
  return value === "" ? undefined : Number(value);
}

/**
 * The one report form of PRODUCT.md §3 (`/database/report`, the pre-filled product route, the vendor
 * embed): validated in the browser with the domain schema the server uses (`ReportSubmission`, or
 * `SignedOutReportSubmission` with its required e-mail), so each field shows the server's own message.
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
  const [product, setProduct] = useState<ChosenProduct>(
    initialProduct ?? { kind: "plugin", slug: "", name: "" },
  );
  const [values, setValues] = useState<TextValues>(EMPTY_VALUES);
  const captchaConfig = usePublicConfig().captcha;
  // CAPTCHA=off (tests only): the server asks for no answer, so the form shows no widget.
  const captchaRequired = !signedIn && captchaConfig.mode !== "off";
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [captchaKey, setCaptchaKey] = useState(0);
  const [errors, setErrors] = useState<FieldErrorMap>({});
  const [busy, setBusy] = useState(false);
  const client = useApiClient();
  const [files, setFiles] = useState<File[]>([]);
  const [fileErrors, setFileErrors] = useState<string[]>([]);
  /** The report was stored but some files were not: said before moving on. */
  const [unattached, setUnattached] = useState<{
    report: SubmittedReport;
    email: string | null;
    failed: string[];
  } | null>(null);
  const id = (field: string) => `${idPrefix}-${field}`;

  function clearErrors(...fields: string[]) {
    if (!fields.some((field) => errors[field])) return;
    setErrors((current) => {
      const next = { ...current };
      for (const field of fields) delete next[field];
      return next;
    });
  }

  function set(field: TextField, value: string) {
    setValues((current) => {
      const next = { ...current, [field]: value };
      // A type with a usual OWASP category fills it in, unless one was chosen already.
      if (field === "vulnerability_type" && current.owasp_category === "") {
        const owasp = VULNERABILITY_TYPES.find((type) => String(type.code) === value)?.owasp;
        if (owasp) next.owasp_category = String(owasp);
      }
      return next;
    });
    clearErrors(field);
  }

  function input(): Record<string, unknown> {
    return {
      kind: product.kind,
      product_slug: product.slug,
      product_name: product.name,
      affected_version_prefix: values.affected_version_prefix,
      affected_version: values.affected_version,
      vulnerability_type: codeOf(values.vulnerability_type),
      owasp_category: codeOf(values.owasp_category),
      required_privilege: codeOf(values.required_privilege),
      title: values.title,
      description: values.description,
      steps_to_reproduce: values.steps_to_reproduce,
      proof_of_concept: values.proof_of_concept,
      suggested_fix: values.suggested_fix,
      cvss_vector: values.cvss_vector,
      ...(!signedIn && { email: values.email }),
    };
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = validateForm(signedIn ? ReportSubmission : SignedOutReportSubmission, input());
    const found: FieldErrorMap = checked.success ? {} : { ...checked.errors };
    if (captchaRequired && !captcha)
      found.captcha = ["Solve the captcha to submit a report without signing in."];
    if (!checked.success || found.captcha) {
      setErrors(found);
      focusFirstError(idPrefix, found);
      return;
    }
    const { email, ...report } = checked.data;
    const body: Record<string, unknown> = signedIn
      ? report
      : { ...report, email, ...(captchaRequired && { captcha }) };
    setBusy(true);
    setErrors({});
    try {
      const submitted = await onSubmit(body);
      const reporterEmail = signedIn ? null : (email ?? null);
      const failed = await attachFiles(submitted);
      if (failed.length > 0) setUnattached({ report: submitted, email: reporterEmail, failed });
      else onSubmitted(submitted, reporterEmail);
    } catch (error) {
      const mapped = apiErrorToFieldErrors(error, KNOWN_FIELDS);
      setErrors(mapped);
      focusFirstError(idPrefix, mapped);
      // A captcha answer is good once: a refused submission asks for a new one.
      if (!signedIn) {
        setCaptcha(null);
        setCaptchaKey((key) => key + 1);
      }
      setBusy(false);
    }
  }

  /** The picked files, one request each with the new report's upload token; the ones refused, by name. */
  async function attachFiles(report: SubmittedReport): Promise<string[]> {
    const failed: string[] = [];
    for (const file of files) {
      try {
        await reportsApi.uploadAttachment(client, report.id, file, report.upload_token);
      } catch (error) {
        failed.push(
          `${file.name}: ${error instanceof Error && error.message ? error.message : "not attached."}`,
        );
      }
    }
    return failed;
  }

  if (unattached) {
    return (
      <div
        role="alert"
        className="space-y-4 rounded-lg border border-amber-300 bg-amber-50 p-5 text-amber-950"
      >
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
          onClick={() => onSubmitted(unattached.report, unattached.email)}
        >
          Continue
        </button>
      </div>
    );
  }

  const fieldProps = (field: TextField) => ({
    id: id(field),
    name: field,
    value: values[field],
    "aria-invalid": errors[field] ? true : undefined,
    "aria-describedby": errors[field] ? errorIdFor(id(field)) : undefined,
    className: INPUT_CLASS,
  });
  const markdown = (field: TextField, rows: number, placeholder: string) => (
    <textarea
      rows={rows}
      {...fieldProps(field)}
      className={`${INPUT_CLASS} font-mono text-sm`}
      placeholder={placeholder}
      onChange={(event) => set(field, event.target.value)}
    />
  );
  const cvss = values.cvss_vector.trim() ? parseCvssVector(values.cvss_vector) : null;
  const productErrors = {
    kind: errors.kind,
    product_slug: errors.product_slug,
    product_name: errors.product_name,
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-8" aria-label="Report a vulnerability">
      <Fieldset legend="1. Affected software">
        <ProductPicker
          value={product}
          onChange={(next) => {
            setProduct(next);
            clearErrors("kind", "product_slug", "product_name");
          }}
          errors={productErrors}
          idPrefix={idPrefix}
          initiallyManual={initialProduct !== undefined && initialProduct.id === undefined}
          choices={productChoices}
        />
        <div className="grid gap-4 sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)]">
          <FormField
            label="Affected versions"
            htmlFor={id("affected_version_prefix")}
            errors={errors.affected_version_prefix}
          >
            <select
              {...fieldProps("affected_version_prefix")}
              onChange={(event) => set("affected_version_prefix", event.target.value)}
            >
              {VERSION_PREFIXES.map((prefix) => (
                <option key={prefix.value} value={prefix.value}>
                  {prefix.value ? `${prefix.value} ${prefix.label.toLowerCase()}` : prefix.label}
                </option>
              ))}
            </select>
          </FormField>
          <FormField
            label="Version"
            htmlFor={id("affected_version")}
            errors={errors.affected_version}
            hint={
              values.affected_version_prefix === "<="
                ? "The latest version you found vulnerable, e.g. 5.9.4."
                : values.affected_version_prefix === "<"
                  ? "The first version that is not vulnerable."
                  : "The one version you tested."
            }
          >
            <input
              type="text"
              inputMode="decimal"
              autoComplete="off"
              spellCheck={false}
              placeholder="1.2.3"
              {...fieldProps("affected_version")}
              onChange={(event) => set("affected_version", event.target.value)}
            />
          </FormField>
        </div>
      </Fieldset>

      <Fieldset legend="2. Classification">
        <FormField
          label="Vulnerability type"
          htmlFor={id("vulnerability_type")}
          errors={errors.vulnerability_type}
        >
          <select
            {...fieldProps("vulnerability_type")}
            onChange={(event) => set("vulnerability_type", event.target.value)}
          >
            <option value="">Choose a type…</option>
            {VULNERABILITY_TYPES.map((type) => (
              <option key={type.code} value={type.code}>
                {type.label}
              </option>
            ))}
          </select>
        </FormField>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormField
            label="OWASP Top 10 category"
            htmlFor={id("owasp_category")}
            errors={errors.owasp_category}
          >
            <select
              {...fieldProps("owasp_category")}
              onChange={(event) => set("owasp_category", event.target.value)}
            >
              <option value="">Choose a category…</option>
              {OWASP_CATEGORIES.map((category) => (
                <option key={category.code} value={category.code}>
                  {owaspLabel(category.code)}
                </option>
              ))}
            </select>
          </FormField>
          <FormField
            label="Required privilege"
            htmlFor={id("required_privilege")}
            errors={errors.required_privilege}
            hint="The lowest WordPress role an attacker needs."
          >
            <select
              {...fieldProps("required_privilege")}
              onChange={(event) => set("required_privilege", event.target.value)}
            >
              <option value="">Choose a role…</option>
              {WORDPRESS_ROLES.map((role) => (
                <option key={role.code} value={role.code}>
                  {role.label}
                </option>
              ))}
            </select>
          </FormField>
        </div>
        <FormField
          label="CVSS 3.1 vector"
          htmlFor={id("cvss_vector")}
          errors={errors.cvss_vector}
          optional
          hint={
            cvss?.ok ? (
              <span data-testid="cvss-preview">
                Base score {cvss.baseScore.toFixed(1)} ({cvss.severity}). Our triage team confirms the score.
              </span>
            ) : (
              "e.g. CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N. Our triage team confirms the score."
            )
          }
        >
          <input
            type="text"
            autoComplete="off"
            spellCheck={false}
            {...fieldProps("cvss_vector")}
            className={`${INPUT_CLASS} font-mono text-sm`}
            placeholder="CVSS:3.1/…"
            onChange={(event) => set("cvss_vector", event.target.value)}
          />
        </FormField>
      </Fieldset>

      <Fieldset legend="3. The vulnerability">
        <p className="-mt-1 text-sm text-slate-600">
          Markdown is supported. HTML is shown as text, never run.
        </p>
        <FormField
          label="Title"
          htmlFor={id("title")}
          errors={errors.title}
          hint={`${REPORT_LIMITS.titleMin} to ${REPORT_LIMITS.titleMax} characters, e.g. "Stored XSS in the form title".`}
        >
          <input
            type="text"
            autoComplete="off"
            maxLength={REPORT_LIMITS.titleMax + 50}
            {...fieldProps("title")}
            onChange={(event) => set("title", event.target.value)}
          />
        </FormField>
        <FormField
          label="Description"
          htmlFor={id("description")}
          errors={errors.description}
          hint={<CharacterCount value={values.description} />}
        >
          {markdown("description", 6, "What is vulnerable, where, and what an attacker can do with it.")}
        </FormField>
        <FormField
          label="Steps to reproduce"
          htmlFor={id("steps_to_reproduce")}
          errors={errors.steps_to_reproduce}
          hint={<CharacterCount value={values.steps_to_reproduce} />}
        >
          {markdown("steps_to_reproduce", 6, "1. Install version …\n2. Log in as …\n3. Open …")}
        </FormField>
        <FormField
          label="Proof of concept"
          htmlFor={id("proof_of_concept")}
          errors={errors.proof_of_concept}
          hint={<CharacterCount value={values.proof_of_concept} />}
        >
          {markdown("proof_of_concept", 6, "The request, payload or script that shows the issue.")}
        </FormField>
        <FormField label="Suggested fix" htmlFor={id("suggested_fix")} errors={errors.suggested_fix} optional>
          {markdown("suggested_fix", 4, "How the vendor could fix it.")}
        </FormField>
        <AttachmentField
          id={id("attachments")}
          label="Attachments"
          hint="Screenshots, recordings, scripts or captures: up to 5 files of at most 20 MB each. Only the people handling the report can download them."
          files={files}
          errors={fileErrors.length > 0 ? fileErrors : undefined}
          onChange={(next, refused) => {
            setFiles(next);
            setFileErrors(refused);
          }}
        />
      </Fieldset>

      {!signedIn && (
        <Fieldset legend="4. About you">
          <FormField
            label="Your e-mail address"
            htmlFor={id("email")}
            errors={errors.email}
            hint="We create your researcher account, or link the report to it, and e-mail you a sign-in link to follow the report."
          >
            <input
              type="email"
              autoComplete="email"
              inputMode="email"
              {...fieldProps("email")}
              onChange={(event) => set("email", event.target.value)}
            />
          </FormField>
          {captchaRequired && (
            <div>
              <p className="block text-sm font-medium text-slate-700" id={id("captcha-label")}>
                Verification
              </p>
              <div className="mt-1">
                <CaptchaWidget
                  key={captchaKey}
                  config={captchaConfig}
                  challengeUrl={captchaChallengeUrl}
                  describedBy={errors.captcha ? errorIdFor(id("captcha")) : undefined}
                  onChange={(payload) => {
                    setCaptcha(payload);
                    if (payload) clearErrors("captcha");
                  }}
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

function Fieldset({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <legend className="px-1 text-base font-semibold text-slate-900">{legend}</legend>
      {children}
    </fieldset>
  );
}

function CharacterCount({ value }: { value: string }) {
  const length = value.trim().length;
  const short = length < REPORT_LIMITS.markdownMin;
  return (
    <span>
      Markdown, at least {REPORT_LIMITS.markdownMin} characters
      {length > 0 && short && ` (${REPORT_LIMITS.markdownMin - length} to go)`}.
    </span>
  );
}

/** The product search stands in for the slug and name until a product is typed in. */
function focusFirstError(idPrefix: string, errors: FieldErrorMap) {
  const first = KNOWN_FIELDS.find((field) => errors[field]);
  if (!first) return;
  const target =
    document.getElementById(`${idPrefix}-${first}`) ??
    (first === "product_slug" || first === "product_name"
      ? document.getElementById(`${idPrefix}-product_search`)
      : null) ??
    document.querySelector<HTMLElement>(`[data-testid="captcha"] input, #${idPrefix}-captcha-label`);
  target?.focus();
}
