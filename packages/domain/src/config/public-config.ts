import { z } from "zod";
import { AuthClientConfig } from "./auth-client-config.ts";
import { SiteConfig } from "./site-config.ts";

/**
 * Which captcha guards the signed-out report form (decision 008), so the widget knows what to run:
 * the self-hosted ALTCHA proof of work, Google reCAPTCHA v3 with its public site key, or nothing
 * (`off`, tests only). The reCAPTCHA secret never leaves the server.
 */
export const CaptchaClientConfig = z.discriminatedUnion("mode", [
  z.object({ mode: z.literal("altcha") }),
  z.object({ mode: z.literal("recaptcha"), siteKey: z.string().min(1) }),
  z.object({ mode: z.literal("off") }),
]);
export type CaptchaClientConfig = z.infer<typeof CaptchaClientConfig>;

/**
 * The explicit allow-list of configuration the browser receives (through the root loader).
 * Nothing secret may be added here.
 */
export const PublicConfig = z.object({
  site: SiteConfig,
  auth: AuthClientConfig,
  apiBase: z.string(),
  buildId: z.string(),
  sentryDsn: z.string().optional(),
  /** Query parameters kept in canonical links (spec §9). */
  canonicalQueryWhitelist: z.array(z.string()),
  /** Absent: ALTCHA, the server's default (CAPTCHA=altcha). */
  captcha: CaptchaClientConfig.default({ mode: "altcha" }),
});
export type PublicConfig = z.infer<typeof PublicConfig>;
