import type { MessageAnswer } from "@pressguard/domain";
import { type FormEvent, useState } from "react";
import { Link } from "react-router";
import { isApiError } from "../../lib/api/api-error.ts";
import { useAuth } from "../../lib/use-auth.ts";
import { errorMessageOf, Field, FormError, FormNotice, INPUT_CLASS } from "./form-fields.tsx";

/**
 * E-mail + password sign-in, or a one-time link by e-mail (spec §4 login flow; PRODUCT.md §7).
 * On success the auth client fetches the user and goes to `redirect` or the on-login route.
 */
export function LoginForm() {
  const auth = useAuth();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  /** Shown once the API asks for the second factor. */
  const [needsCode, setNeedsCode] = useState(false);
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function run(work: () => Promise<void>) {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      await work();
    } catch (caught) {
      if (isApiError(caught) && caught.errors?.code) setNeedsCode(true);
      setError(errorMessageOf(caught));
    } finally {
      setBusy(false);
    }
  }

  function signIn(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void run(async () => {
      await auth.client.login(needsCode ? { email, password, code } : { email, password });
    });
  }

  function sendLink() {
    if (!email) {
      setError("Enter your e-mail address first.");
      return;
    }
    void run(async () => {
      const answer = await auth.api.request<MessageAnswer>("/magic-link", {
        method: "POST",
        body: { email },
      });
      setNotice(answer.message);
    });
  }

  return (
    <form className="mt-6 space-y-4" onSubmit={signIn} noValidate>
      <Field label="E-mail" htmlFor="login-email">
        <input
          className={INPUT_CLASS}
          id="login-email"
          type="email"
          name="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </Field>
      <Field label="Password" htmlFor="login-password">
        <input
          className={INPUT_CLASS}
          id="login-password"
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </Field>
      {needsCode && (
        <Field label="Authentication code" htmlFor="login-code">
          <input
            className={INPUT_CLASS}
            id="login-code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]{6}"
            maxLength={6}
            value={code}
            onChange={(event) => setCode(event.target.value.trim())}
          />
        </Field>
      )}
      <FormError message={error} />
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
