import {
  ApiKeyCreated,
  ApiKeyCreation,
  ApiKeyList,
  EmailedLinkRequest,
  MessageAnswer,
  PASSWORD_CHANGE_MESSAGES,
  PasswordChange,
  PasswordReset,
  PasswordSignIn,
  Registration,
  RoleAddition,
  SessionUser,
  SignedInPlaces,
  SignInAnswer,
  SignInTokenChoice,
  TwoFactorCode,
} from "@pressguard/domain";
import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { clientInfoOf, signedInCaller } from "../../http/access.ts";
import type { PageReads } from "../../http/page-reads.ts";
import { randomToken } from "./credentials.ts";
import { PASSWORD_RESET_SENT_MESSAGE } from "./passwords.ts";
import { REGISTRATION_SENT_MESSAGE } from "./registration.ts";
import type { AuthService } from "./service.ts";
import { SESSION_COOKIE_MAX_AGE, setSessionCookie } from "./session-cookie.ts";
import { SESSION_COOKIE } from "./sessions.ts";
import { MAGIC_LINK_SENT_MESSAGE } from "./sign-in.ts";

/** Matches the session, so a long-lived page still holds a CSRF cookie. */
const CSRF_COOKIE_MAX_AGE = SESSION_COOKIE_MAX_AGE;

export interface AuthRoutesOptions {
  auth: AuthService;
  /** Shown in authenticator apps next to the account. */
  siteName: string;
  csrfCookie: string;
  secureCookies: boolean;
  /** The signed-in user is also read in-process by the pages (decision 038). */
  reads: PageReads;
}

