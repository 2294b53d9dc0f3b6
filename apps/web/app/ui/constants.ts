/**
 * The interface constants of the specification (§2, §9), in one place so that the components,
 * the stylesheet test and the end-to-end suite read the same numbers.
 */

/** Brand colour, also the colour of the top loading bar (spec §2). */
export const BRAND_COLOR = "#AFE614";

/** Top loading bar (spec §9). */
export const LOADING_BAR = {
  color: BRAND_COLOR,
  /** A navigation shorter than this never shows the bar. */
  throttleMs: 200,
  /** Time the bar takes to creep towards the end while the navigation runs. */
  durationMs: 2000,
  /** How long the full bar stays visible after the navigation ends. */
  hideDelayMs: 500,
  /** How long after hiding the bar is reset to zero width. */
  resetDelayMs: 400,
  heightPx: 3,
} as const;

/** Breakpoints in px (spec §9); `app.css` declares the same values in its `@theme`. */
export const BREAKPOINTS = {
  sm: 640,
  md: 768,
  lg: 1024,
  xl: 1280,
  "2xl": 1536,
} as const;

/** Toasts (spec §9). */
export const TOASTS = {
  position: "top-right",
  autoCloseMs: 5000,
  pauseOnHover: true,
  closeOnClick: true,
} as const;

/** Tooltips (spec §9): offset [skidding, distance] = [0, 10]. */
export const TOOLTIPS = {
  placement: "top",
  offset: [0, 10],
  maxWidthPx: 350,
  showDelayMs: 300,
  hideDelayMs: 250,
} as const;

/** How long a copy button shows its "Copied" state (spec §9). */
export const CLIPBOARD_COPIED_MS = 1500;
