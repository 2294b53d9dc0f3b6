import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import fastifyHelmet from "@fastify/helmet";
import { type ContentSecurityPolicyOptions, contentSecurityPolicy } from "@pressguard/domain";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";

export interface SecurityHeaderOptions {
  captcha: ContentSecurityPolicyOptions["captcha"];
  /** SENTRY_DSN: the browser sends its error reports there. */
  sentryDsn?: string | undefined;
  /** APP_URL: https means every answer asks browsers to keep to https (HSTS). */
  appUrl: string;
  /**
   * The Vite development server injects inline scripts without a nonce: no Content-Security-Policy
   * in development (the other headers stay).
   */
  contentSecurityPolicy: boolean;
}

/** One year, the value HSTS preload lists ask for. */
const HSTS = "max-age=31536000; includeSubDomains";

/** The policy options of each response, nonce included; read by the web renderer (load context). */
const policies = new WeakMap<ServerResponse, ContentSecurityPolicyOptions>();

export function contentSecurityPolicyOf(reply: FastifyReply): ContentSecurityPolicyOptions | undefined {
  return policies.get(reply.raw);
}

function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/**
 * Security headers on every answer, pages and API alike (issue 15): helmet's set (nosniff,
 * Referrer-Policy strict-origin-when-cross-origin, Cross-Origin-Opener-Policy…), HSTS when the
 * request came over https (directly, or through a trusted proxy) or APP_URL is https, and the
 * Content-Security-Policy of packages/domain with a fresh nonce per response. Framing is the web
 * renderer's (http/web.ts: X-Frame-Options except on the embeds).
 */
export async function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions) {
  const alwaysHttps = options.appUrl.startsWith("https:");
  const errorReportingOrigin = originOf(options.sentryDsn);
  // Registered before helmet, so it runs first: the nonce exists before any page renders.
  app.addHook("onRequest", async (request: FastifyRequest, reply: FastifyReply) => {
    if (alwaysHttps || request.protocol === "https") reply.raw.setHeader("strict-transport-security", HSTS);
    if (!options.contentSecurityPolicy) return;
    const policy: ContentSecurityPolicyOptions = {
      nonce: randomBytes(16).toString("base64"),
      captcha: options.captcha,
      errorReportingOrigin,
    };
    policies.set(reply.raw, policy);
    reply.raw.setHeader("content-security-policy", contentSecurityPolicy(policy));
  });
  await app.register(fastifyHelmet, {
    global: true,
    contentSecurityPolicy: false,
    strictTransportSecurity: false,
    xFrameOptions: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
  });
}
