import type { Challenge } from "altcha-lib";
import type { SqlRunner } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { createAltchaVerifier } from "./altcha.ts";
import { CAPTCHA_MESSAGES, captchaError, type SolvedCaptcha } from "./messages.ts";
import { spendSolution } from "./queries.ts";
import { createRecaptchaVerifier, type RecaptchaOptions } from "./recaptcha.ts";

export { CAPTCHA_MESSAGES, type SolvedCaptcha } from "./messages.ts";

/**
 * The captcha of signed-out reports (decision 008, spec §7): the self-hosted ALTCHA proof of work by
 * default, Google reCAPTCHA v3 when configured, or `off` (tests only: NODE_ENV=test or development).
 */
export interface CaptchaServiceOptions {
  mode: "altcha" | "recaptcha" | "off";
  hmacKey: string;
  /** Required in recaptcha mode (the configuration refuses to start without it). */
  recaptcha?: RecaptchaOptions | undefined;
}

export function createCaptchaService({ mode, hmacKey, recaptcha: recaptchaOptions }: CaptchaServiceOptions) {
  if (mode === "recaptcha" && !recaptchaOptions)
    throw new Error("CAPTCHA=recaptcha needs the reCAPTCHA site and secret keys");
  const altcha = createAltchaVerifier(hmacKey);
  const recaptcha =
    mode === "recaptcha" && recaptchaOptions ? createRecaptchaVerifier(recaptchaOptions) : null;

  return {
    mode,
    enabled: mode !== "off",
    /** The message for a missing answer, for callers that report it with other field errors. */
    requiredMessage: CAPTCHA_MESSAGES.required,

    /** A new ALTCHA challenge; only the ALTCHA mode hands them out. */
    async createChallenge(): Promise<Challenge> {
      if (mode !== "altcha")
        throw new AppError("not_found", { message: "This server does not use the ALTCHA captcha." });
      return altcha.createChallenge();
    },

    /** Checks an answer; throws a 422 on the `captcha` field when it is missing or wrong. */
    async verify(payload: string | null | undefined): Promise<SolvedCaptcha | null> {
      if (mode === "off") return null;
      if (!payload) throw captchaError(CAPTCHA_MESSAGES.required);
      if (recaptcha) {
        await recaptcha.verify(payload);
        return null;
      }
      return altcha.verify(payload);
    },

    /**
     * Spends a verified ALTCHA solution, in the caller's transaction (so a submission that fails
     * leaves it unspent); a second use is refused. Expired rows are pruned on the way.
     */
    async spend(solved: SolvedCaptcha | null, tx: SqlRunner): Promise<void> {
      if (!solved) return;
      if (!(await spendSolution(tx, solved))) throw captchaError(CAPTCHA_MESSAGES.reused);
    },
  };
}

export type CaptchaService = ReturnType<typeof createCaptchaService>;
