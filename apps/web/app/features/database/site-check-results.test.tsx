import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { fixesOf, fixLineOf } from "../../components/checked-vulnerability.tsx";
import { type CheckResults, orderResults, SiteCheckResults, summaryOf } from "./site-check-results.tsx";

const vulnerability = (
  id: string,
  severity: string | null,
  fixed: string | null,
  inferred: string | null = null,
) => ({
  id,
  title: `Flaw ${id}`,
  cve: null,
  severity,
  fixed_in: fixed,
  fixed_in_inferred: inferred,
  affected_versions: "< 9",
  url: `https://pressguard.test/database/wordpress/plugin/p/vulnerability/${id}`,
  known_exploited: null,
  epss: null,
});

const result = (slug: string, known: boolean, vulnerabilities: ReturnType<typeof vulnerability>[] = []) => ({
  kind: "plugin",
  slug,
  version: "1.0",
  known,
  checked_version: "1.0",
  vulnerabilities,
});

const RESULTS: CheckResults = [
  result("unknown-one", false),
  result("safe-one", true),
  result("vulnerable-one", true, [
    vulnerability("a", "low", "1.2.10"),
    vulnerability("b", "critical", "1.2.9"),
  ]),
];

describe("the Check your site results", () => {
  it("puts vulnerable products first, then known ones, then unknown ones", () => {
    expect(orderResults(RESULTS).map((entry) => entry.slug)).toEqual([
      "vulnerable-one",
      "safe-one",
      "unknown-one",
    ]);
  });

  it("sums up as plugins, themes or products", () => {
    expect(summaryOf(RESULTS)).toBe("1 of 3 plugins has known vulnerabilities");
    expect(summaryOf([...RESULTS, { ...result("t", true), kind: "theme" }])).toBe(
      "1 of 4 products has known vulnerabilities",
    );
  });

  it("counts a fix inferred from the current version as a fix, and says it is inferred (issue 17)", () => {
    expect(fixesOf([vulnerability("a", null, "1.2.10"), vulnerability("b", null, null, "1.3")])).toEqual([
      { fixed_in: "1.2.10" },
      { fixed_in: "1.3" },
    ]);
    expect(fixLineOf(vulnerability("a", null, "1.2.10"))).toBe("Update to 1.2.10 or later");
    expect(fixLineOf(vulnerability("b", null, null, "1.3"))).toBe(
      "Fixed in a later version: update to 1.3 (the current version; no fix listed, inferred)",
    );
    expect(fixLineOf(vulnerability("c", null, null))).toBe("No fix yet");
  });

  it("links the record on this site, the most severe first, with its update line or no fix yet", () => {
    const router = createMemoryRouter([
      {
        path: "/",
        element: (
          <SiteCheckResults
            results={[
              result("p", true, [
                vulnerability("low", "low", null),
                vulnerability("crit", "critical", "2.0"),
              ]),
            ]}
          />
        ),
      },
    ]);
    const html = renderToStaticMarkup(<RouterProvider router={router} />);
    expect(html).toContain('href="/database/wordpress/plugin/p/vulnerability/crit"');
    expect(html.indexOf("Flaw crit")).toBeLessThan(html.indexOf("Flaw low"));
    expect(html).toContain("Update to 2.0 or later");
    expect(html).toContain("No fix yet");
  });
});
