import type { AppLoadContext } from "react-router";
import { getRequestContext } from "../request-context.server.ts";
import { readStoredToken } from "./token-storage.ts";

/** The token of an `Authorization: Bearer` header, or null. */
export function bearerTokenOf(request: Request): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization")?.trim() ?? "");
  return match?.[1] ?? null;
}

/**
 * Token mode: the token this request shows the server, or null. The browser's page-data requests
 * carry it as a Bearer header (decision 021: always with localStorage, `lib/api/page-data-token.ts`);
 * with cookie storage a full page load brings it in the token cookie.
 */
export function serverSideTokenOf(
  request: Request,
  context: Partial<AppLoadContext> | undefined,
): string | null {
  const auth = getRequestContext(context, request).publicConfig.auth;
  if (auth.mode !== "token") return null;
  const bearer = bearerTokenOf(request);
  if (bearer) return bearer;
  if (auth.tokenStorage === "localStorage") return null;
  return readStoredToken("cookie", { cookieString: request.headers.get("cookie") });
}
