import {
  API_KEY_PREFIX,
  type ApiKeyScope,
  type Capability,
  hasCapability,
  type SessionUser,
} from "@pressguard/domain";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../errors.ts";

/** Who is calling: set once per request by the access hook. */
export interface RequestAuth {
  /** With an API key, the user as the key's scopes show it (no staff, only the scoped roles). */
  user: SessionUser;
  via: "session" | "token" | "api_key";
  sessionId: number | null;
  /** The `personal_access_tokens` row: a login token or an API key. */
  tokenId: number | null;
  /** An API key's scopes (decision 028); null for a session or a login token. */
  scopes: readonly ApiKeyScope[] | null;
}

export interface ClientInfo {
  ip: string;
  userAgent: string | null;
}

/**
 * Who may call a route (STYLE.md): declared on every API route, enforced in one place.
 * `user` is any signed-in account; `researcher` and `vendor` need that role; `staff` the staff flag.
 */
/**
 * `watchlists`: any signed-in user, whatever their roles (issue 20), or an API key with that scope;
 * unlike `user` routes, which only a person signed in may call.
 */
export type AccessLevel = "public" | "user" | "watchlists" | "researcher" | "vendor" | "staff";

declare module "fastify" {
  interface FastifyContextConfig {
    access?: AccessLevel;
    /**
     * The route can answer with a personal access token (`"token": true` in the body): such a
     * request involves no cookie, so it needs no CSRF header.
     */
    issuesToken?: boolean;
    /**
     * A machine API open to scripts and scanners (e.g. the batch version check): it acts on nobody's
     * behalf, so a caller without a session cookie needs no CSRF pair. With a session cookie the
     * usual check applies.
     */
    csrfOnlyWithSession?: boolean;
    /**
     * A capability the caller must hold on top of the access level (spec §6 "capability" guard; the
     * pages' route middleware reads the same table, `hasCapability` of the domain package).
     */
    capability?: Capability;
    /**
     * The API key scopes that open a `public` route to a key, any one of them (decision 028, issue
     * 38): `read` for public data, which the key then reads as anybody does; a role's scope where a
     * signed-in caller acts as themselves. Without it, no key may call the route. The other levels
     * name their own (`keyScopesOf`).
     */
    apiKeyScopes?: readonly ApiKeyScope[];
  }
  interface FastifyRequest {
    /**
     * The caller, resolved once per request by the access hook; null when anonymous (an API key on a
     * route only its `read` scope opens is anonymous too, decision 028).
     */
    auth: RequestAuth | null;
    /** The API key the request was made with, if any, even a `read` one: its own rate-limit budget. */
    apiKeyId: number | null;
  }
}

interface Authenticator {
  authenticateSession(secret: string, client: ClientInfo): Promise<RequestAuth | null>;
  authenticateToken(secret: string): Promise<RequestAuth | null>;
}

export interface AccessControlOptions {
  authenticator: Authenticator;
  sessionCookie: string;
  /**
   * Cookies that carry a credential other than the session (an e-mailed preview link's grant,
   * issue 15): a call carrying one is no "caller without a session cookie" for
   * `csrfOnlyWithSession`, so it needs the CSRF pair like a session would.
   */
  credentialCookies?: readonly string[];
  csrfCookie: string;
  csrfHeader: string;
  /** The auth mode of the web client (`AUTH_MODE`); token mode has its own CSRF rule (decision 021). */
  mode: "cookie" | "token";
}

/**
 * The caller of a route whose access level admits only signed-in users: the access hook has already
 * answered 401 to anyone else, so this only narrows the type (and answers 401, never a crash).
 */
export function signedInCaller(request: Pick<FastifyRequest, "auth">): RequestAuth {
  if (!request.auth) throw new AppError("unauthenticated");
  return request.auth;
}

/** Why a signed-in caller without the route's capability is refused (403). */
export const CAPABILITY_MESSAGES: Record<Capability, string> = {
  "manage-vendor": "Only the owners and admins of your organisation can do this.",
  "transfer-ownership": "Only the owner of your organisation can do this.",
  triage: "Staff accounts must set up two-factor authentication first.",
};

