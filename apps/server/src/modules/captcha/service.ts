import { createHmac } from "node:crypto";
import { type Challenge, createChallenge, randomInt, verifySolution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/pbkdf2";
import { z } from "zod";
import type { SqlRunner } from "../../db/client.ts";
import { AppError } from "../../errors.ts";

/**
 * The self-hosted ALTCHA proof of work (ARCHITECTURE.md "captcha", decision 008). A challenge is
 * signed with the HMAC key of the configuration; in ALTCHA v2's deterministic mode the server picks
 * a secret counter and the browser searches up to it, so verifying costs one key derivation and an
 * HMAC. A solution is accepted once: its challenge signature is stored until the challenge expires.
 */
export const CAPTCHA_ALGORITHM = "PBKDF2/SHA-256";
/** PBKDF2 iterations per attempt. */
export const CAPTCHA_COST = 500;
/** The secret counter is drawn from this range: the browser makes that many attempts on average. */
export const CAPTCHA_COUNTER_RANGE = [1_000, 4_000] as const;
export const CAPTCHA_LIFETIME_SECONDS = 10 * 60;
/** A solution payload is small; anything longer is not one. */
const MAX_PAYLOAD_LENGTH = 4_096;

export const CAPTCHA_MESSAGES = {
  required: "Solve the captcha to submit a report without signing in.",
  invalid: "The captcha answer could not be verified. Solve the captcha again.",
  expired: "The captcha has expired. Solve it again.",
  reused: "This captcha answer was already used. Solve the captcha again.",
} as const;

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

/** A verified solution, not yet spent. */
export interface SolvedCaptcha {
  signature: string;
  expiresAt: Date;
}

export interface CaptchaServiceOptions {
  mode: "altcha" | "recaptcha" | "off";
  hmacKey: string;
}

function captchaError(message: string) {
  return new AppError("validation", { message, fieldErrors: { captcha: [message] } });
}

function decodePayload(payload: string): z.infer<typeof Payload> | null {
  if (payload.length > MAX_PAYLOAD_LENGTH) return null;
  try {
    const parsed = Payload.safeParse(JSON.parse(Buffer.from(payload, "base64").toString("utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function createCaptchaService({ mode, hmacKey }: CaptchaServiceOptions) {
  // reCAPTCHA is an adapter still to write (issue 7); until then the self-hosted proof of work runs.
  const enabled = mode !== "off";
  /** A second secret for the derived-key signature, derived from the one configured key. */
  const keySignatureSecret = createHmac("sha256", hmacKey).update("altcha-key-signature").digest("hex");

  return {
    enabled,
    /** The message for a missing answer, for callers that report it with other field errors. */
    requiredMessage: CAPTCHA_MESSAGES.required,

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

    /** Checks a payload; throws a 422 on the `captcha` field when it is missing or wrong. */
    async verify(payload: string | null | undefined): Promise<SolvedCaptcha | null> {
      if (!enabled) return null;
      if (!payload) throw captchaError(CAPTCHA_MESSAGES.required);
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

    /**
     * Spends a verified solution, in the caller's transaction (so a submission that fails leaves
     * it unspent); a second use is refused. Expired rows are pruned on the way.
     */
    async spend(solved: SolvedCaptcha | null, tx: SqlRunner): Promise<void> {
      if (!solved) return;
      await tx.query("delete from captcha_solutions where expires_at < now()");
      const { rows } = await tx.query(
        `insert into captcha_solutions (signature, expires_at) values ($1, $2)
         on conflict (signature) do nothing returning signature`,
        [solved.signature, solved.expiresAt],
      );
      if (rows.length === 0) throw captchaError(CAPTCHA_MESSAGES.reused);
    },
  };
}

export type CaptchaService = ReturnType<typeof createCaptchaService>;
