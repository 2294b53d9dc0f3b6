import { type FormEvent, useState } from "react";
import { useAuth } from "../../lib/use-auth.ts";
import { errorMessageOf, Field, FormError, INPUT_CLASS } from "./form-fields.tsx";

type Role = "vendor" | "researcher";

/** Where a new vendor goes first: the vendor account set-up (decision 006). */
export const VENDOR_SETUP_PATH = "/vdp/create-account";

/**
 * Creates the account, which signs it in. A new vendor sets up the vendor account first; anyone
 * else goes to the root redirect, which takes them home.
 */
export function RegisterForm({ initialRole = "vendor" }: { initialRole?: Role }) {
  const auth = useAuth();
  const [role, setRole] = useState<Role>(initialRole);
  const [fields, setFields] = useState({ name: "", email: "", password: "" });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await auth.client.signInWith("/register", { ...fields, role });
      window.location.assign(role === "vendor" ? VENDOR_SETUP_PATH : "/");
    } catch (caught) {
      setError(errorMessageOf(caught));
      setBusy(false);
    }
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
