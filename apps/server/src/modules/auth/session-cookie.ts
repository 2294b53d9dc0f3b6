import type { FastifyReply } from "fastify";
import { SESSION_COOKIE } from "./sessions.ts";

/** A session cookie lives 30 days; the server ends it sooner after 14 days of inactivity. */
export const SESSION_COOKIE_MAX_AGE = 30 * 24 * 3600;

/** The session cookie a cookie-mode sign-in answers with (sign-in, and an invitation that creates an account). */
export function setSessionCookie(reply: FastifyReply, secret: string, secure: boolean) {
  return reply.setCookie(SESSION_COOKIE, secret, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure,
    maxAge: SESSION_COOKIE_MAX_AGE,
  });
}
