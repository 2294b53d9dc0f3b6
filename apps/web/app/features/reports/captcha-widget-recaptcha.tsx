import { useEffect, useRef, useState } from "react";
import { CaptchaLoadFailed, CaptchaLoading } from "./captcha-widget-status.tsx";

/** The action the server's siteverify check expects (apps/server/src/modules/captcha/recaptcha.ts). */
const RECAPTCHA_ACTION = "submit";
/** Tokens live two minutes: a fresh one is asked for before the last one expires. */
const TOKEN_REFRESH_MS = 90_000;

interface Grecaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

const loading = new Map<string, Promise<Grecaptcha>>();

/** Google's v3 script, added once per site key; resolves when `grecaptcha` is ready. */
function loadRecaptcha(siteKey: string): Promise<Grecaptcha> {
  let promise = loading.get(siteKey);
  if (!promise) {
    promise = new Promise<Grecaptcha>((resolve, reject) => {
      const script = document.createElement("script");
      script.src = `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`;
      script.async = true;
      script.onload = () => {
        const grecaptcha = window.grecaptcha;
        if (grecaptcha) grecaptcha.ready(() => resolve(grecaptcha));
        else reject(new Error("reCAPTCHA did not load"));
      };
      script.onerror = () => reject(new Error("reCAPTCHA could not be loaded"));
      document.head.append(script);
    });
    // A failed load may be retried by a later mount (the form remounts the widget after a refusal).
    promise.catch(() => loading.delete(siteKey));
    loading.set(siteKey, promise);
  }
  return promise;
}

interface RecaptchaWidgetProps {
  siteKey: string;
  /** A token for the action `submit`, refreshed before it expires; null until there is one. */
  onChange: (token: string | null) => void;
}

/**
 * Google reCAPTCHA v3 (CAPTCHA=recaptcha): invisible, it scores the visit and hands out a token the
 * server checks with Google. Google's terms ask for this notice where the badge may be hidden.
 */
export function RecaptchaWidget({ siteKey, onChange }: RecaptchaWidgetProps) {
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useEffect(() => {
    let cancelled = false;
    let timer: ReturnType<typeof setInterval> | undefined;
    const askToken = (grecaptcha: Grecaptcha) =>
      grecaptcha
        .execute(siteKey, { action: RECAPTCHA_ACTION })
        .then((token) => {
          if (!cancelled) onChangeRef.current(token);
        })
        .catch(() => {
          if (!cancelled) setState("failed");
        });
    loadRecaptcha(siteKey)
      .then((grecaptcha) => {
        if (cancelled) return;
        setState("ready");
        void askToken(grecaptcha);
        timer = setInterval(() => void askToken(grecaptcha), TOKEN_REFRESH_MS);
      })
      .catch(() => {
        if (!cancelled) setState("failed");
      });
    return () => {
      cancelled = true;
      clearInterval(timer);
      onChangeRef.current(null);
    };
  }, [siteKey]);

  return (
    <div data-testid="captcha" data-captcha="recaptcha">
      {state === "loading" && <CaptchaLoading />}
      {state === "failed" && <CaptchaLoadFailed />}
      <p className="text-xs text-slate-500">
        This form is protected by reCAPTCHA: Google's{" "}
        <a
          className="link"
          href="https://policies.google.com/privacy"
          target="_blank"
          rel="noopener noreferrer"
        >
          Privacy Policy
        </a>{" "}
        and{" "}
        <a
          className="link"
          href="https://policies.google.com/terms"
          target="_blank"
          rel="noopener noreferrer"
        >
          Terms of Service
        </a>{" "}
        apply.
      </p>
    </div>
  );
}
