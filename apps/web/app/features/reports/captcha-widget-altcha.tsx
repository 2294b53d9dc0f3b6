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
 * needs the DOM, so it is loaded in the browser only; the server renders a placeholder. Its script
 * (35 KB gzipped) is fetched when the visitor first focuses or touches the form, not with the page
 * (issue 14, item 9), and the widget then starts working at once, so it is usually solved before
 * they submit. Remount it (a new `key`) to get a fresh challenge.
 */
export function AltchaWidget({ challengeUrl, onChange, describedBy }: AltchaWidgetProps) {
  const container = useRef<HTMLDivElement>(null);
  const widgetRef = useRef<HTMLElement | null>(null);
  const [failed, setFailed] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const describedByRef = useRef(describedBy);
  describedByRef.current = describedBy;

  // Created once per challenge URL (and per `key`): anything else that changes while the visitor
  // solves it, such as the error text it points to, must not re-create it, or the answer is lost.
  useEffect(() => {
    let cancelled = false;
    let widget: HTMLElement | null = null;
    let state: string | undefined;
    const listener = (event: Event) => {
      const detail = (event as CustomEvent<StateChangeDetail>).detail ?? {};
      state = detail.state;
      onChangeRef.current(detail.state === "verified" && detail.payload ? detail.payload : null);
    };
    // The widget un-verifies itself when its ticked box is clicked or toggled with Space (both are
    // clicks): once solved, the box stays ticked and the answer stays.
    const keepSolved = (event: Event) => {
      const target = event.target;
      if (state === "verified" && target instanceof HTMLInputElement && target.type === "checkbox")
        event.preventDefault();
    };
    const form: Node = container.current?.closest("form") ?? document;
    const create = () => {
      form.removeEventListener("focusin", create);
      form.removeEventListener("pointerdown", create);
      import("altcha")
        .then(() => {
          if (cancelled || !container.current) return;
          widget = document.createElement("altcha-widget");
          widget.setAttribute("challenge", challengeUrl);
          // Created once the visitor is in the form: solve at once.
          widget.setAttribute("auto", "onload");
          widget.setAttribute("name", "captcha");
          if (describedByRef.current) widget.setAttribute("aria-describedby", describedByRef.current);
          widget.addEventListener("statechange", listener);
          widget.addEventListener("click", keepSolved, { capture: true });
          container.current.append(widget);
          widgetRef.current = widget;
          setLoaded(true);
        })
        .catch(() => {
          if (!cancelled) setFailed(true);
        });
    };
    // Remounted for a fresh answer after a refused submission: the visitor is already in the form.
    if (form !== document && form.contains(document.activeElement)) create();
    else {
      form.addEventListener("focusin", create);
      form.addEventListener("pointerdown", create);
    }
    return () => {
      cancelled = true;
      form.removeEventListener("focusin", create);
      form.removeEventListener("pointerdown", create);
      widget?.removeEventListener("statechange", listener);
      widget?.removeEventListener("click", keepSolved, { capture: true });
      widget?.remove();
      widgetRef.current = null;
      onChangeRef.current(null);
    };
  }, [challengeUrl]);

  useEffect(() => {
    const widget = widgetRef.current;
    if (!widget) return;
    if (describedBy) widget.setAttribute("aria-describedby", describedBy);
    else widget.removeAttribute("aria-describedby");
  }, [describedBy]);

  return (
    <div data-testid="captcha" data-captcha="altcha">
      <div ref={container} />
      {!loaded && !failed && <CaptchaLoading />}
      {failed && <CaptchaLoadFailed />}
    </div>
  );
}
