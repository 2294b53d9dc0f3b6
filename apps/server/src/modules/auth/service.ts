import { createHash, randomBytes, randomUUID } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import { PASSWORD_CHANGE_MESSAGES, type PasswordChange, type SessionUser } from "@pressguard/domain";
import type { Database } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import type { ClientInfo, RequestAuth } from "../../http/access.ts";
import type { Mailer } from "../../mail/outbox.ts";
import { type AuthQueries, prepareAuthQueries, type UserRow } from "./queries.ts";
import { acceptedStep, createTotpSecret, otpauthUrl } from "./two-factor.ts";

/** Decisions (see docs/decisions/003-sessions-and-sign-in.md). */
export const SESSION_COOKIE = "pressguard_session";
/** A session ends after 14 days without activity. */
export const SESSION_IDLE_SECONDS = 14 * 24 * 3600;
/** last_seen_at is written at most once a minute per session. */
const SESSION_TOUCH_SECONDS = 60;
const MAGIC_LINK_SECONDS = 15 * 60;
const PASSWORD_RESET_SECONDS = 60 * 60;
const EMAIL_VERIFICATION_SECONDS = 48 * 3600;

export const BAD_CREDENTIALS_MESSAGE = "These credentials do not match our records.";
export const MAGIC_LINK_SENT_MESSAGE =
  "If an account exists for this address, we have e-mailed it a sign-in link. It works once, for 15 minutes.";
export const PASSWORD_RESET_SENT_MESSAGE =
  "If an account exists for this address, we have e-mailed it a link to reset the password.";
export const MAGIC_LINK_MESSAGES = {
  unknown: "This sign-in link is not valid. Ask for a new one.",
  used: "This sign-in link has already been used. Ask for a new one.",
  expired: "This sign-in link has expired. Ask for a new one.",
} as const;
export const TWO_FACTOR_MESSAGES = {
  required: "Enter the 6-digit code from your authenticator app.",
  invalid: "The code is not valid. Enter the current code from your authenticator app.",
  magicLinkRefused: "This account uses two-factor authentication: sign in with your password and code.",
  staffMustKeep: "Two-factor authentication is required for staff accounts.",
  notPending: "Start the set-up again: no two-factor secret is waiting for confirmation.",
  alreadyEnabled: "Two-factor authentication is already on.",
  notEnabled: "Two-factor authentication is not on.",
} as const;
/** The answer to every registration, new address or known: it never tells which (issue 15). */
export const REGISTRATION_SENT_MESSAGE =
  "Check your e-mail: we have sent a message to this address to finish creating your account.";
const RESET_LINK_INVALID_MESSAGE = "This password reset link is invalid or has expired. Ask for a new one.";

/** Rate limits: [hits, window in seconds], per IP and per account (the lower-cased e-mail). */
export const RATE_LIMITS = {
  loginIp: [30, 600],
  magicLinkIp: [10, 600],
  magicLinkAccount: [5, 600],
  resetIp: [10, 600],
  resetAccount: [5, 600],
  verificationAccount: [5, 600],
  /** Each registration mails a verification link: this caps mail sent to strangers from one IP. */
  registerIp: [60, 600],
  /** Registration mails the address each time, known or not: this caps mail to one inbox. */
  registerAccount: [5, 600],
  /** Wrong current passwords on the change-password form, per user (a stolen session guessing). */
  passwordChangeUser: [10, 600],
} as const satisfies Record<string, readonly [number, number]>;

/**
 * Failed sign-ins are counted per (client IP, account) pair, never per account alone, so nobody can
 * lock an owner out from elsewhere. The first LOGIN_FREE_FAILURES in a row cost nothing; each further
 * one makes this pair wait twice as long as the one before (2 s, 4 s, 8 s …, at most
 * LOGIN_BACKOFF_MAX_SECONDS). A pair's streak is forgotten a day after its last failure or at a success.
 */
