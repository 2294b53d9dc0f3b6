import { LINK_GRANT_COOKIE } from "@pressguard/domain";
import { type AppLoadContext, redirect } from "react-router";
import { isApiError } from "./api/api-error.ts";
import { parseCookieHeader } from "./api/cookies.ts";
import { readForPage } from "./api/page-read.server.ts";
import { getRequestContext } from "./request-context.server.ts";

/**
 * Issue 15, decision 021 ("Preview links without the token in the URL"). An e-mailed preview link
 * (`/researchers/reports/{id}/preview?token=…`, `/vdp/vulnerabilities/{id}/preview?token=…`) is
 * exchanged on its first request: the API swaps the link's token for a grant of an hour at most,
 * which goes into an HttpOnly cookie scoped to this report's page and API paths, and the browser
 * is sent (303) to the same page without the query. The address bar, the history, bookmarks,
 * screenshots and every Referer then carry no token; a reload works for the grant's life, after
 * which the e-mailed link gives a new one. Either auth mode: the grant is no session, and the API
 * asks a call carrying it for the CSRF pair as it would a session cookie.
 */

interface LoaderArgs {
  request: Request;
  context: Partial<AppLoadContext> | undefined;
}

/** The page's report reached through an e-mailed link: its id and the page's own path prefix. */
interface LinkPage {
  reportId: string;
  /** `/researchers/reports` or `/vdp/vulnerabilities`. */
  pagePrefix: string;
  /** The API paths (under the API base) the report's calls use, besides `/reports/{id}`. */
  apiPrefixes?: readonly string[];
}

/** Whether this request carries a link grant (the guard lets it in; the API checks it). */
export function hasLinkGrant(request: Request): boolean {
  return Boolean(parseCookieHeader(request.headers.get("cookie")).get(LINK_GRANT_COOKIE));
}

/** The paths the grant cookie is sent to: the report's page (and its `.data`), and its API calls. */
function grantPaths(request: Request, context: LoaderArgs["context"], page: LinkPage): string[] {
  const { publicConfig } = getRequestContext(context, request);
  const id = encodeURIComponent(page.reportId);
  const paths = [`${page.pagePrefix}/${id}`];
  // An API on another origin cannot be given this origin's cookie: its calls then fail to read,
  // and the link has to be used as the API's `?token=` (not done by this web client).
  const apiBase = new URL(publicConfig.apiBase, request.url);
  if (apiBase.origin === new URL(request.url).origin) {
    const base = apiBase.pathname.replace(/\/+$/, "");
    for (const prefix of ["/reports", ...(page.apiPrefixes ?? [])]) paths.push(`${base}${prefix}/${id}`);
  }
  return paths;
}

function grantCookie(path: string, value: string, maxAge: number, secure: boolean): string {
  return [
    `${LINK_GRANT_COOKIE}=${encodeURIComponent(value)}`,
    `Path=${path}`,
    `Max-Age=${maxAge}`,
    "HttpOnly",
    "SameSite=Lax",
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}

/**
 * A request whose URL carries the link's `?token=`: throws the 303 to the page without it, setting
 * the grant cookies. A token the API refuses (expired, forged, another report's) is left where it
 * is: the page answers as it always did for such a link (nothing secret is left to protect).
 */
export async function exchangeLinkToken({ request, context }: LoaderArgs, page: LinkPage): Promise<void> {
  const url = new URL(request.url);
  const token = url.searchParams.get("token");
  if (!token) return;
  let grant: { token: string; expires_at: string };
  try {
    grant = await readForPage(
      { request, context },
      "/reports/:id/link-grant",
      { id: page.reportId },
      { token },
    );
  } catch (error) {
    if (isApiError(error) && error.status >= 400 && error.status < 500) return;
    throw error;
  }
  const maxAge = Math.max(1, Math.floor((new Date(grant.expires_at).getTime() - Date.now()) / 1000));
  const secure = getRequestContext(context, request).publicConfig.site.url.startsWith("https:");
  const headers = new Headers({ "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" });
  for (const path of grantPaths(request, context, page))
    headers.append("Set-Cookie", grantCookie(path, grant.token, maxAge, secure));
  url.searchParams.delete("token");
  throw redirect(`${url.pathname}${url.search}${url.hash}`, { status: 303, headers });
}
