import type { MessageAnswer } from "@pressguard/domain";
import { useState } from "react";
import { isApiError } from "../../lib/api/api-error.ts";
import { type FieldErrorMap, FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { useAuth } from "../../lib/use-auth.ts";
import { FormAlert, FormField } from "../../ui/form-field.tsx";
import { Link } from "../../ui/link.tsx";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import { authErrorsOf } from "./auth-errors.ts";
import { FormNotice } from "./form-fields.tsx";

const schemas = () => import("./schemas.ts");

/** Asked for when "Email me a sign-in link" is pressed with the address still empty. */
const EMAIL_FIRST_MESSAGE = "Enter your e-mail address first.";

/**
 * E-mail + password sign-in, or a one-time link by e-mail (spec §4 login flow; PRODUCT.md §7).
 * On success the auth client fetches the user and goes to `redirect` or the on-login route.
 */
export function LoginForm() {
  const auth = useAuth();
  /** Shown once the API asks for the second factor. */
  const [needsCode, setNeedsCode] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const form = useSchemaForm({
    schema: () => schemas().then((module) => module.PasswordSignIn),
    fields: ["email", "password", "code"],
    initialValues: { email: "", password: "", code: "" },
    idPrefix: "login",
    toInput: ({ code, ...credentials }) => (needsCode ? { ...credentials, code } : credentials),
    async onSubmit(credentials) {
      setNotice(null);
      await auth.client.login(credentials);
    },
    // The API's refusals are about the e-mail and password together, and it asks for the code before
    // the code field is there: each is one alert in its words.
    errorsOf: (error) => authErrorsOf(error, []),
    onFailed(error) {
      if (isApiError(error) && error.errors?.code) setNeedsCode(true);
    },
  });
  const sendLink = form.submitWith({
    schema: () => schemas().then((module) => module.EmailedLinkRequest),
    toInput: ({ email }) => ({ email }),
    check: ({ email }): FieldErrorMap => (email ? {} : { email: [EMAIL_FIRST_MESSAGE] }),
    async onSubmit(body) {
      setNotice(null);
      const answer = await auth.api.request<MessageAnswer>("/magic-link", { method: "POST", body });
      setNotice(answer.message);
    },
  });
  const { errors, busy, inputProps } = form;

  return (
    <form method="post" className="mt-6 space-y-4" onSubmit={form.handleSubmit} noValidate>
      <FormField label="E-mail" htmlFor="login-email" errors={errors.email}>
        <input {...inputProps("email")} type="email" autoComplete="email" required />
      </FormField>
      <FormField label="Password" htmlFor="login-password" errors={errors.password}>
        <input {...inputProps("password")} type="password" autoComplete="current-password" />
      </FormField>
      {needsCode && (
        <FormField label="Authentication code" htmlFor="login-code" errors={errors.code}>
          <input
            {...inputProps("code")}
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            onChange={(event) => form.set("code", event.target.value.trim())}
          />
        </FormField>
      )}
      <FormAlert messages={errors[FORM_ERROR_KEY]} />
      <FormNotice message={notice} />
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" className="btn-primary" disabled={busy}>
          Sign in
        </button>
        <button type="button" className="btn-secondary" disabled={busy} onClick={sendLink}>
          Email me a sign-in link
        </button>
      </div>
      <p className="text-sm">
        <Link to="/forgot-password" className="link">
          Forgot your password?
        </Link>
      </p>
    </form>
  );
}
