import { useEffect } from "react";
import { isRouteErrorResponse } from "react-router";
import { readStoredToken } from "../lib/api/token-storage.ts";
import { reportError } from "../lib/error-reporting.ts";
import { describeError } from "../lib/errors.ts";
import { useSettleIdentity } from "../lib/identity.ts";
import { identityPendingOf } from "../lib/identity-pending.ts";
import { useReloadOnNewVersion } from "../lib/use-app-version.ts";
import { Link } from "./link.tsx";

interface ErrorScreenProps {
  error: unknown;
}

/**
 * The one error screen (spec §2, §8), used by the root and every layout's ErrorBoundary: the status
 * code large, the message as the heading ("Page not found", else DEFAULT_ERROR_MESSAGE of lib/errors.ts).
 */
export function ErrorScreen({ error }: ErrorScreenProps) {
  const pending = identityPendingOf(error);
  if (pending) return <IdentityPendingShell loginPath={pending.loginPath} />;
  return <ErrorDetails error={error} />;
}

/**
 * Decision 021: a page the server could not show because it cannot see a token kept in
 * localStorage. With a stored token every loader runs again (`useSettleIdentity`) and the page
 * replaces this shell; without one the visitor is anonymous and goes to the login page.
 */
function IdentityPendingShell({ loginPath }: { loginPath: string }) {
  useSettleIdentity(true);
  useEffect(() => {
    if (!readStoredToken("localStorage")) window.location.replace(loginPath);
  }, [loginPath]);
  return (
    <p role="status" className="py-16 text-center text-slate-600">
      Loading your account…
    </p>
  );
}

function ErrorDetails({ error }: ErrorScreenProps) {
  const { status, message } = describeError(error);
  useReloadOnNewVersion(error);

  useEffect(() => {
    // Answers thrown on purpose (404 …) are expected; a crash in the browser is reported.
    if (!isRouteErrorResponse(error)) reportError(error);
  }, [error]);

  const stack = import.meta.env.DEV && error instanceof Error ? error.stack : undefined;

  return (
    <section
      aria-labelledby="error-heading"
      className="mx-auto flex max-w-2xl flex-col items-center py-16 text-center"
    >
      <p className="text-8xl font-black tracking-tight text-slate-900 sm:text-9xl" aria-hidden="true">
        {status}
      </p>
      <h1 id="error-heading" className="mt-4 text-2xl font-semibold text-slate-900 sm:text-3xl">
        <span className="sr-only">{status} </span>
        {message}
      </h1>
      <p className="mt-3 text-slate-600">
        {status === 404
          ? "The address may be mistyped, or the page has moved."
          : "Please try again in a moment. If the problem persists, contact us."}
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Link to="/database" className="btn-primary">
          Browse the vulnerability database
        </Link>
        <Link to="/vdp/login" className="btn-secondary">
          Log in
        </Link>
      </div>
      {stack && (
        <pre className="mt-10 w-full overflow-x-auto rounded-md bg-slate-900 p-4 text-left text-xs text-slate-100">
          {stack}
        </pre>
      )}
    </section>
  );
}
