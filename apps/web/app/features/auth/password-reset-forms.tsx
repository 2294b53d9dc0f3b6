import type { MessageAnswer } from "@pressguard/domain";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { useAuth } from "../../lib/use-auth.ts";
import { errorMessageOf, Field, FormError, FormNotice, INPUT_CLASS } from "./form-fields.tsx";

/** Asks for a reset link; the answer is the same whether or not the address has an account. */
export function ForgotPasswordForm() {
  const { api } = useAuth();
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setNotice(null);
    try {
      const answer = await api.request<MessageAnswer>("/password/forgot", {
        method: "POST",
        body: { email },
      });
      setNotice(answer.message);
    } catch (caught) {
      setError(errorMessageOf(caught));
    }
  }

  return (
    <form className="mt-6 space-y-4" onSubmit={submit} noValidate>
      <Field label="E-mail" htmlFor="forgot-email">
        <input
          className={INPUT_CLASS}
          id="forgot-email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </Field>
      <FormError message={error} />
      <FormNotice message={notice} />
      <button type="submit" className="btn-primary">
        Email me a reset link
      </button>
    </form>
  );
}

/** Sets a new password with the mailed link's token; every session of the account ends. */
export function ResetPasswordForm({ token }: { token: string }) {
  const { api } = useAuth();
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    try {
      const answer = await api.request<MessageAnswer>("/password/reset", {
        method: "POST",
        body: { token, password },
      });
      setDone(answer.message);
    } catch (caught) {
      setError(errorMessageOf(caught));
    }
  }

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
    <form className="mt-6 space-y-4" onSubmit={submit} noValidate>
      <Field label="New password" htmlFor="reset-password">
        <input
          className={INPUT_CLASS}
          id="reset-password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </Field>
      <FormError message={error} />
      <button type="submit" className="btn-primary">
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
