import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/**
 * QUALITY.md: no axe violation of any impact (WCAG 2.1 A and AA, best practices) on the page as it
 * is now (issue 38: serious and critical only let the loading bar's `region` and a `heading-order`
 * through). Toasts are left out: they animate in and out, so their contrast is measured mid-fade.
 */
export async function expectNoSeriousViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .exclude(".Toastify")
    .analyze();
  const serious = results.violations.map(
    (violation) =>
      `${violation.impact} ${violation.id}: ${violation.help}\n${violation.nodes
        .slice(0, 5)
        .map((node) => `  ${node.target.join(" ")} — ${node.failureSummary?.split("\n").slice(1).join("; ")}`)
        .join("\n")}`,
  );
  expect(serious, `${page.url()}\n${serious.join("\n")}`).toEqual([]);
}
