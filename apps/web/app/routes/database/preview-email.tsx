import type { ReactNode } from "react";
import { useLocation } from "react-router";
import type { PreviewEmailState } from "../../features/reports/use-report-submission.ts";
import { pageMeta } from "../../lib/seo.ts";
import { Link } from "../../ui/link.tsx";
import { PageHeader } from "../../ui/page-header.tsx";

export const meta = pageMeta(
  "Check your inbox",
  "Find the e-mailed link that signs you in to follow the vulnerability report you just sent.",
);

function stateOf(value: unknown): PreviewEmailState | null {
  if (!value || typeof value !== "object") return null;
  const state = value as Partial<PreviewEmailState>;
  return typeof state.title === "string" ? (state as PreviewEmailState) : null;
}

/**
 * PRODUCT.md §3: after a signed-out report, tell the reporter to check their inbox for the sign-in
 * link (the report's answer says whether an account was created and whether the link went out).
 * Opened directly, without the report's answer, the page says the same in general terms.
 */
export default function PreviewEmailPage() {
  const state = stateOf(useLocation().state);
  const address = state?.email ? (
    <strong className="break-all text-slate-900">{state.email}</strong>
  ) : (
    "your address"
  );
  if (state?.twoFactorRequired) return <SignInWithPassword state={state} address={address} />;
  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader
        title="Check your inbox"
        lead={
          state && !state.magicLinkSent ? (
            <>
              Your report is stored. We could not send a new sign-in link right now: sign in later to follow
              it.
            </>
          ) : (
            <>We sent a sign-in link to {address}. Open it to follow your report and to be credited for it.</>
          )
        }
      />
      <div className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 text-slate-700 shadow-sm">
        {state && (
          <p>
            Report received:{" "}
            <strong className="break-words text-slate-900" data-testid="submitted-title">
              {state.title}
            </strong>
          </p>
        )}
        {state?.accountCreated && (
          <p>
            A researcher account was created for {address}. The link signs you in; you can set a password
            later in your account settings.
          </p>
        )}
        {state && !state.accountCreated && (
          <p>The report was added to the researcher account of {address}.</p>
        )}
        <p className="text-sm text-slate-600">
          The link works once and for 15 minutes. Nothing arrived? Check your spam folder, or ask for a new
          link on the{" "}
          <Link to="/researchers/login" className="link">
            researcher login
          </Link>{" "}
          page.
        </p>
      </div>
      <p className="mt-6">
        <Link to="/database" className="btn-secondary">
          Back to the database
        </Link>
      </p>
    </div>
  );
}

/** An account with a second factor never gets a sign-in link (the auth module refuses one). */
function SignInWithPassword({ state, address }: { state: PreviewEmailState; address: ReactNode }) {
  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader
        title="Report received"
        lead={
          <>
            Your report was added to the researcher account of {address}. That account uses two-factor
            authentication, so no sign-in link was sent: sign in with your password and code to follow it.
          </>
        }
      />
      <div className="space-y-4 rounded-lg border border-slate-200 bg-white p-6 text-slate-700 shadow-sm">
        <p>
          Report received:{" "}
          <strong className="break-words text-slate-900" data-testid="submitted-title">
            {state.title}
          </strong>
        </p>
        <p>
          <Link to="/researchers/login" className="btn-primary" data-testid="sign-in-with-password">
            Sign in with password and code
          </Link>
        </p>
      </div>
      <p className="mt-6">
        <Link to="/database" className="btn-secondary">
          Back to the database
        </Link>
      </p>
    </div>
  );
}
