import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LOADING_BAR } from "./constants.ts";
import { IDLE_LOADING_BAR, LoadingBarController, type LoadingBarState } from "./loading-bar-controller.ts";

let states: LoadingBarState[];
let controller: LoadingBarController;
const last = () => states.at(-1) ?? IDLE_LOADING_BAR;

beforeEach(() => {
  vi.useFakeTimers();
  states = [];
  controller = new LoadingBarController((state) => states.push(state));
});

afterEach(() => {
  controller.dispose();
  vi.useRealTimers();
});

describe("LoadingBarController (spec §9 timings)", () => {
  it("never shows the bar for a navigation shorter than the 200 ms throttle", () => {
    controller.start();
    vi.advanceTimersByTime(LOADING_BAR.throttleMs - 1);
    controller.finish();
    vi.advanceTimersByTime(5_000);
    expect(states.some((state) => state.visible)).toBe(false);
  });

  it("shows the bar after the throttle and creeps towards 90 % over the 2000 ms duration", () => {
    controller.start();
    vi.advanceTimersByTime(LOADING_BAR.throttleMs);
    expect(last()).toMatchObject({ visible: true, progress: 0 });
    vi.advanceTimersByTime(LOADING_BAR.durationMs / 2);
    const halfway = last().progress;
    expect(halfway).toBeGreaterThan(50);
    expect(halfway).toBeLessThan(90);
    vi.advanceTimersByTime(LOADING_BAR.durationMs);
    expect(last().progress).toBe(90);
  });

  it("fills, hides after 500 ms and resets 400 ms later", () => {
    controller.start();
    vi.advanceTimersByTime(LOADING_BAR.throttleMs + 300);
    controller.finish();
    expect(last()).toMatchObject({ progress: 100, visible: true });
    vi.advanceTimersByTime(LOADING_BAR.hideDelayMs - 1);
    expect(last().visible).toBe(true);
    vi.advanceTimersByTime(1);
    expect(last()).toMatchObject({ progress: 100, visible: false });
    vi.advanceTimersByTime(LOADING_BAR.resetDelayMs);
    expect(last()).toEqual(IDLE_LOADING_BAR);
  });

  it("starts over cleanly when a new navigation begins while it hides", () => {
    controller.start();
    vi.advanceTimersByTime(LOADING_BAR.throttleMs);
    controller.finish();
    controller.start();
    vi.advanceTimersByTime(LOADING_BAR.hideDelayMs + LOADING_BAR.resetDelayMs);
    expect(last()).toMatchObject({ visible: true });
  });

  it("uses the specification's constants", () => {
    expect(LOADING_BAR).toEqual({
      color: "#AFE614",
      throttleMs: 200,
      durationMs: 2000,
      hideDelayMs: 500,
      resetDelayMs: 400,
      heightPx: 3,
    });
  });
});
