import { type ProgramPolicy, ProgramPolicyBody } from "@pressguard/domain";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useApiClient } from "../../lib/api/client.ts";
import { FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { FormAlert, FormField, INPUT_CLASS } from "../../ui/form-field.tsx";
import { LoadThenEdit } from "../../ui/load-then-edit.tsx";
import { Markdown } from "../../ui/markdown.tsx";
import { toast } from "../../ui/toast.ts";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import { programKeys, programPolicyQuery, programsApi } from "./api.ts";

const FIELDS = ["policy_markdown", "security_contact_email", "support_ends_on"] as const;

/**
 * The program's disclosure policy, single point of contact and support period (issue 20, CRA
 * Art. 13), on the program's edit page: the policy starts from the generated template.
 */
export function PolicyEditor({ id }: { id: string }) {
  const client = useApiClient();
  const policy = useQuery(programPolicyQuery(client, id));
  return (
    <section
      aria-labelledby="program-policy"
      className="mt-8 max-w-3xl rounded-lg border border-slate-200 bg-white p-6 shadow-sm sm:p-8"
    >
      <h2 id="program-policy" className="text-lg font-semibold text-slate-900">
        Disclosure policy and contact
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Published on the program's security policy page and in its security.txt.
      </p>
      <LoadThenEdit record={policy} failure="Error fetching the policy" className="mt-4">
        {(loaded) => <PolicyForm id={id} policy={loaded} />}
      </LoadThenEdit>
    </section>
  );
}

function PolicyForm({ id, policy }: { id: string; policy: ProgramPolicy }) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const form = useSchemaForm({
    schema: ProgramPolicyBody,
    fields: FIELDS,
    idPrefix: "program-policy",
    initialValues: {
      policy_markdown: policy.policy_markdown ?? policy.template,
      security_contact_email: policy.security_contact_email ?? "",
      support_ends_on: policy.support_ends_on ?? "",
    },
    onSubmit: async (data) => {
      const saved = await programsApi.updatePolicy(client, id, data);
      queryClient.setQueryData(programKeys.policy(id), saved);
      // The program's security.txt shown on its page changes with the contact and the support period.
      await queryClient.invalidateQueries({ queryKey: programKeys.program(id) });
      toast.success("Your policy is saved.");
    },
  });
  const { values, errors, busy, inputProps, idOf } = form;
  const usesTemplate = values.policy_markdown.trim() === policy.template.trim();
  return (
    <form method="post" onSubmit={form.handleSubmit} noValidate className="mt-4 space-y-5">
      <FormField
        label="Policy (Markdown)"
        htmlFor={idOf("policy_markdown")}
        errors={errors.policy_markdown}
        hint={
          usesTemplate
            ? "This is the generated policy: it follows your program's name, version and fix deadline."
            : "Your own text. Headings (##), lists, bold and links work; HTML does not."
        }
      >
        <textarea
          rows={16}
          {...inputProps("policy_markdown")}
          className={`${INPUT_CLASS} font-mono text-sm`}
        />
      </FormField>
      <div>
        <button
          type="button"
          className="btn-secondary"
          disabled={usesTemplate}
          onClick={() => form.set("policy_markdown", policy.template)}
        >
          Reset to the template
        </button>
      </div>
      <details className="rounded-md border border-slate-200 p-3">
        <summary className="cursor-pointer text-sm font-medium text-slate-700">Preview</summary>
        <Markdown className="markdown mt-3 text-slate-700">{values.policy_markdown}</Markdown>
      </details>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField
          label="Single point of contact"
          htmlFor={idOf("security_contact_email")}
          errors={errors.security_contact_email}
          optional
          hint={
            policy.default_contact_email
              ? `The security e-mail users and researchers can write to. Blank: ${policy.default_contact_email}.`
              : "The security e-mail users and researchers can write to."
          }
        >
          <input type="email" autoComplete="email" {...inputProps("security_contact_email")} />
        </FormField>
        <FormField
          label="Security updates until"
          htmlFor={idOf("support_ends_on")}
          errors={errors.support_ends_on}
          optional
          hint="The end of the support period you declare for this product."
        >
          <input type="date" {...inputProps("support_ends_on")} />
        </FormField>
      </div>
      <FormAlert messages={errors[FORM_ERROR_KEY]} />
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? "Saving…" : "Save policy"}
      </button>
    </form>
  );
}