export const API_KEY_SCOPE_MESSAGE = "This API key's scopes do not allow this action.";

/** Public data, the same answer for every caller: a key reads it with its `read` scope, as anybody does. */
export const publicData = { access: "public", apiKeyScopes: ["read"] } as const;

const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function clientInfoOf(request: FastifyRequest): ClientInfo {
  const userAgent = request.headers["user-agent"];
  return { ip: request.ip, userAgent: typeof userAgent === "string" ? userAgent : null };
}

/** `undefined`: no Authorization header; `""`: one that is not a usable Bearer token. */
function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S{1,200})$/i.exec(header.trim());
  return match?.[1] ?? "";
}

function wantsToken(body: unknown): boolean {
  return typeof body === "object" && body !== null && (body as { token?: unknown }).token === true;
}

/**
 * Token mode (decision 021): a request with a JSON body cannot come from a cross-site page — a form
 * sends only urlencoded, multipart or text/plain, and a script's fetch with `application/json`
 * needs a CORS preflight, which this server never grants. Such a request needs no CSRF pair.
 */
function sentAsJson(request: FastifyRequest): boolean {
  const contentType = request.headers["content-type"];
  return typeof contentType === "string" && /^application\/json\s*(;|$)/i.test(contentType);
}

function sameToken(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index += 1) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}

/**
 * What opens a route to an API key, any one of these scopes: deny by default. `researcher`, `vendor`
 * and `watchlists` routes need the scope of that name; a key never manages the account (`user`: sessions,
 * keys, password, second factor) nor acts as staff; a `public` route names its scopes or opens to none.
 */
function keyScopesOf(
  access: AccessLevel,
  declared: readonly ApiKeyScope[] | undefined,
): readonly ApiKeyScope[] {
  if (access === "public") return declared ?? [];
  if (access === "user" || access === "staff") return [];
  return [access];
}

/** What a route declares about who may call it. */
export interface RouteAccess {
  access?: AccessLevel;
  capability?: Capability;
  apiKeyScopes?: readonly ApiKeyScope[];
}

/** A caller's credentials as a request shows them: a Bearer token (`""`: an unusable header), else a session. */
interface CallerCredentials {
  bearer: string | undefined;
  sessionSecret: string | undefined;
  client: ClientInfo;
}

interface Caller {
  auth: RequestAuth | null;
  /** The API key the call was made with, if any, even a `read` one: its own rate-limit budget. */
  apiKeyId: number | null;
}

/**
 * Who is calling and whether they may call a route: the rules of the access hook, shared with the
 * in-process reads of server-rendered pages (http/page-reads.ts, decision 038), which are no HTTP
 * request of their own. CSRF is the hook's alone: it concerns unsafe methods, and reads are safe.
 */
function createAccessCheck(options: Pick<AccessControlOptions, "authenticator">) {
  return {
    /** 1. The caller once: a Bearer token (a dead API key is 401, never anonymous) or the session. */
    async identify({ bearer, sessionSecret, client }: CallerCredentials): Promise<RequestAuth | null> {
      if (bearer !== undefined) {
        const auth = bearer ? await options.authenticator.authenticateToken(bearer) : null;
        // Decision 028: a dead key is refused everywhere, never served as anonymous: its script learns it.
        if (!auth && bearer.startsWith(API_KEY_PREFIX)) throw new AppError("unauthenticated");
        return auth;
      }
      return sessionSecret ? await options.authenticator.authenticateSession(sessionSecret, client) : null;
    },

    /** 3–4. The route's access level, an API key's scopes and the route's capability. */
    authorize(config: RouteAccess & { access: AccessLevel }, identified: RequestAuth | null): Caller {
      const access = config.access;
      let auth = identified;
      let apiKeyId: number | null = null;
      if (auth?.via === "api_key") {
        const key = auth;
        apiKeyId = key.tokenId;
        const opening = keyScopesOf(access, config.apiKeyScopes).filter((scope) =>
          key.scopes?.includes(scope),
        );
        if (opening.length === 0) throw new AppError("forbidden", { message: API_KEY_SCOPE_MESSAGE });
        if (opening.every((scope) => scope === "read")) auth = null;
      }
      if (access === "public") return { auth, apiKeyId };
      if (!auth) throw new AppError("unauthenticated");
      if (access === "researcher" && !auth.user.roles.includes("researcher")) throw new AppError("forbidden");
      if (access === "vendor" && !auth.user.roles.includes("vendor")) throw new AppError("forbidden");
      if (access === "staff" && !auth.user.is_staff) throw new AppError("forbidden");
      // PRODUCT.md §7: the second factor is optional for everyone but required for staff.
      if (access === "staff" && !auth.user.two_factor_enabled)
        throw new AppError("forbidden", {
          message: "Staff accounts must set up two-factor authentication first.",
        });
      if (config.capability && !hasCapability(auth.user, config.capability))
        throw new AppError("forbidden", { message: CAPABILITY_MESSAGES[config.capability] });
      return { auth, apiKeyId };
    },
  };
}

