import { type MessageAnswer, PasswordChange } from "@pressguard/domain";
import { useState } from "react";
import { useApiClient } from "../../lib/api/client.ts";
import { FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { FormAlert, FormField } from "../../ui/form-field.tsx";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import { FormNotice } from "./form-fields.tsx";

const FIELDS = ["current_password", "password"] as const;
const EMPTY = { current_password: "", password: "" };

/**
 * `PUT /api/user/password` (issue 15). An account made by a magic link or a signed-out report has no
 * password yet: it leaves the current one empty and sets a first one. The other sessions and API tokens
 * of the account end; this browser stays signed in.
 */
export function ChangePasswordForm() {
  const client = useApiClient();
  const [notice, setNotice] = useState<string | null>(null);
  const form = useSchemaForm({
    schema: PasswordChange,
    fields: FIELDS,
    initialValues: EMPTY,
    idPrefix: "change-password",
    async onSubmit(data) {
      setNotice(null);
      const answer = await client.request<MessageAnswer>("/user/password", {
        method: "PUT",
        body: data.current_password ? data : { password: data.password },
      });
      form.setValues(EMPTY);
      setNotice(answer.message);
    },
  });
  const { errors, busy, idOf: id, inputProps } = form;

  return (
    <section aria-labelledby="change-password-heading" className="space-y-3">
      <h2 id="change-password-heading" className="text-lg font-semibold text-slate-900">
        Password
      </h2>
      <form onSubmit={form.handleSubmit} noValidate className="max-w-md space-y-4">
        <FormField
          label="Current password"
          htmlFor={id("current_password")}
          errors={errors.current_password}
          hint="Leave it empty if you have always signed in with e-mailed links and have no password yet."
        >
          <input {...inputProps("current_password")} type="password" autoComplete="current-password" />
        </FormField>
        <FormField
          label="New password"
          htmlFor={id("password")}
          errors={errors.password}
          hint="At least 8 characters."
        >
          <input {...inputProps("password")} type="password" autoComplete="new-password" />
        </FormField>
        <FormAlert messages={errors[FORM_ERROR_KEY]} />
        <FormNotice message={notice} />
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? "Changing the password…" : "Change password"}
        </button>
      </form>
    </section>
  );
}
