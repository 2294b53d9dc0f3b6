import { EmailVerificationNotice } from "../../features/auth/email-verification-notice.tsx";
import { ReportForm } from "../../features/reports/report-form.tsx";
import { useReportSubmission } from "../../features/reports/use-report-submission.ts";
import { pageMeta } from "../../lib/seo.ts";
import { getOptionalUser } from "../../lib/session.server.ts";
import { PageHeader } from "../../ui/page-header.tsx";
import type { Route } from "./+types/report";

export const meta = pageMeta(
  "Report a vulnerability",
  "Report a vulnerability in a WordPress plugin, theme or core.",
);

/** A hydrated page (decision 007): the form, the product search and the captcha run in the browser. */
export async function loader({ request, context }: Route.LoaderArgs) {
  return { signedIn: (await getOptionalUser(request, context)) !== null };
}

export default function ReportPage({ loaderData }: Route.ComponentProps) {
  const submission = useReportSubmission();
  return (
    <>
      <PageHeader
        title="Report a vulnerability"
        lead="Describe the vulnerability, the affected product and versions, and how to reproduce it. The report reaches the vendor privately, and you are credited when it is published."
      />
      {/* A signed-in reporter needs a confirmed address (the API refuses the report otherwise). */}
      <div className="mb-6 overflow-hidden rounded-lg empty:hidden">
        <EmailVerificationNotice />
      </div>
      <ReportForm signedIn={loaderData.signedIn} {...submission} />
    </>
  );
}
