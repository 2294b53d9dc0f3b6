import { redirect } from "react-router";
import { setActivationModalShown } from "../lib/activation-modal-flag.ts";
import { identityPendingAnswer } from "../lib/identity-pending.ts";
import { getOptionalUser, isIdentityUnknown } from "../lib/session.server.ts";
import { homePathFor, PROGRAMS_ALL_PATH, PROGRAMS_PENDING_PATH } from "../lib/session-user.ts";
import type { Route } from "./+types/home";

/**
 * `/` has no page of its own: it sends each visitor to their starting page (spec §2). When the
 * server cannot know the visitor (token in localStorage), the browser settles it (decision 021).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getOptionalUser(request, context);
  if (!user && isIdentityUnknown(request, context)) throw identityPendingAnswer(homePathFor(null));
  throw redirect(homePathFor(user));
}

/**
 * On a client-side visit of `/`, spec §2: the root redirect switches the activation-modal flag on for
 * vendors (those it sends to their programs). A first page load is redirected by the server, before
 * any script runs; there the flag keeps its stored value, which defaults to shown.
 */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  try {
    return await serverLoader();
  } catch (thrown) {
    const target = thrown instanceof Response ? thrown.headers.get("Location") : null;
    if (target === PROGRAMS_ALL_PATH || target === PROGRAMS_PENDING_PATH) setActivationModalShown(true);
    throw thrown;
  }
}

/**
 * Never rendered (the loader always redirects), but required: without a component `/` would be a
 * resource route, which client-side links cannot navigate to.
 */
export default function HomeRedirect() {
  return null;
}
