import { type ComponentType, cloneElement, type SyntheticEvent, useEffect, useRef, useState } from "react";
import { TOOLTIPS } from "./constants.ts";
import type { TooltipProps } from "./floating-tooltip.tsx";

type FloatingTooltipComponent = ComponentType<TooltipProps & { initialOpen: boolean }>;

let floatingTooltip: Promise<FloatingTooltipComponent> | null = null;
const loadFloatingTooltip = () => {
  floatingTooltip ??= import("./floating-tooltip.tsx").then((module) => module.default);
  return floatingTooltip;
};

/**
 * A tooltip with the specification's timing and geometry (spec §9), shown on hover and focus. The
 * positioning library (`@floating-ui/react`, 15 KB of gzipped JavaScript, issue 35) is fetched when
 * the element is first pointed at or focused: until then the element renders alone, as it does on
 * the server. A pointer that stays the show delay, or a focus, opens the tooltip once it has loaded.
 */
export function Tooltip({ content, children }: TooltipProps) {
  const [Floating, setFloating] = useState<{ component: FloatingTooltipComponent } | null>(null);
  const [initialOpen, setInitialOpen] = useState(false);
  const wanted = useRef<{ by: "pointer" | "focus"; since: number } | null>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  if (Floating) {
    return (
      <Floating.component content={content} initialOpen={initialOpen}>
        {children}
      </Floating.component>
    );
  }

  function want(by: "pointer" | "focus") {
    wanted.current = { by, since: Date.now() };
    void loadFloatingTooltip().then((component) => {
      if (!mounted.current) return;
      const wish = wanted.current;
      const wait = wish?.by === "pointer" ? Math.max(0, TOOLTIPS.showDelayMs - (Date.now() - wish.since)) : 0;
      setTimeout(() => {
        if (!mounted.current) return;
        setInitialOpen(wanted.current !== null);
        setFloating({ component });
      }, wait);
    });
  }

  const chain = (name: string, then: () => void) => (event: SyntheticEvent) => {
    (children.props[name] as ((event: SyntheticEvent) => void) | undefined)?.(event);
    then();
  };
  return cloneElement(children, {
    onPointerEnter: chain("onPointerEnter", () => want("pointer")),
    onPointerLeave: chain("onPointerLeave", () => {
      if (wanted.current?.by === "pointer") wanted.current = null;
    }),
    onFocus: chain("onFocus", () => want("focus")),
    onBlur: chain("onBlur", () => {
      if (wanted.current?.by === "focus") wanted.current = null;
    }),
  });
}
