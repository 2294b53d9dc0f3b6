import {
  DEFIANT_LICENSE,
  describeEpss,
  formatPercentile,
  formatShare,
  MITRE_CVE_LICENSE,
  type VulnerabilitySummary,
  WORDFENCE_ATTRIBUTION,
} from "@pressguard/domain";
import { renderToStaticMarkup } from "react-dom/server";
import { createMemoryRouter, MemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { byUrgency } from "../../components/checked-vulnerability.tsx";
import { ExploitationPanel } from "./exploitation-panel.tsx";
import { ProductFacts } from "./product-facts.tsx";
import { licenceNoticesOf, RecordSource, WithdrawnNotice } from "./record-source.tsx";
import { SearchForm } from "./search-form.tsx";
import type { SearchParams } from "./search-params.ts";
import { VulnerabilityList } from "./vulnerability-list.tsx";

/**
 * Issue 34, what a record's page and the lists show: the "Known exploited" badge with CISA's dates,
 * the EPSS score with its percentile and explanation, the withdrawn notice, the licence notices a
 * Wordfence-derived record must carry, and a product's directory facts.
 */
const KEV = { date_added: "2024-08-14", due_date: "2024-09-04", ransomware: "Known" } as const;
const EPSS = { score: 0.91234, percentile: 0.99871, date: "2026-12-04" };
const render = (element: React.ReactElement) => renderToStaticMarkup(<MemoryRouter>{element}</MemoryRouter>);
/** The text a reader sees, one space between words. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ")
    .trim();

describe("the exploitation panel", () => {
  it("shows the Known exploited badge with the day CISA added it, the due date and ransomware use", () => {
    const text = textOf(render(<ExploitationPanel knownExploited={KEV} epss={null} cve="CVE-2024-6522" />));
    expect(text).toContain("Known exploited");
    expect(text).toContain("Known Exploited Vulnerabilities catalog");
    expect(text).toContain("Added by CISA 14 August 2024");
    expect(text).toContain("Due date 4 September 2024");
    expect(text).toContain("Ransomware use Known");
  });

  it("shows the EPSS score as a percentage with its percentile and the one-line explanation", () => {
    const text = textOf(render(<ExploitationPanel knownExploited={null} epss={EPSS} cve="CVE-2024-6522" />));
    expect(text).toContain("EPSS score 91.23% (99th percentile)");
    expect(text).toContain("EPSS: the probability of exploitation activity in the next 30 days, from FIRST.");
    expect(text).toContain("Scored 4 December 2026");
    expect(text).toContain("Not in CISA's Known Exploited Vulnerabilities catalog.");
    expect(text).not.toContain("Known exploited");
  });

  it("words shares and percentiles as people read them", () => {
    expect(formatShare(0.5)).toBe("50%");
    expect(formatShare(0.00042)).toBe("0.04%");
    expect(formatShare(0.00004)).toBe("< 0.01%");
    expect(formatPercentile(0.01)).toBe("1st percentile");
    expect(formatPercentile(0.12)).toBe("12th percentile");
    expect(formatPercentile(0.923)).toBe("92nd percentile");
    expect(formatPercentile(1)).toBe("100th percentile");
    expect(describeEpss(EPSS)).toBe("91.23% (99th percentile) on 2026-12-04");
  });
});

describe("a withdrawn record's page", () => {
  it("says plainly that it is withdrawn, and when", () => {
    const text = textOf(render(<WithdrawnNotice withdrawnAt="2026-12-05T09:30:00Z" />));
    expect(text).toContain("Withdrawn on 5 December 2026");
    expect(text).toContain("no longer lists this vulnerability");
    expect(render(<WithdrawnNotice withdrawnAt={null} />)).toBe("");
  });
});

describe("the record's source and licence", () => {
  const FEED_ATTRIBUTION = `Copyright 2012-2024 Defiant Inc. ${DEFIANT_LICENSE} https://www.wordfence.com/wordfence-intelligence-terms-and-conditions/

Copyright 1999-2024 The MITRE Corporation ${MITRE_CVE_LICENSE} https://www.cve.org/Legal/TermsOfUse`;
  const BUNDLED_ATTRIBUTION =
    "Vulnerability information Copyright Defiant Inc. (Wordfence Intelligence), redistributed under the Wordfence Intelligence license (see README); CVE identifiers Copyright The MITRE Corporation (CVE Terms of Use).";
  const SOURCE_URL = "https://www.wordfence.com/threat-intel/vulnerabilities/id/7f5e6e3d";

  it("links a Wordfence feed record to its upstream record and shows Defiant's and MITRE's notices as the feed gave them", () => {
    const record = {
      source: "wordfence-intelligence",
      source_url: SOURCE_URL,
      attribution: FEED_ATTRIBUTION,
      cve: "CVE-2023-5775",
    };
    const html = render(<RecordSource record={record} />);
    expect(html).toContain(`href="${SOURCE_URL}"`);
    expect(textOf(html)).toContain("This record on Wordfence Intelligence");
    expect(textOf(html)).toContain("Copyright 2012-2024 Defiant Inc.");
    // The licence texts once each: the feed's attribution already carries them.
    expect(licenceNoticesOf(record).map((notice) => notice.heading)).toEqual(["Attribution", "Trademarks"]);
    expect(html.split("Defiant hereby grants")).toHaveLength(2);
  });

  it("adds Defiant's copyright designation and licence, and MITRE's, to a bundled record's short notice", () => {
    const record = {
      source: "wordfence-intelligence",
      source_url: SOURCE_URL,
      attribution: BUNDLED_ATTRIBUTION,
      cve: "CVE-2021-25065",
    };
    const text = textOf(render(<RecordSource record={record} />));
    expect(text).toContain(BUNDLED_ATTRIBUTION);
    expect(text).toContain(`${WORDFENCE_ATTRIBUTION}. ${DEFIANT_LICENSE}`);
    expect(text).toContain("The MITRE Corporation. CVE Usage: MITRE hereby grants");
    // No CVE id: no MITRE notice.
    expect(licenceNoticesOf({ ...record, cve: null }).map((notice) => notice.heading)).toEqual([
      "Attribution",
      "Wordfence Intelligence licence",
      "Trademarks",
    ]);
  });

  it("keeps MITRE's notice for a record published here with a CVE id, and no Defiant notice", () => {
    const notices = licenceNoticesOf({
      source: "pressguard",
      source_url: null,
      attribution: null,
      cve: "CVE-2026-0001",
    });
    expect(notices.map((notice) => notice.heading)).toEqual(["CVE licence"]);
  });
});

describe("a product's directory facts", () => {
  it("shows when WordPress.org closed the product, its current version, installs and last update", () => {
    const text = textOf(
      render(
        <ProductFacts
          product={{
            version: "1.7.0",
            active_installs: 700,
            directory_updated: "2024-02-07T18:55:00Z",
            closed_at: "2026-11-30T00:00:00Z",
          }}
        />,
      ),
    );
    expect(text).toContain("Closed on WordPress.org on 30 November 2026");
    expect(text).toContain("Current version 1.7.0");
    expect(text).toContain("Active installs 700+");
    expect(text).toContain("Last updated 7 February 2024");
  });

  it("shows nothing the directory does not say", () => {
    const html = render(
      <ProductFacts
        product={{ version: null, active_installs: null, directory_updated: null, closed_at: null }}
      />,
    );
    expect(html).toBe("");
    const open = textOf(
      render(
        <ProductFacts
          product={{ version: "6.7", active_installs: null, directory_updated: null, closed_at: null }}
        />,
      ),
    );
    expect(open).toBe("Current version 6.7");
  });
});

describe("the lists", () => {
  const summary: VulnerabilitySummary = {
    id: "7d1c5d0e-0000-4000-8000-000000000034",
    slug: "modern-ssrf-7d1c5d0e",
    url: "https://db.example.test/database/wordpress/plugin/modern/vulnerability/modern-ssrf-7d1c5d0e",
    title: "Modern <= 7.12.1 - SSRF",
    cve: "CVE-2024-6522",
    severity: "medium",
    cvss_score: 5.4,
    type: null,
    patched: false,
    fixed_in: null,
    inferred_fixed_from: null,
    affected_versions: "<= 7.12.1",
    published_at: null,
    product: {
      id: 1,
      platform: "wordpress",
      kind: "plugin",
      slug: "modern",
      name: "Modern",
      url: "https://db.example.test/database/wordpress/plugin/modern/vulnerabilities/vdp",
    },
    known_exploited: null,
    epss: null,
    withdrawn_at: null,
  };
  const rowText = (item: VulnerabilitySummary) =>
    textOf(render(<VulnerabilityList items={[item]} empty="None." />));

  it("badge a known-exploited record, its EPSS score and a withdrawn one", () => {
    expect(rowText({ ...summary, known_exploited: KEV, epss: EPSS })).toContain(
      "Known exploited EPSS 91.23%",
    );
    expect(rowText({ ...summary, withdrawn_at: "2026-12-05T09:30:00Z" })).toContain("Withdrawn");
    const plain = rowText(summary);
    expect(plain).not.toContain("Known exploited");
    expect(plain).not.toContain("EPSS");
    expect(plain).not.toContain("Withdrawn");
  });

  it("put known-exploited records first on a site check and a watchlist, then the most severe", () => {
    const base = {
      title: "x",
      cve: null,
      fixed_in: null,
      fixed_in_inferred: null,
      affected_versions: "<= 1",
      url: "https://x.test/v",
      epss: null,
    };
    const ordered = byUrgency([
      { ...base, id: "critical", severity: "critical", known_exploited: null },
      { ...base, id: "exploited-low", severity: "low", known_exploited: KEV },
      { ...base, id: "high", severity: "high", known_exploited: null },
    ]);
    expect(ordered.map((vulnerability) => vulnerability.id)).toEqual(["exploited-low", "critical", "high"]);
  });

  it("offer a known-exploited checkbox and the EPSS order in the search form, kept from the URL", () => {
    const formHtml = (params: SearchParams) =>
      renderToStaticMarkup(
        <RouterProvider
          router={createMemoryRouter([
            { path: "/", element: <SearchForm action="/database" params={params} /> },
          ])}
        />,
      );
    const html = formHtml({ page: 1, known_exploited: true, sort: "epss" });
    const checkbox = /<input id="search-known-exploited"[^>]*>/.exec(html)?.[0] ?? "";
    expect(checkbox).toContain('name="known_exploited"');
    expect(checkbox).toContain('value="true"');
    expect(checkbox).toContain('checked=""');
    expect(html).toContain('<option value="epss" selected="">Highest EPSS (exploit likelihood)</option>');
    expect(textOf(html)).toContain("Known exploited only");
    expect(formHtml({ page: 1 })).not.toContain('checked=""');
  });
});