export type AccessCheck = ReturnType<typeof createAccessCheck>;

/**
 * Refuses to start when an API route forgets to declare its access level, so no route is public
 * by accident; then, on every API request, one hook (before body validation, so an anonymous caller
 * gets 401 rather than a validation error):
 * 1. resolves the caller once — a Bearer token (token mode, or an API key limited to its scopes:
 *    401 when unknown, revoked or expired, 403 outside its scopes) or else the session cookie;
 * 2. refuses unsafe methods whose `X-XSRF-TOKEN` header does not match the `XSRF-TOKEN` cookie
 *    (419), except a token-issuing call asking for a token and, in token mode, a JSON call
 *    (`sentAsJson`: no cross-site page can send one);
 * 3. enforces the route's access level: 401 anonymous, 403 without the role;
 * 4. enforces the route's capability, if it names one: 403 without it.
 */
export function registerAccessControl(app: FastifyInstance, options: AccessControlOptions): AccessCheck {
  app.addHook("onRoute", (route) => {
    if (!route.url.startsWith("/api")) return;
    const config = route.config as { access?: AccessLevel; apiKeyScopes?: unknown } | undefined;
    const access = config?.access;
    if (!access) throw new Error(`Route ${route.method} ${route.url} declares no access level`);
    if (config.apiKeyScopes && access !== "public")
      throw new Error(`Route ${route.method} ${route.url}: only a public route names its API key scopes`);
  });

  app.decorateRequest("auth", null);
  app.decorateRequest("apiKeyId", null);
  const csrfHeader = options.csrfHeader.toLowerCase();

  const access = createAccessCheck(options);
  app.addHook("preValidation", async (request) => {
    const config = request.routeOptions.config as RouteAccess & {
      issuesToken?: boolean;
      csrfOnlyWithSession?: boolean;
    };
    if (!config.access) return;

    const bearer = bearerOf(request);
    const secret = bearer === undefined ? request.cookies[options.sessionCookie] : undefined;
    if (bearer === undefined) {
      const exempt =
        (config.issuesToken && wantsToken(request.body)) ||
        (config.csrfOnlyWithSession &&
          !secret &&
          !options.credentialCookies?.some((name) => request.cookies[name])) ||
        (options.mode === "token" && sentAsJson(request));
      if (UNSAFE_METHODS.has(request.method) && !exempt) {
        const cookie = request.cookies[options.csrfCookie];
        const header = request.headers[csrfHeader];
        if (!cookie || typeof header !== "string" || !sameToken(cookie, header))
          throw new AppError("csrf_mismatch");
      }
    }
    const caller = access.authorize(
      config as RouteAccess & { access: AccessLevel },
      await access.identify({ bearer, sessionSecret: secret, client: clientInfoOf(request) }),
    );
    request.auth = caller.auth;
    request.apiKeyId = caller.apiKeyId;
  });
  return access;
}
