import type { MessageAnswer } from "@pressguard/domain";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { useAuth } from "../../lib/use-auth.ts";
import { errorMessageOf, Field, FormError, FormNotice, INPUT_CLASS } from "./form-fields.tsx";

type Role = "vendor" | "researcher";

/** Where a new vendor goes first: the vendor account set-up (decision 006). */
const VENDOR_SETUP_PATH = "/vdp/create-account";

/** Where each role signs in after confirming the address; a new vendor then sets up the vendor account. */
const SIGN_IN_AFTER_REGISTRATION: Record<Role, string> = {
  vendor: `/vdp/login?redirect=${encodeURIComponent(VENDOR_SETUP_PATH)}`,
  researcher: "/researchers/login",
};

/**
 * Creates the account. The answer is the same whether or not the address already has one (the
 * owner of a known address is told by e-mail), so the form only says to check the e-mail, then
 * sign in.
 */
export function RegisterForm({ initialRole = "vendor" }: { initialRole?: Role }) {
  const auth = useAuth();
  const [role, setRole] = useState<Role>(initialRole);
  const [fields, setFields] = useState({ name: "", email: "", password: "" });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await auth.api.request<MessageAnswer>("/register", {
        method: "POST",
        body: { ...fields, role },
      });
      setSent(answer.message);
    } catch (caught) {
      setError(errorMessageOf(caught));
    } finally {
      setBusy(false);
    }
  }

  if (sent) {
    return (
      <div className="mt-6 max-w-md space-y-4">
        <FormNotice message={sent} />
        <p className="text-sm text-slate-700">
          Once you have confirmed your address,{" "}
          <Link to={SIGN_IN_AFTER_REGISTRATION[role]} className="link">
            sign in
          </Link>
          .
        </p>
      </div>
    );
  }

  const input = (name: keyof typeof fields, type: string, autoComplete: string) => (
    <input
      className={INPUT_CLASS}
      id={`register-${name}`}
      type={type}
      name={name}
      autoComplete={autoComplete}
      required
      value={fields[name]}
      onChange={(event) => setFields({ ...fields, [name]: event.target.value })}
    />
  );

  return (
    <form className="mt-6 max-w-md space-y-4" onSubmit={submit} noValidate>
      <fieldset>
        <legend className="text-sm font-medium text-slate-700">I am a</legend>
        <div className="mt-2 flex gap-6">
          {(["vendor", "researcher"] as const).map((value) => (
            <label key={value} className="flex items-center gap-2 text-sm text-slate-700">
              <input
                type="radio"
                name="role"
                value={value}
                checked={role === value}
                onChange={() => setRole(value)}
              />
              {value === "vendor" ? "Vendor (plugin or theme author)" : "Security researcher"}
            </label>
          ))}
        </div>
      </fieldset>
      <Field label="Name" htmlFor="register-name">
        {input("name", "text", "name")}
      </Field>
      <Field label="E-mail" htmlFor="register-email">
        {input("email", "email", "email")}
      </Field>
      <Field label="Password" htmlFor="register-password">
        {input("password", "password", "new-password")}
      </Field>
      <FormError message={error} />
      <button type="submit" className="btn-primary" disabled={busy}>
        Create account
      </button>
    </form>
  );
}
