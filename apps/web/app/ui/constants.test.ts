import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BRAND_COLOR, BREAKPOINTS, CLIPBOARD_COPIED_MS, TOASTS, TOOLTIPS } from "./constants.ts";

const css = readFileSync(new URL("../app.css", import.meta.url), "utf8");

describe("interface constants (spec §9)", () => {
  it("declares the same breakpoints in app.css as in constants.ts", () => {
    const declared = Object.fromEntries(
      [...css.matchAll(/--breakpoint-([\w-]+):\s*(\d+)px;/g)].map((match) => [match[1], Number(match[2])]),
    );
    expect(declared).toEqual(BREAKPOINTS);
    expect(BREAKPOINTS).toEqual({ sm: 640, md: 768, lg: 1024, xl: 1280, "2xl": 1536 });
  });

  it("declares the brand colour in app.css", () => {
    expect(css.toLowerCase()).toContain(`--color-brand: ${BRAND_COLOR.toLowerCase()};`);
  });

  it("keeps the toast, tooltip and clipboard values", () => {
    expect(TOASTS).toEqual({
      position: "top-right",
      autoCloseMs: 5000,
      pauseOnHover: true,
      closeOnClick: true,
    });
    expect(TOOLTIPS).toEqual({
      placement: "top",
      offset: [0, 10],
      maxWidthPx: 350,
      showDelayMs: 300,
      hideDelayMs: 250,
    });
    expect(CLIPBOARD_COPIED_MS).toBe(1500);
  });
});