/** Sign-in, sign-out, the current user, sessions, magic links, e-mail verification, password reset. */
export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (
  app,
  { auth, csrfCookie, secureCookies, siteName, reads },
) => {
  const signIn = (reply: FastifyReply, secret: string) => setSessionCookie(reply, secret, secureCookies);

  app.get(
    "/csrf-cookie",
    {
      schema: {
        tags: ["auth"],
        summary: "Sets the readable XSRF-TOKEN cookie (cookie mode)",
        response: { 204: z.null() },
      },
      config: { access: "public" },
    },
    async (request, reply) => {
      const current = request.cookies[csrfCookie];
      const value = current && /^[A-Za-z0-9_-]{43}$/.test(current) ? current : randomToken();
      reply.setCookie(csrfCookie, value, {
        path: "/",
        httpOnly: false,
        sameSite: "lax",
        secure: secureCookies,
        maxAge: CSRF_COOKIE_MAX_AGE,
      });
      return reply.status(204).send(null);
    },
  );

  app.post(
    "/register",
    {
      schema: {
        tags: ["auth"],
        summary:
          "Creates a researcher or vendor account and mails its verification link; the answer never tells whether the address has an account",
        body: Registration,
        response: { 202: MessageAnswer },
      },
      config: { access: "public", issuesToken: true },
    },
    async (request, reply) => {
      await auth.register(request.body, clientInfoOf(request));
      return reply.status(202).send({ message: REGISTRATION_SENT_MESSAGE });
    },
  );

  app.post(
    "/login",
    {
      schema: {
        tags: ["auth"],
        summary: "Signs in with e-mail and password; `token: true` answers a personal access token",
        body: PasswordSignIn,
        response: { 200: SignInAnswer },
      },
      config: { access: "public", issuesToken: true },
    },
    async (request, reply) => {
      const mode = request.body.token ? "token" : "session";
      const { secret, user } = await auth.login(request.body, clientInfoOf(request), mode);
      if (mode === "token") return { token: secret };
      signIn(reply, secret);
      return user;
    },
  );

  app.post(
    "/logout",
    {
      schema: {
        tags: ["auth"],
        summary: "Ends the current session or revokes the current token",
        response: { 200: MessageAnswer },
      },
      config: { access: "user" },
    },
    async (request, reply) => {
      if (request.auth) await auth.logout(request.auth);
      reply.clearCookie(SESSION_COOKIE, { path: "/" });
      return { message: "Signed out." };
    },
  );

  reads.get(
    app,
    "/user",
    {
      schema: { tags: ["auth"], summary: "The signed-in user", response: { 200: SessionUser } },
      config: { access: "user" },
    },
    // Loaded once per request by the access hook.
    (request) => signedInCaller(request).user,
  );

  app.post(
    "/user/roles",
    {
      schema: {
        tags: ["auth"],
        summary: "Adds the other role (researcher or vendor) to the signed-in user",
        body: RoleAddition,
        response: { 200: SessionUser },
      },
      config: { access: "user" },
    },
    (request) => auth.addRole(signedInCaller(request), request.body.role),
  );

  app.put(
    "/user/password",
    {
      schema: {
        tags: ["auth"],
        summary:
          "Changes the signed-in user's password (the current one required if set); ends the user's other sessions and tokens",
        body: PasswordChange,
        response: { 200: MessageAnswer },
      },
      config: { access: "user" },
    },
    async (request) => {
      await auth.changePassword(signedInCaller(request), request.body);
      return { message: PASSWORD_CHANGE_MESSAGES.changed };
    },
  );

  app.post(
    "/user/two-factor",
    {
      schema: {
        tags: ["auth"],
        summary: "Starts TOTP enrolment: a new secret and its otpauth:// URL, active once confirmed",
        response: { 200: z.object({ secret: z.string(), otpauth_url: z.string() }) },
      },
      config: { access: "user" },
    },
    (request) => auth.startTwoFactor(signedInCaller(request), siteName),
  );

  app.post(
    "/user/two-factor/confirm",
    {
      schema: {
        tags: ["auth"],
        summary: "Confirms TOTP enrolment with a first code; sign-in then asks for a code",
        body: TwoFactorCode,
        response: { 200: SessionUser },
      },
      config: { access: "user" },
    },
    (request) => auth.confirmTwoFactor(signedInCaller(request), request.body.code),
  );

  app.post(
    "/user/two-factor/disable",
    {
      schema: {
        tags: ["auth"],
        summary: "Turns TOTP off with a current code (not allowed for staff)",
        body: TwoFactorCode,
        response: { 200: SessionUser },
      },
      config: { access: "user" },
    },
    (request) => auth.disableTwoFactor(signedInCaller(request), request.body.code),
  );

  app.get(
    "/sessions",
    {
      schema: {
        tags: ["auth"],
        summary:
          "Where the signed-in user is signed in: live sessions (cookie mode) and personal access tokens (token mode), each revocable",
        response: {
          200: SignedInPlaces,
        },
      },
      config: { access: "user" },
    },
    async (request) => ({ data: await auth.listSessions(signedInCaller(request)) }),
  );

  app.delete(
    "/sessions/:id",
    {
      schema: {
        tags: ["auth"],
        summary: "Revokes one of the signed-in user's sessions",
        params: z.strictObject({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
        response: { 204: z.null() },
      },
      config: { access: "user" },
    },
    async (request, reply) => {
      await auth.revokeSession(signedInCaller(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.delete(
    "/tokens/:id",
    {
      schema: {
        tags: ["auth"],
        summary:
          "Revokes one of the signed-in user's personal access tokens: a browser signed in in token mode, or an API key",
        params: z.strictObject({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
        response: { 204: z.null() },
      },
      config: { access: "user" },
    },
    async (request, reply) => {
      await auth.revokeToken(signedInCaller(request), request.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    "/api-keys",
    {
      schema: {
        tags: ["auth"],
        summary: "The signed-in user's live API keys (never their secrets); revoked with DELETE /tokens/{id}",
        response: { 200: ApiKeyList },
      },
      config: { access: "user" },
    },
    async (request) => ({ data: await auth.listApiKeys(signedInCaller(request)) }),
  );

  app.post(
    "/api-keys",
    {
      schema: {
        tags: ["auth"],
        summary:
          "Makes a named API key (`pgk_…`, sent as `Authorization: Bearer`) with scopes the user's roles allow; the secret is answered this once",
        body: ApiKeyCreation,
        response: { 201: ApiKeyCreated },
      },
      config: { access: "user" },
    },
    async (request, reply) =>
      reply.status(201).send(await auth.createApiKey(signedInCaller(request), request.body)),
  );

  app.post(
    "/magic-link",
    {
      schema: {
        tags: ["auth"],
        summary:
          "E-mails a single-use sign-in link; the answer never tells whether the address has an account",
        body: EmailedLinkRequest,
        response: { 202: MessageAnswer },
      },
      config: { access: "public" },
    },
    async (request, reply) => {
      await auth.requestMagicLink(request.body.email, clientInfoOf(request));
      return reply.status(202).send({ message: MAGIC_LINK_SENT_MESSAGE });
    },
  );

  app.post(
    "/magic-link/:uuid",
    {
      schema: {
        tags: ["auth"],
        summary: "Signs in with a magic link (single use, 15 minutes)",
        params: z.strictObject({ uuid: z.string().max(100) }),
        body: SignInTokenChoice,
        response: { 200: SignInAnswer },
      },
      config: { access: "public", issuesToken: true },
    },
    async (request, reply) => {
      const mode = request.body?.token ? "token" : "session";
      const { secret, user } = await auth.consumeMagicLink(request.params.uuid, clientInfoOf(request), mode);
      if (mode === "token") return { token: secret };
      signIn(reply, secret);
      return user;
    },
  );

  app.get(
    "/email/verify/:token",
    {
      schema: {
        tags: ["auth"],
        summary: "The e-mail verification link: confirms the address and returns to the application",
        params: z.strictObject({ token: z.string().max(100) }),
        response: {
          303: z.null().meta({
            description:
              "To the application: `/?email_verified=1` when the address is confirmed, `0` when the link is unknown or used.",
          }),
        },
      },
      config: { access: "public" },
    },
    async (request, reply) => {
      const verified = await auth.verifyEmail(request.params.token);
      return reply.redirect(`/?email_verified=${verified ? "1" : "0"}`, 303);
    },
  );

  app.post(
    "/email/verification-notification",
    {
      schema: {
        tags: ["auth"],
        summary: "Sends the verification link again",
        response: { 202: MessageAnswer },
      },
      config: { access: "user" },
    },
    async (request, reply) => {
      await auth.resendVerification(signedInCaller(request));
      return reply
        .status(202)
        .send({ message: "If your address is not verified yet, we have sent a new link." });
    },
  );

  app.post(
    "/password/forgot",
    {
      schema: {
        tags: ["auth"],
        summary: "E-mails a password reset link; the answer never tells whether the address has an account",
        body: EmailedLinkRequest,
        response: { 202: MessageAnswer },
      },
      config: { access: "public" },
    },
    async (request, reply) => {
      await auth.requestPasswordReset(request.body.email, clientInfoOf(request));
      return reply.status(202).send({ message: PASSWORD_RESET_SENT_MESSAGE });
    },
  );

  app.post(
    "/password/reset",
    {
      schema: {
        tags: ["auth"],
        summary: "Sets a new password with a reset link's token; ends every session of the account",
        body: PasswordReset,
        response: { 200: MessageAnswer },
      },
      config: { access: "public" },
    },
    async (request) => {
      await auth.resetPassword(request.body.token, request.body.password);
      return { message: "Your password has been reset. Please sign in." };
    },
  );
};
