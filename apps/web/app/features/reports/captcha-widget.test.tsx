import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CaptchaWidget } from "./captcha-widget.tsx";

const render = (config: Parameters<typeof CaptchaWidget>[0]["config"]) =>
  renderToStaticMarkup(
    <CaptchaWidget config={config} challengeUrl="/api/captcha/challenge" onChange={() => {}} />,
  );

describe("the captcha widget of the signed-out report form", () => {
  it("runs the captcha the server checks, and nothing when it is off", () => {
    expect(render({ mode: "altcha" })).toContain('data-captcha="altcha"');
    const recaptcha = render({ mode: "recaptcha", siteKey: "site-key" });
    expect(recaptcha).toContain('data-captcha="recaptcha"');
    expect(recaptcha).toContain("protected by reCAPTCHA");
    expect(render({ mode: "off" })).toBe("");
  });
});
