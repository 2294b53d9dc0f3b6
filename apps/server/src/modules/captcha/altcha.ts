import { createHmac } from "node:crypto";
import { type Challenge, createChallenge, randomInt, verifySolution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { z } from "zod";
import { CAPTCHA_MESSAGES, captchaError, type SolvedCaptcha } from "./messages.ts";

/**
 * The self-hosted ALTCHA proof of work (ARCHITECTURE.md "captcha", decision 008). A challenge is
 * signed with the HMAC key of the configuration; in ALTCHA v2's deterministic mode the server picks
 * a secret counter and the browser searches up to it, so verifying costs one key derivation and an
 * HMAC. A solution is accepted once: the caller spends its challenge signature.
 */
const CAPTCHA_ALGORITHM = "PBKDF2/SHA-256";
/** PBKDF2 iterations per attempt. */
const CAPTCHA_COST = 500;
/** The secret counter is drawn from this range: the browser makes that many attempts on average. */
const CAPTCHA_COUNTER_RANGE = [1_000, 4_000] as const;
const CAPTCHA_LIFETIME_SECONDS = 10 * 60;
/** A solution payload is small; anything longer is not one. */
const MAX_PAYLOAD_LENGTH = 4_096;

/** The widget's payload: base64 of JSON `{ challenge, solution }` (ALTCHA v2). */
const Payload = z.object({
  challenge: z.object({
    parameters: z.looseObject({
      algorithm: z.string(),
      nonce: z.string(),
      salt: z.string(),
      cost: z.number(),
      keyLength: z.number(),
      keyPrefix: z.string(),
      keySignature: z.string().optional(),
      expiresAt: z.number().optional(),
    }),
    signature: z.string().min(1),
  }),
  solution: z.object({
    counter: z.number().int().nonnegative(),
    derivedKey: z.string(),
    time: z.number().optional(),
  }),
});

function decodePayload(payload: string): z.infer<typeof Payload> | null {
  if (payload.length > MAX_PAYLOAD_LENGTH) return null;
  try {
    const parsed = Payload.safeParse(JSON.parse(Buffer.from(payload, "base64").toString("utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function createAltchaVerifier(hmacKey: string) {
  /** A second secret for the derived-key signature, derived from the one configured key. */
  const keySignatureSecret = createHmac("sha256", hmacKey).update("altcha-key-signature").digest("hex");

  return {
    async createChallenge(): Promise<Challenge> {
      return createChallenge({
        algorithm: CAPTCHA_ALGORITHM,
        cost: CAPTCHA_COST,
        counter: randomInt(CAPTCHA_COUNTER_RANGE[1], CAPTCHA_COUNTER_RANGE[0]),
        deriveKey,
        expiresAt: new Date(Date.now() + CAPTCHA_LIFETIME_SECONDS * 1000),
        hmacSignatureSecret: hmacKey,
        hmacKeySignatureSecret: keySignatureSecret,
      });
    },

    /** Checks a solved challenge; throws a 422 on the `captcha` field when it is wrong or expired. */
    async verify(payload: string): Promise<SolvedCaptcha> {
      const decoded = decodePayload(payload);
      if (!decoded || decoded.challenge.parameters.algorithm !== CAPTCHA_ALGORITHM)
        throw captchaError(CAPTCHA_MESSAGES.invalid);
      const { challenge, solution } = decoded;
      const result = await verifySolution({
        challenge: challenge as Challenge,
        solution,
        deriveKey,
        hmacSignatureSecret: hmacKey,
        hmacKeySignatureSecret: keySignatureSecret,
      }).catch(() => null);
      if (result?.expired) throw captchaError(CAPTCHA_MESSAGES.expired);
      if (!result?.verified) throw captchaError(CAPTCHA_MESSAGES.invalid);
      const expiresAt = challenge.parameters.expiresAt;
      return {
        signature: challenge.signature,
        expiresAt: new Date(
          expiresAt !== undefined ? expiresAt * 1000 : Date.now() + CAPTCHA_LIFETIME_SECONDS * 1000,
        ),
      };
    },
  };
}
