import { randomFillSync } from "node:crypto";
import { type ContentSecurityPolicyOptions, contentSecurityPolicy } from "@pressguard/domain";
import type { FastifyInstance, FastifyReply } from "fastify";
import helmet from "helmet";

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

declare module "fastify" {
  interface FastifyReply {
    /** The policy options of this response, nonce included (a decoration: no per-request map). */
    contentSecurityPolicy: ContentSecurityPolicyOptions | null;
  }
}

/** The policy options of the response, nonce included; read by the web renderer (load context). */
export function contentSecurityPolicyOf(reply: FastifyReply): ContentSecurityPolicyOptions | undefined {
  return reply.contentSecurityPolicy ?? undefined;
}

const NONCE_BYTES = 16;
/** 256 nonces per refill: one call into the random source costs about as much as a whole answer. */
const noncePool = Buffer.alloc(NONCE_BYTES * 256);
let noncePoolOffset = noncePool.length;

/**
 * A fresh nonce: 16 bytes of the same random source as `randomBytes`, drawn from a pool refilled
 * 256 nonces at a time, each byte used once. `randomBytes(16)` per answer took a tenth of the
 * CPU of a warm cached read (profiled under `npm run bench -- --only footer`).
 */
function nextNonce(): string {
  if (noncePoolOffset === noncePool.length) {
    randomFillSync(noncePool);
    noncePoolOffset = 0;
  }
  const nonce = noncePool.toString("base64", noncePoolOffset, noncePoolOffset + NONCE_BYTES);
  noncePoolOffset += NONCE_BYTES;
  return nonce;
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
export function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions) {
  const alwaysHttps = options.appUrl.startsWith("https:");
  const errorReportingOrigin = originOf(options.sentryDsn);
  // The policy is the same for every answer but its nonce: built once, around a placeholder.
  const placeholder = "NONCE_PLACEHOLDER";
  const [policyBefore, policyAfter, ...rest] = contentSecurityPolicy({
    nonce: placeholder,
    captcha: options.captcha,
    errorReportingOrigin,
  }).split(placeholder);
  if (policyAfter === undefined || rest.length > 0) throw new Error("The policy must hold its nonce once.");
  app.decorateReply("contentSecurityPolicy", null);
  // helmet decides the headers, once: its answer does not depend on the request. (`@fastify/helmet`
  // built helmet's whole middleware again for every request, and running its eleven middlewares per
  // answer cost more than setting their headers: both profiled under `npm run bench`.)
  const helmetHeaders = headersOf(
    helmet({
      contentSecurityPolicy: false,
      strictTransportSecurity: false,
      xFrameOptions: false,
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    }),
  );
  // Before any page renders: the nonce exists when the web renderer asks for it.
  app.addHook("onRequest", (request, reply, done) => {
    if (alwaysHttps || request.protocol === "https") reply.raw.setHeader("strict-transport-security", HSTS);
    if (options.contentSecurityPolicy) {
      const nonce = nextNonce();
      reply.contentSecurityPolicy = { nonce, captcha: options.captcha, errorReportingOrigin };
      reply.raw.setHeader("content-security-policy", `${policyBefore}${nonce}${policyAfter}`);
    }
    for (const [name, value] of helmetHeaders) reply.raw.setHeader(name, value);
    done();
  });
}

type HelmetMiddleware = ReturnType<typeof helmet>;

/** The headers a helmet middleware sets, read by running it once on a stand-in response. */
function headersOf(middleware: HelmetMiddleware): [string, string][] {
  const headers: [string, string][] = [];
  const response = {
    setHeader: (name: string, value: string) => headers.push([name, value]),
    removeHeader: () => {},
  };
  let failure: unknown;
  middleware(
    {} as Parameters<HelmetMiddleware>[0],
    response as unknown as Parameters<HelmetMiddleware>[1],
    (error) => {
      failure = error;
    },
  );
  if (failure) throw failure;
  return headers;
}