export const LOGIN_FREE_FAILURES = 5;
export const LOGIN_BACKOFF_MAX_SECONDS = 15 * 60;
const LOGIN_FAILURE_MEMORY_SECONDS = 24 * 3600;

/** Seconds a pair must wait after `failures` failed sign-ins in a row. */
export function loginBackoffSeconds(failures: number, freeFailures = LOGIN_FREE_FAILURES): number {
  if (failures < freeFailures) return 0;
  return Math.min(2 ** (failures - freeFailures + 1), LOGIN_BACKOFF_MAX_SECONDS);
}

/** OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane (argon2id is the library default algorithm). */
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export type Role = "researcher" | "vendor";

/** What `requestMagicLink` did: mailed a link, or not, for an unknown address or a 2FA account. */
export type MagicLinkOutcome = "sent" | "no_account" | "two_factor";

/** The signed-in user as the API answers it (the domain package's `SessionUser`). */
export type SessionUserBody = SessionUser;

export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

function toSessionUser(row: UserRow): SessionUserBody {
  const roles: Role[] = [];
  if (row.researcher_uuid) roles.push("researcher");
  if (row.vendor_id !== null) roles.push("vendor");
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    roles,
    vendor:
      row.vendor_id === null
        ? null
        : {
            id: row.vendor_id,
            name: row.vendor_name ?? "",
            role: row.vendor_role ?? "member",
            active_count: row.active_count ?? 0,
            account_completed: row.vendor_account_completed === true,
          },
    researcher: row.researcher_uuid
      ? { uuid: row.researcher_uuid, profile_completed: row.researcher_profile_completed === true }
      : null,
    is_staff: row.is_staff,
    two_factor_enabled: row.two_factor,
    email_verified: row.email_verified_at !== null,
  };
}

export interface AuthServiceOptions {
  database: Database;
  mailer: Mailer;
  appUrl: string;
  /** Multiplies every budget of RATE_LIMITS (AUTH_RATE_LIMIT_FACTOR; load tests raise it). */
  rateLimitFactor?: number;
}

