import { AppError } from "../../errors.ts";

export const CAPTCHA_MESSAGES = {
  required: "Solve the captcha to submit a report without signing in.",
  invalid: "The captcha answer could not be verified. Solve the captcha again.",
  expired: "The captcha has expired. Solve it again.",
  reused: "This captcha answer was already used. Solve the captcha again.",
  lowScore:
    "The verification could not tell you from an automated program. Try again, or sign in to report without it.",
  unavailable:
    "The captcha could not be checked right now. Your report was not stored: try again in a minute.",
} as const;

/** A verified answer that must be spent once (ALTCHA); reCAPTCHA tokens are spent by Google itself. */
export interface SolvedCaptcha {
  signature: string;
  expiresAt: Date;
}

/** A 422 on the form's `captcha` field. */
export function captchaError(message: string) {
  return new AppError("validation", { message, fieldErrors: { captcha: [message] } });
}
