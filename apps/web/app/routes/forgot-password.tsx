import { ForgotPasswordForm } from "../features/auth/password-reset-forms.tsx";
import { pageMeta } from "../lib/seo.ts";
import { PageHeader } from "../ui/page-header.tsx";

export const meta = pageMeta(
  "Forgot your password?",
  "Ask for an e-mailed link to choose a new password for your Pressguard account.",
);

export default function ForgotPasswordPage() {
  return (
    <>
      <PageHeader
        title="Forgot your password?"
        lead="Enter your e-mail address and we will send you a link to choose a new password."
      />
      <ForgotPasswordForm />
    </>
  );
}
