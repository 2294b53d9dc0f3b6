import {
  autoUpdate,
  FloatingPortal,
  flip,
  offset,
  shift,
  useDismiss,
  useFloating,
  useFocus,
  useHover,
  useInteractions,
  useRole,
} from "@floating-ui/react";
import { cloneElement, type ReactElement, type ReactNode, type Ref, useState } from "react";
import { TOOLTIPS } from "./constants.ts";

export interface TooltipProps {
  content: ReactNode;
  /** One focusable element (a button or a link): it receives the hover, focus and aria wiring. */
  children: ReactElement<Record<string, unknown> & { ref?: Ref<HTMLElement> }>;
}

/**
 * A tooltip with the specification's timing and geometry (spec §9), shown on hover and focus:
 * `@floating-ui/react`, loaded by `Tooltip` (tooltip.tsx) when the element is first pointed at or
 * focused, and then open at once when the pointer or the focus is still there.
 */
export default function FloatingTooltip({
  content,
  children,
  initialOpen,
}: TooltipProps & { initialOpen: boolean }) {
  const [open, setOpen] = useState(initialOpen);
  const [skidding, distance] = TOOLTIPS.offset;
  const { refs, floatingStyles, context } = useFloating({
    open,
    onOpenChange: setOpen,
    placement: TOOLTIPS.placement,
    middleware: [offset({ mainAxis: distance, crossAxis: skidding }), flip(), shift({ padding: 8 })],
    whileElementsMounted: autoUpdate,
  });
  const hover = useHover(context, {
    move: false,
    delay: { open: TOOLTIPS.showDelayMs, close: TOOLTIPS.hideDelayMs },
  });
  const focus = useFocus(context);
  const dismiss = useDismiss(context);
  const role = useRole(context, { role: "tooltip" });
  const { getReferenceProps, getFloatingProps } = useInteractions([hover, focus, dismiss, role]);

  return (
    <>
      {cloneElement(children, getReferenceProps({ ...children.props, ref: refs.setReference }))}
      {open && (
        <FloatingPortal>
          <div
            ref={refs.setFloating}
            style={{ ...floatingStyles, maxWidth: `${TOOLTIPS.maxWidthPx}px` }}
            className="z-50 rounded-md bg-slate-900 px-3 py-2 text-sm leading-snug text-white shadow-lg"
            {...getFloatingProps()}
          >
            {content}
          </div>
        </FloatingPortal>
      )}
    </>
  );
}