export function createAuthService({ database, mailer, appUrl, rateLimitFactor = 1 }: AuthServiceOptions) {
  const queries: AuthQueries = prepareAuthQueries(database.sql);
  /** Verified against when the e-mail is unknown, so a miss costs as much time as a wrong password. */
  const dummyHash = hashPassword(randomToken());

  async function limit(key: string, [budget, windowSeconds]: readonly [number, number]) {
    const maxHits = Math.max(1, Math.floor(budget * rateLimitFactor));
    const { hits, secondsLeft } = await queries.hitRateLimit(key, windowSeconds);
    if (hits > maxHits) throw tooManyAttempts(secondsLeft);
  }

  function tooManyAttempts(secondsLeft: number) {
    return new AppError("rate_limited", {
      message: `Too many attempts. Please try again in ${secondsLeft} seconds.`,
      headers: { "retry-after": String(secondsLeft) },
    });
  }

  const freeLoginFailures = Math.max(1, Math.floor(LOGIN_FREE_FAILURES * rateLimitFactor));
  const loginPairKey = (client: ClientInfo, email: string) => `login:pair:${client.ip}:${email}`;

  /** 429 while this client's back-off on this account runs. */
  async function requireNoLoginBackoff(pairKey: string) {
    const streak = await queries.findFailureStreak(pairKey, LOGIN_FAILURE_MEMORY_SECONDS);
    if (!streak) return;
    const wait = loginBackoffSeconds(streak.failures, freeLoginFailures) - streak.secondsSinceLast;
    if (wait > 0) throw tooManyAttempts(Math.ceil(wait));
  }

  function codeError(message: string) {
    return new AppError("validation", { message, fieldErrors: { code: [message] } });
  }

  /** Checks a TOTP code and spends its time step, so the same code cannot be used twice. */
  async function requireTotpCode(userId: number, secret: string, code: string | undefined) {
    if (!code) throw codeError(TWO_FACTOR_MESSAGES.required);
    const step = acceptedStep(secret, code);
    if (step === null || !(await queries.acceptTotpStep(userId, step)))
      throw codeError(TWO_FACTOR_MESSAGES.invalid);
  }

  async function requireUser(userId: number): Promise<SessionUserBody> {
    const row = await queries.getUserById(userId);
    if (!row) throw new AppError("unauthenticated");
    return toSessionUser(row);
  }

  /** Signs a user in: a new session (cookie mode) or a new personal access token (token mode). */
  async function issueCredential(userId: number, client: ClientInfo, mode: "session" | "token") {
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
      });
    }
    return secret;
  }

  /** Tells the account's owner that its password changed (or was reset), and how to take it back. */
  async function notifyPasswordChanged(userId: number, how: "changed" | "reset") {
    const user = await queries.getUserById(userId);
    if (!user) return;
    await mailer.enqueue(user.email, {
      template: "password_changed",
      name: user.name,
      changedAt: new Date().toISOString(),
      how,
      resetUrl: `${appUrl}/forgot-password`,
    });
  }

  async function sendVerification(userId: number, name: string, email: string) {
    const secret = randomToken();
    await queries.createOneTimeToken({
      kind: "email_verification",
      tokenHash: sha256(secret),
      userId,
      lifetimeSeconds: EMAIL_VERIFICATION_SECONDS,
    });
    await mailer.enqueue(email, {
      template: "email_verification",
      name,
      url: `${appUrl}/api/email/verify/${secret}`,
    });
  }

  async function addRole(userId: number, role: Role, name: string, email: string) {
    if (role === "researcher") await queries.createResearcherProfile(userId, name);
    else
      await queries.createVendorWithOwner(userId, {
        vendorName: name,
        contactEmail: email,
        contactPerson: name,
      });
  }

  let housekeeping: NodeJS.Timeout | null = null;

  return {
    queries,

    /** Prunes expired limits, old sessions and spent links every hour, in every instance (idempotent). */
    startHousekeeping(onError: (error: unknown) => void) {
      housekeeping ??= setInterval(() => void queries.pruneExpired().catch(onError), 3_600_000);
      housekeeping.unref();
    },
    stopHousekeeping() {
      if (housekeeping) clearInterval(housekeeping);
      housekeeping = null;
    },

    /** Resolves a session cookie value to the caller; refreshes the sliding expiry now and then. */
    async authenticateSession(secret: string, client: ClientInfo): Promise<RequestAuth | null> {
      const session = await queries.findLiveSession(sha256(secret));
      if (!session) return null;
      const row = await queries.getUserById(session.user_id);
      if (!row) return null;
      if (session.seconds_since_seen > SESSION_TOUCH_SECONDS)
        await queries.touchSession(session.id, client.ip, SESSION_IDLE_SECONDS);
      return { user: toSessionUser(row), via: "session", sessionId: session.id, tokenId: null };
    },

    async authenticateToken(secret: string): Promise<RequestAuth | null> {
      const token = await queries.findLiveAccessToken(sha256(secret));
      if (!token) return null;
      const row = await queries.getUserById(token.user_id);
      if (!row) return null;
      return { user: toSessionUser(row), via: "token", sessionId: null, tokenId: token.id };
    },

    /**
     * Creates the account and mails its address a verification link; for a known address, mails its
     * owner instead. The caller answers both alike (REGISTRATION_SENT_MESSAGE) and signs nobody in,
     * so registration never tells whether an address has an account.
     */
    async register(input: { name: string; email: string; password: string; role: Role }, client: ClientInfo) {
      const email = normaliseEmail(input.email);
      await limit(`register:ip:${client.ip}`, RATE_LIMITS.registerIp);
      await limit(`register:account:${email}`, RATE_LIMITS.registerAccount);
      const name = input.name.trim();
      const passwordHash = await hashPassword(input.password);
      const userId = await database.sql.transaction(async (tx) => {
        const id = await queries.createUser({ name, email, passwordHash }, tx);
        if (id === null) return null;
        if (input.role === "researcher") await queries.createResearcherProfile(id, name, tx);
        else
          await queries.createVendorWithOwner(
            id,
            { vendorName: name, contactEmail: email, contactPerson: name },
            tx,
          );
        return id;
      });
      if (userId === null) {
        const owner = await queries.findCredentialsByEmail(email);
        await mailer.enqueue(email, {
          template: "registration_attempt",
          name: owner?.name ?? name,
          signInUrl: `${appUrl}/`,
          resetUrl: `${appUrl}/forgot-password`,
        });
        return;
      }
      await sendVerification(userId, name, email);
    },

    async login(
      input: { email: string; password: string; code?: string | undefined },
      client: ClientInfo,
      mode: "session" | "token",
    ) {
      const email = normaliseEmail(input.email);
      await limit(`login:ip:${client.ip}`, RATE_LIMITS.loginIp);
      const pairKey = loginPairKey(client, email);
      await requireNoLoginBackoff(pairKey);
      const found = await queries.findCredentialsByEmail(email);
      const valid = found?.password_hash
        ? await verify(found.password_hash, input.password).catch(() => false)
        : await verify(await dummyHash, input.password).then(() => false);
      if (!found || !valid) {
        await queries.recordFailure(pairKey, LOGIN_FAILURE_MEMORY_SECONDS);
        throw new AppError("validation", {
          message: BAD_CREDENTIALS_MESSAGE,
          fieldErrors: { email: [BAD_CREDENTIALS_MESSAGE] },
        });
      }
      // Asked only after the password is right: the second factor reveals nothing to a guesser.
      if (found.totp_secret) {
        await requireTotpCode(found.id, found.totp_secret, input.code).catch(async (error: unknown) => {
          // A missing code is the first step of every 2FA sign-in, not a guess.
          if (input.code) await queries.recordFailure(pairKey, LOGIN_FAILURE_MEMORY_SECONDS);
          throw error;
        });
      }
      await queries.clearRateLimit(pairKey);
      const secret = await issueCredential(found.id, client, mode);
      return { secret, user: await requireUser(found.id) };
    },

    async logout(auth: RequestAuth) {
      if (auth.sessionId !== null) await queries.revokeSession(auth.user.id, auth.sessionId);
      if (auth.tokenId !== null) await queries.revokeAccessToken(auth.tokenId);
    },

    getSessionUser: requireUser,

    /** Signs in an account another module created or proved (an accepted seat invitation). */
    async signInUser(userId: number, client: ClientInfo, mode: "session" | "token") {
      const secret = await issueCredential(userId, client, mode);
      return { secret, user: await requireUser(userId) };
    },

    async addRole(auth: RequestAuth, role: Role) {
      await addRole(auth.user.id, role, auth.user.name, auth.user.email);
      return requireUser(auth.user.id);
    },

    /**
     * Where the user is signed in: the sessions (cookie mode) and the personal access tokens (token
     * mode signs each browser in with one; decision 021), most recently active first.
     */
    async listSessions(auth: RequestAuth) {
      const [sessions, tokens] = await Promise.all([
        queries.listSessions(auth.user.id),
        queries.listAccessTokens(auth.user.id),
      ]);
      return [
        ...sessions.map((row) => ({
          id: row.id,
          kind: "session" as const,
          user_agent: row.user_agent,
          ip: row.ip,
          created_at: new Date(row.created_at).toISOString(),
          last_seen_at: new Date(row.last_seen_at).toISOString(),
          current: row.id === auth.sessionId,
        })),
        ...tokens.map((row) => ({
          id: row.id,
          kind: "token" as const,
          user_agent: row.name,
          ip: null,
          created_at: new Date(row.created_at).toISOString(),
          last_seen_at: new Date(row.last_used_at ?? row.created_at).toISOString(),
          current: row.id === auth.tokenId,
        })),
      ].sort((a, b) => b.last_seen_at.localeCompare(a.last_seen_at));
    },

    async revokeSession(auth: RequestAuth, sessionId: number) {
      // Another user's session answers 404 like a missing one: existence is not revealed.
      if (!(await queries.revokeSession(auth.user.id, sessionId))) throw new AppError("not_found");
    },

    async revokeToken(auth: RequestAuth, tokenId: number) {
      if (!(await queries.revokeUserAccessToken(auth.user.id, tokenId))) throw new AppError("not_found");
    },

    /**
     * Mails a sign-in link and says what happened, for callers that know the account exists (a
     * report's reporter); the HTTP route gives the same answer whatever this returns.
     */
    async requestMagicLink(emailInput: string, client: ClientInfo): Promise<MagicLinkOutcome> {
      const email = normaliseEmail(emailInput);
      await limit(`magic:ip:${client.ip}`, RATE_LIMITS.magicLinkIp);
      await limit(`magic:account:${email}`, RATE_LIMITS.magicLinkAccount);
      const found = await queries.findCredentialsByEmail(email);
      if (!found) return "no_account";
      // An account with a second factor signs in with password and code only.
      if (found.totp_secret) return "two_factor";
      const uuid = randomUUID();
      await queries.createOneTimeToken({
        kind: "magic_link",
        tokenHash: sha256(uuid),
        userId: found.id,
        lifetimeSeconds: MAGIC_LINK_SECONDS,
      });
      await mailer.enqueue(email, {
        template: "magic_link",
        name: found.name,
        url: `${appUrl}/login/magic-link/${uuid}`,
      });
      return "sent";
    },

    async consumeMagicLink(uuid: string, client: ClientInfo, mode: "session" | "token") {
      const result = await queries.consumeOneTimeToken("magic_link", sha256(uuid));
      if (result.state === "unknown")
        throw new AppError("not_found", { message: MAGIC_LINK_MESSAGES.unknown });
      if (result.state !== "ok") throw new AppError("gone", { message: MAGIC_LINK_MESSAGES[result.state] });
      if ((await queries.getTwoFactorState(result.userId))?.totp_secret)
        throw new AppError("forbidden", { message: TWO_FACTOR_MESSAGES.magicLinkRefused });
      // Reading the link proves the address.
      await queries.markEmailVerified(result.userId);
      const secret = await issueCredential(result.userId, client, mode);
      return { secret, user: await requireUser(result.userId) };
    },

    /** Hands out a new secret; it takes effect once a code confirms it. */
    async startTwoFactor(auth: RequestAuth, issuer: string) {
      if (auth.user.two_factor_enabled)
        throw new AppError("conflict", { message: TWO_FACTOR_MESSAGES.alreadyEnabled });
      const secret = createTotpSecret();
      await queries.setPendingTotpSecret(auth.user.id, secret);
      return { secret, otpauth_url: otpauthUrl(secret, auth.user.email, issuer) };
    },

    async confirmTwoFactor(auth: RequestAuth, code: string) {
      const state = await queries.getTwoFactorState(auth.user.id);
      if (!state?.totp_pending_secret) throw codeError(TWO_FACTOR_MESSAGES.notPending);
      const step = acceptedStep(state.totp_pending_secret, code);
      if (step === null) throw codeError(TWO_FACTOR_MESSAGES.invalid);
      await queries.enableTotp(auth.user.id, step);
      return requireUser(auth.user.id);
    },

    async disableTwoFactor(auth: RequestAuth, code: string) {
      if (auth.user.is_staff) throw new AppError("forbidden", { message: TWO_FACTOR_MESSAGES.staffMustKeep });
      const state = await queries.getTwoFactorState(auth.user.id);
      if (!state?.totp_secret) throw codeError(TWO_FACTOR_MESSAGES.notEnabled);
      await requireTotpCode(auth.user.id, state.totp_secret, code);
      await queries.disableTotp(auth.user.id);
      return requireUser(auth.user.id);
    },

    async verifyEmail(secret: string): Promise<boolean> {
      const result = await queries.consumeOneTimeToken("email_verification", sha256(secret));
      if (result.state !== "ok") return false;
      await queries.markEmailVerified(result.userId);
      return true;
    },

    async resendVerification(auth: RequestAuth) {
      if (auth.user.email_verified) return;
      await limit(`verify:account:${auth.user.email}`, RATE_LIMITS.verificationAccount);
      await sendVerification(auth.user.id, auth.user.name, auth.user.email);
    },

    async requestPasswordReset(emailInput: string, client: ClientInfo) {
      const email = normaliseEmail(emailInput);
      await limit(`reset:ip:${client.ip}`, RATE_LIMITS.resetIp);
      await limit(`reset:account:${email}`, RATE_LIMITS.resetAccount);
      const found = await queries.findCredentialsByEmail(email);
      if (!found) return;
      const secret = randomToken();
      await queries.createOneTimeToken({
        kind: "password_reset",
        tokenHash: sha256(secret),
        userId: found.id,
        lifetimeSeconds: PASSWORD_RESET_SECONDS,
      });
      await mailer.enqueue(email, {
        template: "password_reset",
        name: found.name,
        url: `${appUrl}/reset-password/${secret}`,
      });
    },

    /** Sets the new password and ends every session and token of the account. */
    async resetPassword(secret: string, password: string) {
      const passwordHash = await hashPassword(password);
      const done = await database.sql.transaction(async (tx) => {
        const result = await queries.consumeOneTimeToken("password_reset", sha256(secret), tx);
        if (result.state !== "ok") return false;
        await queries.setPassword(result.userId, passwordHash, tx);
        await queries.markEmailVerified(result.userId, tx);
        await queries.revokeAllCredentials(result.userId, tx);
        return result.userId;
      });
      if (done !== false) await notifyPasswordChanged(done, "reset");
      if (done === false) {
        throw new AppError("validation", {
          message: RESET_LINK_INVALID_MESSAGE,
          fieldErrors: { token: [RESET_LINK_INVALID_MESSAGE] },
        });
      }
    },

    /**
     * The signed-in user's new password (PUT /api/user/password): the current one must be given when
     * the account has one; an account without (magic link, signed-out report) sets a first one. Every
     * other session and token of the account ends; the one making the change stays signed in.
     */
    async changePassword(auth: RequestAuth, input: PasswordChange) {
      const found = await queries.findCredentialsByEmail(auth.user.email);
      if (!found) throw new AppError("unauthenticated");
      if (found.password_hash) {
        const currentError = (message: string) =>
          new AppError("validation", { message, fieldErrors: { current_password: [message] } });
        if (!input.current_password) throw currentError(PASSWORD_CHANGE_MESSAGES.currentRequired);
        await limit(`password:user:${auth.user.id}`, RATE_LIMITS.passwordChangeUser);
        if (!(await verify(found.password_hash, input.current_password).catch(() => false)))
          throw currentError(PASSWORD_CHANGE_MESSAGES.currentWrong);
      }
      const passwordHash = await hashPassword(input.password);
      await database.sql.transaction(async (tx) => {
        await queries.setPassword(auth.user.id, passwordHash, tx);
        await queries.revokeOtherCredentials(
          auth.user.id,
          { sessionId: auth.sessionId, tokenId: auth.tokenId },
          tx,
        );
      });
      await queries.clearRateLimit(`password:user:${auth.user.id}`);
      await notifyPasswordChanged(auth.user.id, "changed");
    },

    /** The `user:create` command: staff only come from here. */
    async createUser(input: {
      name: string;
      email: string;
      password: string;
      staff: boolean;
      roles: Role[];
    }): Promise<SessionUserBody> {
      const email = normaliseEmail(input.email);
      const passwordHash = await hashPassword(input.password);
      const userId = await queries.createUser({
        name: input.name.trim(),
        email,
        passwordHash,
        isStaff: input.staff,
        verified: true,
      });
      if (userId === null)
        throw new AppError("conflict", { message: `A user with the e-mail ${email} exists already.` });
      for (const role of input.roles) await addRole(userId, role, input.name.trim(), email);
      return requireUser(userId);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
