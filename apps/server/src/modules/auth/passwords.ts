import { verify } from "@node-rs/argon2";
import {
  FIRST_PASSWORD_WINDOW_MINUTES,
  PASSWORD_CHANGE_MESSAGES,
  type PasswordChange,
} from "@pressguard/domain";
import { AppError } from "../../errors.ts";
import type { ClientInfo, RequestAuth } from "../../http/access.ts";
import { hashPassword, normaliseEmail, randomToken, sha256 } from "./credentials.ts";
import { type AuthParts, RATE_LIMITS, rateLimiterOf } from "./rules.ts";

const PASSWORD_RESET_SECONDS = 60 * 60;

export const PASSWORD_RESET_SENT_MESSAGE =
  "If an account exists for this address, we have e-mailed it a link to reset the password.";
const RESET_LINK_INVALID_MESSAGE = "This password reset link is invalid or has expired. Ask for a new one.";

/** The password reset by mailed link, the signed-in user's password change, and the notice of both. */
export function createPasswords(parts: AuthParts) {
  const { database, queries, mailer, appUrl } = parts;
  const limit = rateLimiterOf(parts);

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

  return {
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
     * the account has one; an account without (magic link, signed-out report) sets a first one, within
     * FIRST_PASSWORD_WINDOW_MINUTES of signing in (issue 19). Every other session and token of the
     * account ends; the one making the change stays signed in.
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
      } else if (!(await queries.signedInWithin(auth, FIRST_PASSWORD_WINDOW_MINUTES))) {
        const message = PASSWORD_CHANGE_MESSAGES.signInAgain;
        throw new AppError("validation", { message, fieldErrors: { password: [message] } });
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
  };
}
