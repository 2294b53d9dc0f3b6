import type { RegistrationRole, SessionUser } from "@pressguard/domain";
import { AppError } from "../../errors.ts";
import type { ClientInfo, RequestAuth } from "../../http/access.ts";
import { hashPassword, normaliseEmail, randomToken, sha256 } from "./credentials.ts";
import { type AuthParts, RATE_LIMITS, type Role, rateLimiterOf, requireUser } from "./rules.ts";

const EMAIL_VERIFICATION_SECONDS = 48 * 3600;

/** The answer to every registration, new address or known: it never tells which (issue 15). */
export const REGISTRATION_SENT_MESSAGE =
  "Check your e-mail: we have sent a message to this address to finish creating your account.";

/** New accounts (registration and the `user:create` command), their roles, e-mail verification. */
export function createRegistration(parts: AuthParts) {
  const { database, queries, mailer, appUrl } = parts;
  const limit = rateLimiterOf(parts);

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

  return {
    /**
     * Creates the account and mails its address a verification link; for a known address, mails its
     * owner instead. The caller answers both alike (REGISTRATION_SENT_MESSAGE) and signs nobody in,
     * so registration never tells whether an address has an account.
     */
    async register(
      input: { name: string; email: string; password: string; role: RegistrationRole },
      client: ClientInfo,
    ) {
      const email = normaliseEmail(input.email);
      await limit(`register:ip:${client.ip}`, RATE_LIMITS.registerIp);
      await limit(`register:account:${email}`, RATE_LIMITS.registerAccount);
      const name = input.name.trim();
      const passwordHash = await hashPassword(input.password);
      const userId = await database.sql.transaction(async (tx) => {
        const id = await queries.createUser({ name, email, passwordHash }, tx);
        if (id === null) return null;
        // A site owner (issue 20) holds no role: the account keeps watchlists, as any account may.
        if (input.role === "researcher") await queries.createResearcherProfile(id, name, tx);
        else if (input.role === "vendor")
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

    async addRole(auth: RequestAuth, role: Role) {
      await addRole(auth.user.id, role, auth.user.name, auth.user.email);
      return requireUser(queries, auth.user.id);
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

    /** The `user:create` command: staff only come from here. */
    async createUser(input: {
      name: string;
      email: string;
      password: string;
      staff: boolean;
      roles: Role[];
    }): Promise<SessionUser> {
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
      return requireUser(queries, userId);
    },
  };
}
