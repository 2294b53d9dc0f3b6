import type { AuthClientConfig, SignInAnswer } from "@pressguard/domain";
import { isApiError } from "./api-error.ts";
import type { ApiClient } from "./request.ts";

/** The auth client's own messages, word for word (spec §8). */
export const AUTH_MESSAGES = {
  alreadyAuthenticated: "User is already authenticated",
  notAuthenticated: "User is not authenticated",
  tokenNotReturned: "Token was not returned from the API",
} as const;

export interface AuthClientDeps<User> {
  config: Pick<AuthClientConfig, "mode" | "endpoints" | "redirect" | "redirectIfAuthenticated" | "retry">;
  api: ApiClient;
  /** The identity loaded at first page load (spec §4). */
  getUser(): User | null;
  setUser(user: User | null): void;
  /** Token mode: keeps the token where the request wrapper reads it; null forgets it. */
  storeToken(token: string | null): void;
  /** Where the visitor is now: the path and the query string (`?redirect=…`). */
  location(): { pathname: string; search: string };
  navigate(path: string): void;
}

/**
 * Only a same-site path may be a redirect target: `/x`, never `//evil.test` or `https://…`,
 * so that a crafted `?redirect=` cannot send a visitor elsewhere after they sign in.
 */
export function safeRedirectPath(value: string | null | undefined): string | null {
  if (!value?.startsWith("/") || value.startsWith("//") || value.includes("\\")) return null;
  return value;
}

/** Spec §4 "Login": the requested route when configured and different, else the on-login route. */
export function loginTarget(
  redirect: AuthClientConfig["redirect"],
  location: { pathname: string; search: string },
): string | null {
  const requested = safeRedirectPath(new URLSearchParams(location.search).get("redirect"));
  if (redirect.keepRequestedRoute && requested && requested !== location.pathname) return requested;
  if (redirect.onLogin === false || redirect.onLogin === location.pathname) return null;
  return redirect.onLogin;
}

/** Spec §4 "Logout": the on-logout route, unless it is false or already the current path. */
function logoutTarget(redirect: AuthClientConfig["redirect"], pathname: string): string | null {
  if (redirect.onLogout === false || redirect.onLogout === pathname) return null;
  return redirect.onLogout;
}

/** Another try only when no answer came or the server failed; never on a refused sign-in. */
function retryable(error: unknown): boolean {
  return !isApiError(error) || error.status === 0 || error.status === 408 || error.status >= 500;
}

/**
 * The auth client of the specification (§4, §7, §8): login, then fetch the user, then go on;
 * logout only when signed in. Cookie mode relies on the request wrapper for the CSRF cookie and
 * header; token mode asks the login endpoint for a token and stores it. Calls are retried once
 * (`retry`, spec §9) when the server could not answer.
 */
export function createAuthClient<User>(deps: AuthClientDeps<User>) {
  const { config, api } = deps;

  async function withRetry<T>(call: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await call();
      } catch (error) {
        if (attempt >= config.retry || !retryable(error)) throw error;
      }
    }
  }

  async function fetchUser(): Promise<User> {
    const user = await withRetry(() => api.request<User>(config.endpoints.user));
    deps.setUser(user);
    return user;
  }

  /** A call that signs in: token mode asks for a token (`token: true`); cookie mode gets the cookie. */
  function requestSignIn(path: string, body: Record<string, unknown>) {
    return api.request<SignInAnswer | undefined>(path, {
      method: "POST",
      body: config.mode === "token" ? { ...body, token: true } : body,
      retry: 0,
    });
  }

  /** Token mode: keeps the answer's token where the request wrapper reads it. */
  function keepToken(answer: SignInAnswer | undefined) {
    if (config.mode !== "token") return;
    const token = answer && "token" in answer ? answer.token : undefined;
    if (typeof token !== "string" || !token) throw new Error(AUTH_MESSAGES.tokenNotReturned);
    deps.storeToken(token);
  }

  return {
    fetchUser,

    /**
     * The sign-ins other than the password (registration, a magic link): signed in like `login`
     * in either mode, without its redirect (the page decides where to go). Not retried: a second
     * registration would be refused.
     */
    async signInWith(path: string, body: Record<string, unknown> = {}): Promise<void> {
      keepToken(await requestSignIn(path, body));
    },

    async login(credentials: Record<string, unknown>): Promise<User> {
      if (deps.getUser() !== null) {
        if (!config.redirectIfAuthenticated) throw new Error(AUTH_MESSAGES.alreadyAuthenticated);
        const target = loginTarget(config.redirect, deps.location());
        if (target) deps.navigate(target);
        return deps.getUser() as User;
      }
      keepToken(await withRetry(() => requestSignIn(config.endpoints.login, credentials)));
      const user = await fetchUser();
      const target = loginTarget(config.redirect, deps.location());
      if (target) deps.navigate(target);
      return user;
    },

    async logout(): Promise<void> {
      if (deps.getUser() === null) throw new Error(AUTH_MESSAGES.notAuthenticated);
      await withRetry(() => api.request(config.endpoints.logout, { method: "POST", retry: 0 }));
      if (config.mode === "token") deps.storeToken(null);
      deps.setUser(null);
      const target = logoutTarget(config.redirect, deps.location().pathname);
      if (target) deps.navigate(target);
    },
  };
}
