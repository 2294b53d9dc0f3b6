import { randomUUID } from "node:crypto";
import { verify } from "@node-rs/argon2";
import { AppError } from "../../errors.ts";
import type { ClientInfo, RequestAuth } from "../../http/access.ts";
import { hashPassword, normaliseEmail, randomToken, sha256 } from "./credentials.ts";
import { type AuthParts, RATE_LIMITS, rateLimiterOf, requireUser, tooManyAttempts } from "./rules.ts";
import { issueCredential } from "./sessions.ts";
import { acceptedStep, createTotpSecret, otpauthUrl } from "./two-factor.ts";

const MAGIC_LINK_SECONDS = 15 * 60;

export const BAD_CREDENTIALS_MESSAGE = "These credentials do not match our records.";
export const MAGIC_LINK_SENT_MESSAGE =
  "If an account exists for this address, we have e-mailed it a sign-in link. It works once, for 15 minutes.";
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

/** What `requestMagicLink` did: mailed a link, or not, for an unknown address or a 2FA account. */
export type MagicLinkOutcome = "sent" | "no_account" | "two_factor";

function codeError(message: string) {
  return new AppError("validation", { message, fieldErrors: { code: [message] } });
}

/** Signing in with a password (and its back-off), with a magic link, and the second factor. */
export function createSignIn(parts: AuthParts) {
  const { queries, mailer, appUrl, rateLimitFactor } = parts;
  const limit = rateLimiterOf(parts);
  /** Verified against when the e-mail is unknown, so a miss costs as much time as a wrong password. */
  const dummyHash = hashPassword(randomToken());

  const freeLoginFailures = Math.max(1, Math.floor(LOGIN_FREE_FAILURES * rateLimitFactor));
  const loginPairKey = (client: ClientInfo, email: string) => `login:pair:${client.ip}:${email}`;

  /** 429 while this client's back-off on this account runs. */
  async function requireNoLoginBackoff(pairKey: string) {
    const streak = await queries.findFailureStreak(pairKey, LOGIN_FAILURE_MEMORY_SECONDS);
    if (!streak) return;
    const wait = loginBackoffSeconds(streak.failures, freeLoginFailures) - streak.secondsSinceLast;
    if (wait > 0) throw tooManyAttempts(Math.ceil(wait));
  }

  /** Checks a TOTP code and spends its time step, so the same code cannot be used twice. */
  async function requireTotpCode(userId: number, secret: string, code: string | undefined) {
    if (!code) throw codeError(TWO_FACTOR_MESSAGES.required);
    const step = acceptedStep(secret, code);
    if (step === null || !(await queries.acceptTotpStep(userId, step)))
      throw codeError(TWO_FACTOR_MESSAGES.invalid);
  }

  return {
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
      const secret = await issueCredential(queries, found.id, client, mode);
      return { secret, user: await requireUser(queries, found.id) };
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
      const secret = await issueCredential(queries, result.userId, client, mode);
      return { secret, user: await requireUser(queries, result.userId) };
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
      return requireUser(queries, auth.user.id);
    },

    async disableTwoFactor(auth: RequestAuth, code: string) {
      if (auth.user.is_staff) throw new AppError("forbidden", { message: TWO_FACTOR_MESSAGES.staffMustKeep });
      const state = await queries.getTwoFactorState(auth.user.id);
      if (!state?.totp_secret) throw codeError(TWO_FACTOR_MESSAGES.notEnabled);
      await requireTotpCode(auth.user.id, state.totp_secret, code);
      await queries.disableTotp(auth.user.id);
      return requireUser(queries, auth.user.id);
    },
  };
}
