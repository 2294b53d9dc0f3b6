import { useParams } from "react-router";
import { ResetPasswordForm } from "../features/auth/password-reset-forms.tsx";
import { pageMeta } from "../lib/seo.ts";
import { PageHeader } from "../ui/page-header.tsx";

export const meta = pageMeta(
  "Choose a new password",
  "Choose a new password for your Pressguard account with the link we e-mailed you.",
);

export default function ResetPasswordPage() {
  const { token } = useParams();
  return (
    <>
      <PageHeader
        title="Choose a new password"
        lead="The link works once and for 60 minutes after it was sent."
      />
      <ResetPasswordForm token={token ?? ""} />
    </>
  );
}
