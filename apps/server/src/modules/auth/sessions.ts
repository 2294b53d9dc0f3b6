import { AppError } from "../../errors.ts";
import type { ClientInfo, RequestAuth } from "../../http/access.ts";
import { type ApiKeyScope, isApiKeyScope, userWithin } from "./api-key-rules.ts";
import { randomToken, sha256 } from "./credentials.ts";
import type { AuthQueries } from "./queries.ts";
import { type AuthParts, requireUser, toSessionUser } from "./rules.ts";

/** Decisions (see docs/decisions/003-sessions-and-sign-in.md). */
export const SESSION_COOKIE = "pressguard_session";
/** A session ends after 14 days without activity. */
export const SESSION_IDLE_SECONDS = 14 * 24 * 3600;
/** last_seen_at is written at most once a minute per session. */
const SESSION_TOUCH_SECONDS = 60;
/**
 * A login token (token mode) lives as a session does (decision 028): 14 days after its last use,
 * and 30 days after the sign-in at most, the session cookie's Max-Age (session-cookie.ts).
 */
export const TOKEN_LIFETIME = { idleSeconds: SESSION_IDLE_SECONDS, lifetimeSeconds: 30 * 24 * 3600 };

/** Signs a user in: a new session (cookie mode) or a new personal access token (token mode). */
export async function issueCredential(
  queries: AuthQueries,
  userId: number,
  client: ClientInfo,
  mode: "session" | "token",
) {
  const secret = randomToken();
  if (mode === "session") {
    await queries.createSession({
      tokenHash: sha256(secret),
      userId,
      userAgent: client.userAgent?.slice(0, 500) ?? null,
      ip: client.ip,
      lifetimeSeconds: SESSION_IDLE_SECONDS,
    });
  } else {
    await queries.createAccessToken({
      tokenHash: sha256(secret),
      userId,
      name: client.userAgent?.slice(0, 200) ?? "API token",
      kind: "login",
      ...TOKEN_LIFETIME,
    });
  }
  return secret;
}

const iso = (value: Date | string) => new Date(value).toISOString();

/** Who is calling (a session cookie or a Bearer token), signing in and out, and the places signed in. */
export function createSessions({ queries }: AuthParts) {
  return {
    /** Resolves a session cookie value to the caller; refreshes the sliding expiry now and then. */
    async authenticateSession(secret: string, client: ClientInfo): Promise<RequestAuth | null> {
      const session = await queries.findLiveSession(sha256(secret));
      if (!session) return null;
      const row = await queries.getUserById(session.user_id);
      if (!row) return null;
      if (session.seconds_since_seen > SESSION_TOUCH_SECONDS)
        await queries.touchSession(session.id, client.ip, SESSION_IDLE_SECONDS);
      return { user: toSessionUser(row), via: "session", sessionId: session.id, tokenId: null, scopes: null };
    },

    /** A login token (token mode) or an API key (decision 028), limited to the key's scopes. */
    async authenticateToken(secret: string): Promise<RequestAuth | null> {
      const token = await queries.findLiveAccessToken(sha256(secret), TOKEN_LIFETIME);
      if (!token) return null;
      const row = await queries.getUserById(token.user_id);
      if (!row) return null;
      const user = toSessionUser(row);
      if (token.kind === "api_key") {
        const scopes = token.scopes.filter((scope): scope is ApiKeyScope => isApiKeyScope(scope));
        return { user: userWithin(user, scopes), via: "api_key", sessionId: null, tokenId: token.id, scopes };
      }
      return { user, via: "token", sessionId: null, tokenId: token.id, scopes: null };
    },

    async logout(auth: RequestAuth) {
      if (auth.sessionId !== null) await queries.revokeSession(auth.user.id, auth.sessionId);
      if (auth.tokenId !== null) await queries.revokeAccessToken(auth.tokenId);
    },

    getSessionUser: (userId: number) => requireUser(queries, userId),

    /** Signs in an account another module created or proved (an accepted seat invitation). */
    async signInUser(userId: number, client: ClientInfo, mode: "session" | "token") {
      const secret = await issueCredential(queries, userId, client, mode);
      return { secret, user: await requireUser(queries, userId) };
    },

    /**
     * Where the user is signed in: the sessions (cookie mode) and the personal access tokens (token
     * mode signs each browser in with one; decision 021), most recently active first.
     */
    async listSessions(auth: RequestAuth) {
      const [sessions, tokens] = await Promise.all([
        queries.listSessions(auth.user.id),
        queries.listAccessTokens(auth.user.id, "login"),
      ]);
      return [
        ...sessions.map((row) => ({
          id: row.id,
          kind: "session" as const,
          user_agent: row.user_agent,
          ip: row.ip,
          created_at: iso(row.created_at),
          last_seen_at: iso(row.last_seen_at),
          expires_at: iso(row.expires_at),
          current: row.id === auth.sessionId,
        })),
        ...tokens.map((row) => ({
          id: row.id,
          kind: "token" as const,
          user_agent: row.name,
          ip: null,
          created_at: iso(row.created_at),
          last_seen_at: iso(row.last_used_at ?? row.created_at),
          expires_at: iso(row.expires_at),
          current: row.id === auth.tokenId,
        })),
      ].sort((a, b) => b.last_seen_at.localeCompare(a.last_seen_at));
    },

    async revokeSession(auth: RequestAuth, sessionId: number) {
      // Another user's session answers 404 like a missing one: existence is not revealed.
      if (!(await queries.revokeSession(auth.user.id, sessionId))) throw new AppError("not_found");
    },

    /** Revokes a login token or an API key of the caller's (one list of Bearer credentials). */
    async revokeToken(auth: RequestAuth, tokenId: number) {
      if (!(await queries.revokeUserAccessToken(auth.user.id, tokenId))) throw new AppError("not_found");
    },
  };
}
