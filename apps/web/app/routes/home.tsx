import { redirect } from "react-router";
import { getOptionalUser } from "../lib/session.server.ts";
import { homePathFor } from "../lib/session-user.ts";
import type { Route } from "./+types/home";

/** `/` has no page of its own: it sends each visitor to their starting page (spec §2). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getOptionalUser(request, context);
  throw redirect(homePathFor(user));
}

/**
 * Never rendered (the loader always redirects), but required: without a component `/` would be a
 * resource route, which client-side links cannot navigate to.
 */
export default function HomeRedirect() {
  return null;
}
