import {
  REPORT_FORM_FIELDS,
  type ReportSubmissionRequest,
  type SubmittedReport,
  VULNERABILITY_TYPES,
} from "@pressguard/domain";
import { useState } from "react";
import { useApiClient } from "../../lib/api/client.ts";
import type { FieldErrorMap } from "../../lib/form-errors.ts";
import { usePublicConfig } from "../../lib/public-config.ts";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import { reportsApi } from "./api.ts";
import type { ChosenProduct } from "./chosen-product.ts";

/** Every field the server may answer about, in the order the form shows them. */
const KNOWN_FIELDS: readonly string[] = [...REPORT_FORM_FIELDS, "captcha"];

const CAPTCHA_MESSAGE = "Solve the captcha to submit a report without signing in.";

const EMPTY_TEXT = {
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
/** The form's values: the text of each field, and the product the picker holds. */
type ReportValues = typeof EMPTY_TEXT & { product: ChosenProduct };

/** The domain schema's codes are numbers; the selects hold text. Blank stays undefined (the schema's "required"). */
function codeOf(value: string): number | undefined {
  return value === "" ? undefined : Number(value);
}

/** A report stored with some of its files refused: said before moving on. */
export interface Unattached {
  report: SubmittedReport;
  email: string | null;
  failed: string[];
}

interface ReportFormSetup {
  signedIn: boolean;
  initialProduct: ChosenProduct | undefined;
  idPrefix: string;
  onSubmit: (body: ReportSubmissionRequest) => Promise<SubmittedReport>;
  onSubmitted: (report: SubmittedReport, email: string | null) => void;
}

/**
 * The report form's state and its save (PRODUCT.md §3), on the one form layer: the values are
 * checked by `ReportSubmission` (signed out: `SignedOutReportSubmission`, whose e-mail is required)
 * and the captcha; then the report is sent, and its files follow, one request each.
 */
export function useReportForm({
  signedIn,
  initialProduct,
  idPrefix,
  onSubmit,
  onSubmitted,
}: ReportFormSetup) {
  const client = useApiClient();
  const captchaConfig = usePublicConfig().captcha;
  // CAPTCHA=off (tests only): the server asks for no answer, so the form shows no widget.
  const captchaRequired = !signedIn && captchaConfig.mode !== "off";
  const [captcha, setCaptcha] = useState<string | null>(null);
  const [captchaKey, setCaptchaKey] = useState(0);
  const [files, setFiles] = useState<File[]>([]);
  const [fileErrors, setFileErrors] = useState<string[]>([]);
  const [unattached, setUnattached] = useState<Unattached | null>(null);

  const form = useSchemaForm({
    schema: () =>
      import("./schemas.ts").then((schemas) =>
        signedIn ? schemas.ReportSubmission : schemas.SignedOutReportSubmission,
      ),
    fields: KNOWN_FIELDS,
    idPrefix,
    initialValues: (): ReportValues => ({
      ...EMPTY_TEXT,
      product: initialProduct ?? { kind: "plugin", slug: "", name: "" },
    }),
    toInput: ({ product, email, ...values }) => ({
      ...values,
      kind: product.kind,
      product_slug: product.slug,
      product_name: product.name,
      vulnerability_type: codeOf(values.vulnerability_type),
      owasp_category: codeOf(values.owasp_category),
      required_privilege: codeOf(values.required_privilege),
      ...(!signedIn && { email }),
    }),
    check: (): FieldErrorMap => (captchaRequired && !captcha ? { captcha: [CAPTCHA_MESSAGE] } : {}),
    // A type with a usual OWASP category fills it in, unless one was chosen already.
    derive(next, changed) {
      if (changed !== "vulnerability_type" || next.owasp_category !== "") return next;
      const owasp = VULNERABILITY_TYPES.find((type) => String(type.code) === next.vulnerability_type)?.owasp;
      return owasp ? { ...next, owasp_category: String(owasp) } : next;
    },
    // The product search stands in for the slug and name until a product is typed in.
    focusTarget: (field) =>
      field === "product_slug" || field === "product_name"
        ? document.getElementById(`${idPrefix}-product_search`)
        : field === "captcha"
          ? document.querySelector<HTMLElement>(`[data-testid="captcha"] input, #${idPrefix}-captcha-label`)
          : null,
    async onSubmit({ email, ...report }) {
      const body: ReportSubmissionRequest = signedIn
        ? report
        : { ...report, email, ...(captchaRequired && captcha !== null && { captcha }) };
      const submitted = await onSubmit(body);
      const reporterEmail = signedIn ? null : (email ?? null);
      const failed = await attachFiles(submitted);
      if (failed.length > 0) setUnattached({ report: submitted, email: reporterEmail, failed });
      else onSubmitted(submitted, reporterEmail);
    },
    // A captcha answer is good once: a refused submission asks for a new one.
    onFailed() {
      if (signedIn) return;
      setCaptcha(null);
      setCaptchaKey((key) => key + 1);
    },
  });

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

  return {
    form,
    unattached,
    attachments: {
      files,
      errors: fileErrors.length > 0 ? fileErrors : undefined,
      onChange: (next: File[], refused: string[]) => {
        setFiles(next);
        setFileErrors(refused);
      },
    },
    captcha: captchaRequired
      ? {
          config: captchaConfig,
          key: captchaKey,
          onChange: (payload: string | null) => {
            setCaptcha(payload);
            if (payload) form.clearErrors("captcha");
          },
        }
      : null,
  };
}

export type ReportFormState = ReturnType<typeof useReportForm>["form"];
