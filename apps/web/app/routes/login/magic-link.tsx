import { useParams } from "react-router";
import { MagicLinkSignIn } from "../../features/auth/magic-link-sign-in.tsx";
import { pageMeta } from "../../lib/seo.ts";
import { PageHeader } from "../../ui/page-header.tsx";

export const meta = pageMeta(
  "Sign in with a link",
  "Sign in to Pressguard with the one-time link we e-mailed you.",
);

export default function MagicLinkPage() {
  const { uuid } = useParams();
  return (
    <>
      <PageHeader
        title="Sign in with a link"
        lead="This one-time link signs you in. A link works once and for 15 minutes after it was sent."
      />
      <MagicLinkSignIn uuid={uuid ?? ""} />
    </>
  );
}
