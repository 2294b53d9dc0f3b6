import { type MessageAnswer, REGISTRATION_ROLES, type RegistrationRole } from "@pressguard/domain";
import { useState } from "react";
import { FORM_ERROR_KEY } from "../../lib/form-errors.ts";
import { VENDOR_SETUP_PATH, WATCHLISTS_PATH } from "../../lib/session-user.ts";
import { useAuth } from "../../lib/use-auth.ts";
import { FormAlert, FormField } from "../../ui/form-field.tsx";
import { Link } from "../../ui/link.tsx";
import { useSchemaForm } from "../../ui/use-schema-form.ts";
import { authErrorsOf } from "./auth-errors.ts";
import { FormNotice } from "./form-fields.tsx";

/**
 * Where each role signs in after confirming the address; a new account then lands on its set-up (the
 * vendor account, decision 006; the researcher profile, by the root redirect: issue 19), a site owner
 * on the watchlists (issue 20).
 */
const SIGN_IN_AFTER_REGISTRATION: Record<RegistrationRole, string> = {
  vendor: `/vdp/login?redirect=${encodeURIComponent(VENDOR_SETUP_PATH)}`,
  researcher: "/researchers/login",
  site_owner: `/vdp/login?redirect=${encodeURIComponent(WATCHLISTS_PATH)}`,
};

const ROLE_LABELS: Record<RegistrationRole, string> = {
  vendor: "Vendor (plugin or theme author)",
  researcher: "Security researcher",
  site_owner: "Site owner (watch my sites' plugins)",
};

/** The text fields in the order of the form (the role's radios always hold one of its values). */
const FIELDS = ["name", "email", "password"] as const;

/**
 * Creates the account. The answer is the same whether or not the address already has one (the
 * owner of a known address is told by e-mail), so the form only says to check the e-mail, then
 * sign in.
 */
export function RegisterForm({ initialRole = "vendor" }: { initialRole?: RegistrationRole }) {
  const auth = useAuth();
  const [sent, setSent] = useState<string | null>(null);
  const form = useSchemaForm({
    schema: () => import("./schemas.ts").then((module) => module.Registration),
    fields: FIELDS,
    initialValues: { name: "", email: "", password: "", role: initialRole },
    idPrefix: "register",
    async onSubmit(body) {
      const answer = await auth.api.request<MessageAnswer>("/register", { method: "POST", body });
      setSent(answer.message);
    },
    errorsOf: (error) => authErrorsOf(error, FIELDS),
  });
  const { values, errors, busy, inputProps } = form;

  if (sent) {
    return (
      <div className="mt-6 max-w-md space-y-4">
        <FormNotice message={sent} />
        <p className="text-sm text-slate-700">
          Once you have confirmed your address,{" "}
          <Link to={SIGN_IN_AFTER_REGISTRATION[values.role]} className="link">
            sign in
          </Link>
          .
        </p>
      </div>
    );
  }

  return (
    <form method="post" className="mt-6 max-w-md space-y-4" onSubmit={form.handleSubmit} noValidate>
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">I am a</legend>
        <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
          {REGISTRATION_ROLES.map((value) => (
            <label key={value} className="flex items-center gap-2 text-sm text-slate-700">
              <input
                type="radio"
                name="role"
                value={value}
                checked={values.role === value}
                onChange={() => form.set("role", value)}
              />
              {ROLE_LABELS[value]}
            </label>
          ))}
        </div>
      </fieldset>
      <FormField label="Name" htmlFor="register-name" errors={errors.name}>
        <input {...inputProps("name")} type="text" autoComplete="name" required />
      </FormField>
      <FormField label="E-mail" htmlFor="register-email" errors={errors.email}>
        <input {...inputProps("email")} type="email" autoComplete="email" required />
      </FormField>
      <FormField label="Password" htmlFor="register-password" errors={errors.password}>
        <input {...inputProps("password")} type="password" autoComplete="new-password" required />
      </FormField>
      <FormAlert messages={errors[FORM_ERROR_KEY]} />
      <button type="submit" className="btn-primary" disabled={busy}>
        Create account
      </button>
    </form>
  );
}
