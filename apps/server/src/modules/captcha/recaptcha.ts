import { z } from "zod";
import { AppError } from "../../errors.ts";
import { CAPTCHA_MESSAGES, captchaError } from "./messages.ts";

/**
 * The reCAPTCHA v3 adapter (issue 7, decision 008): the widget asks Google for a token for the
 * action `submit`, and the server asks Google's siteverify whether it is good. Google spends a token
 * on its first verification (a second one answers `timeout-or-duplicate`), so nothing is stored here.
 * When Google cannot be asked, the report is refused with a 503: never accepted unverified.
 */
const RECAPTCHA_ACTION = "submit";
const RECAPTCHA_TIMEOUT_MS = 5_000;
/** Google's tokens are about 2 KB; anything much longer is not one. */
const MAX_TOKEN_LENGTH = 8_192;

export interface RecaptchaOptions {
  secretKey: string;
  verifyUrl: string;
  /** v3 score (0 a bot … 1 a person) below which an answer is refused. */
  minScore: number;
  timeoutMs?: number;
}

/** Google's siteverify answer; `score` and `action` are v3's. */
const SiteverifyAnswer = z.object({
  success: z.boolean(),
  score: z.number().optional(),
  action: z.string().optional(),
  hostname: z.string().optional(),
  "error-codes": z.array(z.string()).optional(),
});

/** Error codes that mean this server is misconfigured, not that the visitor failed. */
const SERVER_SIDE_ERRORS = new Set(["missing-input-secret", "invalid-input-secret", "bad-request"]);

function unavailable(reason: string, cause?: unknown) {
  return new AppError("unavailable", {
    message: CAPTCHA_MESSAGES.unavailable,
    cause: new Error(`reCAPTCHA siteverify: ${reason}`, { cause }),
  });
}

async function askSiteverify(options: RecaptchaOptions, token: string) {
  let response: Response;
  let body: unknown;
  try {
    response = await fetch(options.verifyUrl, {
      method: "POST",
      body: new URLSearchParams({ secret: options.secretKey, response: token }),
      signal: AbortSignal.timeout(options.timeoutMs ?? RECAPTCHA_TIMEOUT_MS),
    });
    if (response.ok) body = await response.json();
    else await response.body?.cancel();
  } catch (error) {
    throw unavailable("no answer", error);
  }
  if (!response.ok) throw unavailable(`HTTP ${response.status}`);
  const answer = SiteverifyAnswer.safeParse(body);
  if (!answer.success) throw unavailable("an answer that is not siteverify's", answer.error);
  return answer.data;
}

export function createRecaptchaVerifier(options: RecaptchaOptions) {
  return {
    /** Throws a 422 on the `captcha` field for a refused token, a 503 when Google cannot tell. */
    async verify(token: string): Promise<void> {
      if (token.length > MAX_TOKEN_LENGTH) throw captchaError(CAPTCHA_MESSAGES.invalid);
      const answer = await askSiteverify(options, token);
      const errors = answer["error-codes"] ?? [];
      if (!answer.success) {
        const misconfigured = errors.find((code) => SERVER_SIDE_ERRORS.has(code));
        if (misconfigured) throw unavailable(misconfigured);
        throw captchaError(
          errors.includes("timeout-or-duplicate") ? CAPTCHA_MESSAGES.expired : CAPTCHA_MESSAGES.invalid,
        );
      }
      // A v2 token (no score) or one asked for another action is not an answer to this form.
      if (answer.action !== RECAPTCHA_ACTION || answer.score === undefined)
        throw captchaError(CAPTCHA_MESSAGES.invalid);
      if (answer.score < options.minScore) throw captchaError(CAPTCHA_MESSAGES.lowScore);
    },
  };
}
