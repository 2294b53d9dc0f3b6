import type { AppLoadContext } from "react-router";
import { isApiError } from "./api/api-error.ts";
import { pageViewOf, readForPage } from "./api/page-read.server.ts";
import { bearerTokenOf, serverSideTokenOf } from "./api/visitor-token.server.ts";
import { getRequestContext } from "./request-context.server.ts";
import { SessionUser } from "./session-user-schema.ts";

/** The user lookup must not hold a page back for long. */
const USER_TIMEOUT_MS = 5_000;

/**
 * The signed-in user of this request, or null (spec §4: identity comes from the user endpoint;
 * 401 or 419 means not authenticated). A request without credentials is anonymous without asking
 * the API. Any other failure is logged and treated as anonymous, so a page never breaks on it.
 */
export function getOptionalUser(
  request: Request,
  context: Partial<AppLoadContext> | undefined,
): Promise<SessionUser | null> {
  // The root, the layout and the page loaders of one page view all ask: the API is called once.
  const pageView = pageViewOf({ request, context });
  let pending = usersByPageView.get(pageView);
  if (!pending) {
    pending = loadOptionalUser(request, context);
    usersByPageView.set(pageView, pending);
  }
  return pending;
}

const usersByPageView = new WeakMap<object, Promise<SessionUser | null>>();

async function loadOptionalUser(
  request: Request,
  context: Partial<AppLoadContext> | undefined,
): Promise<SessionUser | null> {
  const { publicConfig } = getRequestContext(context, request);
  const auth = publicConfig.auth;
  const cookieHeader = request.headers.get("cookie");
  const hasCredentials =
    auth.mode === "cookie" ? Boolean(cookieHeader) : serverSideTokenOf(request, context) !== null;
  if (!hasCredentials) return null;

  try {
    const body = await readForPage({ request, context }, "/user", {}, undefined, {
      as: "visitor",
      timeout: USER_TIMEOUT_MS,
      httpPath: auth.endpoints.user,
    });
    const parsed = SessionUser.safeParse(unwrapData(body));
    if (parsed.success) return parsed.data;
    console.warn("The user endpoint answered with an unexpected shape", parsed.error.issues);
    return null;
  } catch (error) {
    if (isApiError(error) && (error.status === 401 || error.status === 419)) return null;
    console.warn("The signed-in user could not be loaded", error instanceof Error ? error.message : error);
    return null;
  }
}

/**
 * Decision 021: token mode with the token in localStorage, on a request that does not show one (a
 * full page load): the server cannot know who is asking, so "no user" means "not known yet", and
 * the browser settles it on hydration instead of the page being sent to the login page.
 */
export function isIdentityUnknown(request: Request, context: Partial<AppLoadContext> | undefined): boolean {
  const auth = getRequestContext(context, request).publicConfig.auth;
  return auth.mode === "token" && auth.tokenStorage === "localStorage" && bearerTokenOf(request) === null;
}

/** Accepts both a bare user and `{ data: user }`. */
function unwrapData(body: unknown): unknown {
  if (body && typeof body === "object" && "data" in body && !("roles" in body)) return body.data;
  return body;
}
