import { LOADING_BAR } from "./constants.ts";

/** What the bar shows: width in percent, whether it is visible, and how fast width changes. */
export interface LoadingBarState {
  progress: number;
  visible: boolean;
  /** CSS transition of the width, in ms (0 = jump). */
  transitionMs: number;
}

export const IDLE_LOADING_BAR: LoadingBarState = { progress: 0, visible: false, transitionMs: 0 };

type Timing = Pick<typeof LOADING_BAR, "throttleMs" | "durationMs" | "hideDelayMs" | "resetDelayMs">;

/** Where the bar creeps to while a navigation runs; it only reaches 100 when it ends. */
const CREEP_LIMIT = 90;
const TICK_MS = 100;
const FINISH_TRANSITION_MS = 200;

/**
 * The timing of the top loading bar (spec §9): a navigation shorter than the throttle never shows
 * it; a longer one shows it creeping towards 90 % over the duration; at the end it fills, stays
 * for the hide delay, fades, and is reset to zero after the reset delay.
 */
export class LoadingBarController {
  private state: LoadingBarState = IDLE_LOADING_BAR;
  private running = false;
  private startedAt = 0;
  private timers = new Set<ReturnType<typeof setTimeout>>();
  private ticker: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly onChange: (state: LoadingBarState) => void,
    private readonly timing: Timing = LOADING_BAR,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.clearTimers();
    this.later(this.timing.throttleMs, () => {
      this.startedAt = Date.now();
      this.set({ progress: 0, visible: true, transitionMs: 0 });
      this.ticker = setInterval(() => this.tick(), TICK_MS);
    });
  }

  finish(): void {
    if (!this.running) return;
    this.running = false;
    this.clearTimers();
    if (!this.state.visible) {
      this.set(IDLE_LOADING_BAR);
      return;
    }
    this.set({ progress: 100, visible: true, transitionMs: FINISH_TRANSITION_MS });
    this.later(this.timing.hideDelayMs, () => {
      this.set({ ...this.state, visible: false });
      this.later(this.timing.resetDelayMs, () => this.set(IDLE_LOADING_BAR));
    });
  }

  dispose(): void {
    this.running = false;
    this.clearTimers();
  }

  private tick(): void {
    const elapsed = Date.now() - this.startedAt;
    const fraction = Math.min(1, elapsed / this.timing.durationMs);
    // Ease out: fast at first, slowing towards the limit, reached at the end of the duration.
    const progress = CREEP_LIMIT * (1 - (1 - fraction) ** 2);
    this.set({ progress, visible: true, transitionMs: TICK_MS });
    if (fraction >= 1 && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = null;
    }
  }

  private set(state: LoadingBarState): void {
    this.state = state;
    this.onChange(state);
  }

  private later(ms: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, ms);
    this.timers.add(timer);
  }

  private clearTimers(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = null;
  }
}
