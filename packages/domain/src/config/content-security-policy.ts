/**
 * The one Content-Security-Policy of the web application (issue 15), built here so that the server's
 * default and the pages that change a directive (the vendor embed's `frame-ancestors`) cannot drift.
 *
 * - Scripts: the application's own files, plus the inline scripts React Router's server rendering
 *   writes, which carry the per-request `nonce`. No `unsafe-inline`, no `unsafe-eval`.
 * - Styles: inline styles stay allowed (React `style` attributes, the charts, the ALTCHA widget's
 *   injected `<style>`): a nonce cannot cover style attributes.
 * - Workers: the ALTCHA proof of work runs in workers made from `blob:` URLs.
 * - reCAPTCHA mode loads Google's script and frames.
 */
export interface ContentSecurityPolicyOptions {
  /** A fresh random value per response, in `<script nonce>` of the page. */
  nonce: string;
  captcha: "altcha" | "recaptcha" | "off";
  /** Origins allowed to frame the page; none (the default) is `'none'`. */
  frameAncestors?: readonly string[];
  /** The browser reports errors to this DSN's origin (SENTRY_DSN). */
  errorReportingOrigin?: string | undefined;
}

const RECAPTCHA_SCRIPTS = ["https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/"];
const RECAPTCHA_FRAMES = ["https://www.google.com/recaptcha/", "https://recaptcha.google.com/recaptcha/"];

export function contentSecurityPolicyDirectives(
  options: ContentSecurityPolicyOptions,
): Record<string, readonly string[]> {
  const recaptcha = options.captcha === "recaptcha";
  const ancestors = options.frameAncestors ?? [];
  return {
    "default-src": ["'self'"],
    "script-src": ["'self'", `'nonce-${options.nonce}'`, ...(recaptcha ? RECAPTCHA_SCRIPTS : [])],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "https:"],
    "font-src": ["'self'", "data:"],
    "connect-src": [
      "'self'",
      ...(options.errorReportingOrigin ? [options.errorReportingOrigin] : []),
      ...(recaptcha ? ["https://www.google.com/recaptcha/"] : []),
    ],
    "worker-src": ["'self'", "blob:"],
    "frame-src": recaptcha ? RECAPTCHA_FRAMES : ["'none'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ancestors.length > 0 ? ancestors : ["'none'"],
  };
}

/** The header value: `default-src 'self'; script-src …`. */
export function contentSecurityPolicy(options: ContentSecurityPolicyOptions): string {
  return Object.entries(contentSecurityPolicyDirectives(options))
    .map(([name, sources]) => `${name} ${sources.join(" ")}`)
    .join("; ");
}
