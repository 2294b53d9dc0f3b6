import { useEffect, useRef, useState } from "react";
import { useNavigation } from "react-router";
import { LOADING_BAR } from "./constants.ts";
import { IDLE_LOADING_BAR, LoadingBarController, type LoadingBarState } from "./loading-bar-controller.ts";

/** The top loading bar (spec §2, §9), driven by the router's navigation state. */
export function LoadingBar() {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const [state, setState] = useState<LoadingBarState>(IDLE_LOADING_BAR);
  const controller = useRef<LoadingBarController | null>(null);

  useEffect(() => {
    const instance = new LoadingBarController(setState);
    controller.current = instance;
    return () => instance.dispose();
  }, []);

  useEffect(() => {
    if (busy) controller.current?.start();
    else controller.current?.finish();
  }, [busy]);

  return (
    <div
      data-testid="loading-bar"
      // A visual cue only, outside every landmark (axe: region): screen readers hear the new page.
      aria-hidden="true"
      role="progressbar"
      aria-label="Page loading"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.round(state.progress)}
      className="pointer-events-none fixed top-0 left-0 z-50"
      style={{
        height: `${LOADING_BAR.heightPx}px`,
        width: `${state.progress}%`,
        backgroundColor: LOADING_BAR.color,
        opacity: state.visible ? 1 : 0,
        transition: `width ${state.transitionMs}ms linear, opacity ${LOADING_BAR.resetDelayMs}ms ease`,
      }}
    />
  );
}
