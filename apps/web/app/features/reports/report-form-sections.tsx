import { parseCvssVector, REPORT_LIMITS, VERSION_PREFIXES } from "@pressguard/domain";
import type { ReactNode } from "react";
import { ClassificationSelects } from "../../components/classification-selects.tsx";
import { FormField, INPUT_CLASS } from "../../ui/form-field.tsx";
import type { ReportFormState } from "./use-report-form.ts";

/** The sections of the report form (PRODUCT.md §3), each reading and setting the form's values. */

export function Fieldset({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
      <legend className="px-1 text-base font-semibold text-slate-900">{legend}</legend>
      {children}
    </fieldset>
  );
}

/** Section 1 below the product: which versions are affected. */
export function AffectedVersions({ form }: { form: ReportFormState }) {
  const { values, errors, idOf: id, inputProps } = form;
  return (
    <div className="grid gap-4 sm:grid-cols-[minmax(0,14rem)_minmax(0,1fr)]">
      <FormField
        label="Affected versions"
        htmlFor={id("affected_version_prefix")}
        errors={errors.affected_version_prefix}
      >
        <select {...inputProps("affected_version_prefix")}>
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
          {...inputProps("affected_version")}
        />
      </FormField>
    </div>
  );
}

/** Section 2: the type, the OWASP category, the privilege, and the CVSS vector with its live score. */
export function ClassificationSection({ form }: { form: ReportFormState }) {
  const { values, errors, idOf: id, inputProps } = form;
  const cvss = values.cvss_vector.trim() ? parseCvssVector(values.cvss_vector) : null;
  return (
    <Fieldset legend="2. Classification">
      <ClassificationSelects
        form={form}
        owaspCategoryLabel="OWASP Top 10 category"
        privilegeHint="The lowest WordPress role an attacker needs."
        pairClassName="grid gap-4 sm:grid-cols-2"
      />
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
          {...inputProps("cvss_vector")}
          className={`${INPUT_CLASS} font-mono text-sm`}
          placeholder="CVSS:3.1/…"
        />
      </FormField>
    </Fieldset>
  );
}

type MarkdownField = "description" | "steps_to_reproduce" | "proof_of_concept" | "suggested_fix";

/** Section 3: the title and the Markdown fields; `children` holds the attachments. */
export function VulnerabilitySection({ form, children }: { form: ReportFormState; children: ReactNode }) {
  const { values, errors, idOf: id, inputProps } = form;
  const markdown = (field: MarkdownField, rows: number, placeholder: string) => (
    <textarea
      rows={rows}
      {...inputProps(field)}
      className={`${INPUT_CLASS} font-mono text-sm`}
      placeholder={placeholder}
    />
  );
  return (
    <Fieldset legend="3. The vulnerability">
      <p className="-mt-1 text-sm text-slate-600">Markdown is supported. HTML is shown as text, never run.</p>
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
          {...inputProps("title")}
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
      {children}
    </Fieldset>
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
