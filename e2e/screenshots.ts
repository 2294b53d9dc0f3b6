import { expect, type Page } from "@playwright/test";
import { gotoHydrated } from "./auth-helpers.ts";

/** The breakpoints a page is looked at (spec §9: sm 640, xl 1280). */
const BREAKPOINTS = [
  ["sm", 640],
  ["xl", 1280],
] as const;

/**
 * Full-page screenshots at sm and xl in `reports/screenshots/<name>-<breakpoint>.png`, to look at.
 * With `path`, the page is opened afresh at each width and its loading states awaited; without it,
 * the page as it stands is resized. The viewport is left at xl.
 */
export async function screenshotAtBreakpoints(page: Page, name: string, path?: string) {
  for (const [breakpoint, width] of BREAKPOINTS) {
    await page.setViewportSize({ width, height: 900 });
    if (path) {
      await gotoHydrated(page, path);
      await expect(page.getByText("Loading", { exact: false })).toHaveCount(0);
    }
    await page.screenshot({ path: `reports/screenshots/${name}-${breakpoint}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}
