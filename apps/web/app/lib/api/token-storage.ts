import { type AuthClientConfig, TOKEN_STORAGE_KEY } from "@pressguard/domain";
import { parseCookieHeader } from "./cookies.ts";

export type TokenStorage = NonNullable<AuthClientConfig["tokenStorage"]>;

export interface TokenSources {
  /** A `Cookie` header (server) or `document.cookie` (browser). */
  cookieString?: string | null | undefined;
  /** Defaults to `globalThis.localStorage` when there is one. */
  localStorage?: Pick<Storage, "getItem"> | undefined;
}

/** The stored token, or null when there is none (which, in token mode, means "not signed in"). */
export function readStoredToken(storage: TokenStorage, sources: TokenSources = {}): string | null {
  if (storage === "localStorage") {
    const store = sources.localStorage ?? (typeof localStorage === "undefined" ? undefined : localStorage);
    return store?.getItem(TOKEN_STORAGE_KEY) || null;
  }
  return parseCookieHeader(sources.cookieString).get(TOKEN_STORAGE_KEY) || null;
}

/** Keeps (or, with null, forgets) the token in token mode, where `readStoredToken` finds it. */
export function writeStoredToken(storage: TokenStorage, token: string | null): void {
  if (storage === "localStorage") {
    if (token) localStorage.setItem(TOKEN_STORAGE_KEY, token);
    else localStorage.removeItem(TOKEN_STORAGE_KEY);
    return;
  }
  const secure = globalThis.location?.protocol === "https:" ? "; Secure" : "";
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing in Firefox and Safari before 2025.
  document.cookie = token
    ? `${TOKEN_STORAGE_KEY}=${encodeURIComponent(token)}; Path=/; SameSite=Lax; Max-Age=${30 * 24 * 3600}${secure}`
    : `${TOKEN_STORAGE_KEY}=; Path=/; SameSite=Lax; Max-Age=0${secure}`;
}
