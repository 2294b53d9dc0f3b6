import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Signed report preview tokens (decision 008): `base64url(payload).base64url(HMAC-SHA256)` with the
 * payload `{ r: report id, a: audience, e: expiry in epoch seconds }`. Stateless: the key
 * (PREVIEW_TOKEN_KEY) is the only secret, so a token is good for its one report and audience until
 * it expires. `vendor` and `researcher` ride on e-mail links (7 days); `pin_contact` is the
 * credential a correct PIN earns (an HttpOnly cookie scoped to that report's API path).
 */
export type PreviewAudience = "vendor" | "researcher" | "pin_contact" | "uploader";

export const PREVIEW_LINK_SECONDS = 7 * 24 * 3600;
export const PIN_CREDENTIAL_SECONDS = 60 * 60;
/**
 * `uploader`: answered with a new report, so the form attaches its files right after submitting,
 * signed out too. It uploads attachments to that report and reads nothing.
 */
export const UPLOAD_TOKEN_SECONDS = 30 * 60;

const AUDIENCES: readonly PreviewAudience[] = ["vendor", "researcher", "pin_contact", "uploader"];

export interface PreviewTokenClaims {
  reportId: string;
  audience: PreviewAudience;
  expiresAt: Date;
}

export function createPreviewTokens(key: string, clock: () => Date = () => new Date()) {
  const mac = (payload: string) => createHmac("sha256", key).update(payload).digest();

  return {
    sign(reportId: string, audience: PreviewAudience, lifetimeSeconds: number): string {
      const expires = Math.floor(clock().getTime() / 1000) + lifetimeSeconds;
      const payload = Buffer.from(JSON.stringify({ r: reportId, a: audience, e: expires })).toString(
        "base64url",
      );
      return `${payload}.${mac(payload).toString("base64url")}`;
    },

    /** The claims of a genuine, unexpired token; null for anything else (never throws). */
    verify(token: string | undefined | null): PreviewTokenClaims | null {
      if (typeof token !== "string" || token.length > 512) return null;
      const [payload, signature, extra] = token.split(".");
      if (!payload || !signature || extra !== undefined) return null;
      const expected = mac(payload);
      const given = Buffer.from(signature, "base64url");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      try {
        const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as {
          r?: unknown;
          a?: unknown;
          e?: unknown;
        };
        if (typeof claims.r !== "string" || typeof claims.e !== "number") return null;
        if (!AUDIENCES.includes(claims.a as PreviewAudience)) return null;
        if (claims.e * 1000 <= clock().getTime()) return null;
        return {
          reportId: claims.r,
          audience: claims.a as PreviewAudience,
          expiresAt: new Date(claims.e * 1000),
        };
      } catch {
        return null;
      }
    },
  };
}

export type PreviewTokens = ReturnType<typeof createPreviewTokens>;
