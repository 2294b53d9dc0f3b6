import type { CaptchaClientConfig } from "@pressguard/domain";
import { AltchaWidget } from "./captcha-widget-altcha.tsx";
import { RecaptchaWidget } from "./captcha-widget-recaptcha.tsx";

interface CaptchaWidgetProps {
  /** Which captcha the server checks (the public config's `captcha`). */
  config: CaptchaClientConfig;
  /** `GET {apiBase}/captcha/challenge`, for ALTCHA (decision 008). */
  challengeUrl: string;
  /** The answer to send as `captcha` (ALTCHA payload or reCAPTCHA token), else null. */
  onChange: (payload: string | null) => void;
  /** The id of the text that explains a captcha error, for screen readers. */
  describedBy?: string | undefined;
}

/** The captcha of the signed-out report form; remount it (a new `key`) for a fresh answer. */
export function CaptchaWidget({ config, challengeUrl, onChange, describedBy }: CaptchaWidgetProps) {
  switch (config.mode) {
    case "altcha":
      return <AltchaWidget challengeUrl={challengeUrl} onChange={onChange} describedBy={describedBy} />;
    case "recaptcha":
      return <RecaptchaWidget siteKey={config.siteKey} onChange={onChange} />;
    case "off":
      return null;
  }
}
