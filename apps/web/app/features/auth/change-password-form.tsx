import { FIRST_PASSWORD_WINDOW_MINUTES, type MessageAnswer, PasswordChange } from "@pressguard/domain";
import { useState } from "react";
import { useApiClient } from "../../lib/api/client.ts";
import { FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { useIdentity } from "../../lib/identity.ts";
import { FormAlert, FormField } from "../../ui/form-field.tsx";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import { FormNotice } from "./form-fields.tsx";

const FIELDS = ["current_password", "password"] as const;
const EMPTY = { current_password: "", password: "" };

/**
 * `PUT /api/user/password` (issue 15), the one password form of both settings pages. An account with
 * a password changes it with the current one; an account made by a magic link or a signed-out report
 * has none (`has_password: false`, issue 19) and sets a first one, soon after signing in (the API's
 * rule). The other sessions and API tokens of the account end; this browser stays signed in.
 */
export function ChangePasswordForm() {
  const client = useApiClient();
  const identity = useIdentity();
  const [hasPassword, setHasPassword] = useState(identity.user?.has_password !== false);
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
        body: hasPassword ? data : { password: data.password },
      });
      form.setValues(EMPTY);
      setHasPassword(true);
      setNotice(answer.message);
    },
  });
  const { errors, busy, idOf: id, inputProps } = form;

  return (
    <section aria-labelledby="change-password-heading" className="space-y-3">
      <h2 id="change-password-heading" className="text-lg font-semibold text-slate-900">
        Password
      </h2>
      {!hasPassword && (
        <p className="max-w-prose text-sm text-slate-600">
          You sign in with links we e-mail you. Set a password to sign in with it too. For your security, set
          it within {FIRST_PASSWORD_WINDOW_MINUTES} minutes of signing in.
        </p>
      )}
      <form method="post" onSubmit={form.handleSubmit} noValidate className="max-w-md space-y-4">
        {hasPassword && (
          <FormField
            label="Current password"
            htmlFor={id("current_password")}
            errors={errors.current_password}
          >
            <input {...inputProps("current_password")} type="password" autoComplete="current-password" />
          </FormField>
        )}
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
          {hasPassword
            ? busy
              ? "Changing the password…"
              : "Change password"
            : busy
              ? "Setting the password…"
              : "Set password"}
        </button>
      </form>
    </section>
  );
}
