import { data } from "react-router";
import { SignOutButton } from "../../features/auth/sign-out-button.tsx";
import { ClosedInvitation, InvitationAccept } from "../../features/vendor-team/invitation-accept.tsx";
import { isApiError } from "../../lib/api/api-error.ts";
import { readForPage } from "../../lib/api/page-read.server.ts";
import { apiFailureOf } from "../../lib/errors.ts";
import { pageMeta } from "../../lib/seo.ts";
import { getOptionalUser } from "../../lib/session.server.ts";
import type { Route } from "./+types/invitation";

/**
 * The mailed seat invitation (issue 8), open to everyone: what it offers, or why it is closed
 * (404 unknown, 410 used, expired or revoked — the page answers with the same status).
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const user = await getOptionalUser(request, context);
  const viewer = typeof user?.email === "string" ? { email: user.email } : null;
  try {
    const invitation = await readForPage({ request, context }, "/invitations/:token", {
      token: params.token,
    });
    return data({ invitation, closed: null, viewer });
  } catch (error) {
    if (isApiError(error) && (error.status === 404 || error.status === 410))
      return data({ invitation: null, closed: error.message, viewer }, { status: error.status });
    throw apiFailureOf(error);
  }
}

export const meta = pageMeta(
  "Invitation",
  "Accept an invitation to join a vendor's team on Pressguard and handle the vulnerability reports of its products.",
);

export default function InvitationPage({ loaderData, params }: Route.ComponentProps) {
  const { invitation, closed, viewer } = loaderData;
  if (!invitation) return <ClosedInvitation message={closed ?? "This invitation link is not valid."} />;
  return (
    <InvitationAccept
      token={params.token}
      invitation={invitation}
      viewer={viewer && { email: viewer.email, signOut: <SignOutButton className="link" /> }}
    />
  );
}
