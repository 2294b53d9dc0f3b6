import { useEffect, useRef, useState } from "react";
import { CaptchaLoadFailed, CaptchaLoading } from "./captcha-widget-status.tsx";

interface AltchaWidgetProps {
  /** `GET {apiBase}/captcha/challenge` (decision 008). */
  challengeUrl: string;
  /** The payload once solved (base64 JSON `{ challenge, solution }`, as the widget gives it), else null. */
  onChange: (payload: string | null) => void;
  /** The id of the text that explains a captcha error, for screen readers. */
  describedBy?: string | undefined;
}

interface StateChangeDetail {
  state?: string;
  payload?: string | null;
}

/**
 * The self-hosted ALTCHA proof of work (decision 008). The `altcha` package is a web component that
 * needs the DOM, so it is loaded in the browser only, after hydration; the server renders a
 * placeholder. The widget starts working as soon as the visitor focuses the form, so it is usually
 * solved before they submit. Remount it (a new `key`) to get a fresh challenge.
 */
export function AltchaWidget({ challengeUrl, onChange, describedBy }: AltchaWidgetProps) {
  const container = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useEffect(() => {
    let cancelled = false;
    let widget: HTMLElement | null = null;
    const listener = (event: Event) => {
      const detail = (event as CustomEvent<StateChangeDetail>).detail ?? {};
      onChangeRef.current(detail.state === "verified" && detail.payload ? detail.payload : null);
    };
    import("altcha")
      .then(() => {
        if (cancelled || !container.current) return;
        widget = document.createElement("altcha-widget");
        widget.setAttribute("challenge", challengeUrl);
        widget.setAttribute("auto", "onfocus");
        widget.setAttribute("name", "captcha");
        if (describedBy) widget.setAttribute("aria-describedby", describedBy);
        widget.addEventListener("statechange", listener);
        container.current.append(widget);
        setLoaded(true);
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
      widget?.removeEventListener("statechange", listener);
      widget?.remove();
      onChangeRef.current(null);
    };
  }, [challengeUrl, describedBy]);

  return (
    <div data-testid="captcha" data-captcha="altcha">
      <div ref={container} />
      {!loaded && !failed && <CaptchaLoading />}
      {failed && <CaptchaLoadFailed />}
    </div>
  );
}
