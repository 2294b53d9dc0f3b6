import type { MessageAnswer } from "@pressguard/domain";
import { useState } from "react";
import { FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { useAuth } from "../../lib/use-auth.ts";
import { FormAlert, FormField } from "../../ui/form-field.tsx";
import { Link } from "../../ui/link.tsx";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import { authErrorsOf } from "./auth-errors.ts";
import { FormNotice } from "./form-fields.tsx";

const schemas = () => import("./schemas.ts");

/** Asks for a reset link; the answer is the same whether or not the address has an account. */
export function ForgotPasswordForm() {
  const { api } = useAuth();
  const [notice, setNotice] = useState<string | null>(null);
  const form = useSchemaForm({
    schema: () => schemas().then((module) => module.EmailedLinkRequest),
    fields: ["email"],
    initialValues: { email: "" },
    idPrefix: "forgot",
    async onSubmit(body) {
      setNotice(null);
      const answer = await api.request<MessageAnswer>("/password/forgot", { method: "POST", body });
      setNotice(answer.message);
    },
    errorsOf: (error) => authErrorsOf(error, ["email"]),
  });
  const { errors, busy, inputProps } = form;

  return (
    <form method="post" className="mt-6 space-y-4" onSubmit={form.handleSubmit} noValidate>
      <FormField label="E-mail" htmlFor="forgot-email" errors={errors.email}>
        <input {...inputProps("email")} type="email" autoComplete="email" />
      </FormField>
      <FormAlert messages={errors[FORM_ERROR_KEY]} />
      <FormNotice message={notice} />
      <button type="submit" className="btn-primary" disabled={busy}>
        Email me a reset link
      </button>
    </form>
  );
}

/** Sets a new password with the mailed link's token; every session of the account ends. */
export function ResetPasswordForm({ token }: { token: string }) {
  const { api } = useAuth();
  const [done, setDone] = useState<string | null>(null);
  const form = useSchemaForm({
    schema: () => schemas().then((module) => module.PasswordReset),
    fields: ["password"],
    initialValues: { password: "" },
    idPrefix: "reset",
    toInput: ({ password }) => ({ token, password }),
    async onSubmit(body) {
      const answer = await api.request<MessageAnswer>("/password/reset", { method: "POST", body });
      setDone(answer.message);
    },
    // A link that is not valid (or has expired) is about the token, which the form does not show.
    errorsOf: (error) => authErrorsOf(error, ["password"]),
  });
  const { errors, busy, inputProps } = form;

  if (done) {
    return (
      <div className="mt-6 space-y-4">
        <FormNotice message={done} />
        <p className="text-sm text-slate-600">
          <Link to="/vdp/login" className="link">
            Vendor login
          </Link>{" "}
          ·{" "}
          <Link to="/researchers/login" className="link">
            Researcher login
          </Link>
        </p>
      </div>
    );
  }
  return (
    <form method="post" className="mt-6 space-y-4" onSubmit={form.handleSubmit} noValidate>
      <FormField label="New password" htmlFor="reset-password" errors={errors.password}>
        <input {...inputProps("password")} type="password" autoComplete="new-password" />
      </FormField>
      {/* The link's token is checked with the password; what is wrong with it belongs to the whole form. */}
      <FormAlert messages={[...(errors.token ?? []), ...(errors[FORM_ERROR_KEY] ?? [])]} />
      <button type="submit" className="btn-primary" disabled={busy}>
        Set the new password
      </button>
      <p className="text-sm text-slate-600">
        Link expired?{" "}
        <Link to="/forgot-password" className="link">
          Ask for a new one
        </Link>
      </p>
    </form>
  );
}
