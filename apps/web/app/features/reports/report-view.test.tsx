import type { ReportDetail, ReportSubmissionRequest } from "@pressguard/domain";
import type { ReactElement } from "react";
import { renderToStaticMarkup as renderOnItsOwn } from "react-dom/server";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { attachmentUrl } from "../../lib/api/report-attachments.ts";
import { affectedVersionsLabel, stateLabel } from "../../lib/report-labels.ts";
import { pageFromUrl, reportsApi } from "./api.ts";
import { ReportView } from "./report-view.tsx";

const XSS = [
  "<script>window.__xss=1</script>",
  '<img src=x onerror="window.__xss=1">',
  "[x](javascript:window.__xss=1)",
  '<svg onload="window.__xss=1">',
].join("\n\n");

/**
 * Rendered as in the app: under the root route, whose data says the auth mode (the file links ask it,
 * to fetch with the token in token mode).
 */
function renderToStaticMarkup(element: ReactElement): string {
  const router = createMemoryRouter([{ id: "root", path: "/", element }], {
    hydrationData: { loaderData: { root: { publicConfig: { auth: { mode: "cookie" } } } } },
  });
  return renderOnItsOwn(<RouterProvider router={router} />);
}

function reportWith(overrides: Partial<ReportDetail> = {}): ReportDetail {
  return {
    id: "6f1c2a34-5b6d-4e7f-8a9b-0c1d2e3f4a5b",
    status: "in_review",
    title: "Stored XSS in the form name",
    product: {
      id: 7,
      platform: "wordpress",
      kind: "plugin",
      slug: "contact-form-7",
      name: "Contact Form 7",
      is_lobby_product: false,
      has_active_program: false,
    },
    researcher: { uuid: "0b0c0d0e-0000-4000-8000-000000000001", display_name: "Ada" },
    affected_version_prefix: "<=",
    affected_version: "5.9.5",
    vulnerability_type: 2,
    owasp_category: 43,
    required_privilege: 3,
    description: "The name is printed **without escaping**.",
    steps_to_reproduce: "1. Create a form.\n2. Open the list.",
    proof_of_concept: "`<script>alert(1)</script>`",
    suggested_fix: null,
    reported_cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N",
    cvss_vector: null,
    cvss_score: null,
    severity: null,
    cve: null,
    cve_requested_at: null,
    duplicate_of: null,
    fixed_version: null,
    fix_url: null,
    rejection_reason: null,
    vendor_notified_at: null,
    fix_deadline_at: null,
    deadline_passed_at: null,
    fixed_at: null,
    validated_at: null,
    published_at: null,
    created_at: "2026-11-20T10:00:00Z",
    updated_at: "2026-11-20T10:00:00Z",
    public_path: null,
    actions: [],
    attachments: [],
    timeline: [
      {
        action: "submit",
        from_state: null,
        to_state: "submitted",
        note: null,
        created_at: "2026-11-20T10:00:00Z",
      },
      {
        action: "take_into_review",
        from_state: "submitted",
        to_state: "in_review",
        note: "Looking into it.",
        created_at: "2026-11-21T09:30:00Z",
      },
    ],
    comments: [
      {
        id: 1,
        body: "Reproduced on **6.7**.",
        visibility: "vendor_researcher",
        author: { name: "Triage" },
        created_at: "2026-11-21T10:00:00Z",
      },
    ],
    ...overrides,
  };
}

describe("ReportView", () => {
  it("shows every field of the report, its status, timeline and comments", () => {
    const html = renderToStaticMarkup(<ReportView report={reportWith()} />);
    expect(html).toContain('<h1 id="report-title"');
    for (const text of [
      "Stored XSS in the form name",
      "In review",
      "Contact Form 7",
      "&lt;= 5.9.5 (less than or equal)",
      "Cross-Site Scripting (XSS)",
      "A3 Injection",
      "Contributor",
      "Not scored yet",
      "CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N",
      "(5.4)",
      "<strong>without escaping</strong>",
      "Report submitted",
      "Taken into review",
      "Looking into it.",
      "<strong>6.7</strong>",
    ]) {
      expect(html).toContain(text);
    }
    expect(html).not.toContain("Suggested fix");
  });

  it("shows the triaged CVSS vector with its score and severity, and the public page once published", () => {
    const html = renderToStaticMarkup(
      <ReportView
        report={reportWith({
          status: "published",
          cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H",
          cvss_score: 9.8,
          severity: "critical",
          cve: "CVE-2026-12345",
          public_path: "/database/wordpress/plugin/contact-form-7/vulnerability/x",
        })}
        actions={<button type="button">Submit a fix</button>}
        footer={<p>Footer slot</p>}
      />,
    );
    expect(html).toContain("Critical 9.8");
    expect(html).toContain("CVE-2026-12345");
    expect(html).toContain('href="/database/wordpress/plugin/contact-form-7/vulnerability/x"');
    expect(html).toContain("Submit a fix");
    expect(html).toContain("Footer slot");
  });

  it("renders script tags, event handlers, javascript: links and SVG in any field as inert text", () => {
    const html = renderToStaticMarkup(
      <ReportView
        report={reportWith({
          title: XSS,
          description: XSS,
          steps_to_reproduce: XSS,
          proof_of_concept: XSS,
          suggested_fix: XSS,
          product: { ...reportWith().product, name: XSS },
          researcher: { uuid: "x", display_name: XSS },
          timeline: [
            { action: "reject", from_state: "in_review", to_state: "rejected", note: XSS, created_at: "x" },
          ],
          comments: [{ id: 2, body: XSS, visibility: "staff", author: { name: XSS }, created_at: "x" }],
        })}
      />,
    );
    // No element, no event-handler attribute, no script URL; the payloads stay visible as text.
    expect(html).not.toMatch(/<script|<img|<svg|<[^>]+\son\w+=|href="javascript:/i);
    expect(html).toContain("&lt;script&gt;window.__xss=1&lt;/script&gt;");
  });

  it("lists attachments as downloads where the page says, and not at all without a link", () => {
    const report = reportWith({
      attachments: [
        {
          id: "a1",
          kind: "proof",
          filename: '"><script>x</script>.txt',
          content_type: "text/plain",
          size: 3000,
          created_at: "2026-01-01T00:00:00Z",
        },
      ],
    });
    expect(renderToStaticMarkup(<ReportView report={report} />)).not.toContain("report-attachments");
    const html = renderToStaticMarkup(
      <ReportView
        report={report}
        attachmentHref={(id) => attachmentUrl("/api", report.id, id, "signed token")}
      />,
    );
    expect(html).toContain(`href="/api/reports/${report.id}/attachments/a1?token=signed+token" download=""`);
    expect(html).toContain("&quot;&gt;&lt;script&gt;x&lt;/script&gt;.txt");
    expect(html).toContain("3 KB");
  });

  it("shows proof-of-concept and fix files apart, and the fix link only as a safe outside link", () => {
    const file = (id: string, kind: "proof" | "fix", filename: string) => ({
      id,
      kind,
      filename,
      content_type: "application/zip",
      size: 10,
      created_at: "2026-01-01T00:00:00Z",
    });
    const report = reportWith({
      fixed_version: "1.2.1",
      fix_url: "https://acme.example/releases/1.2.1",
      attachments: [file("p1", "proof", "poc.txt"), file("f1", "fix", "fix-1.2.1.zip")],
    });
    const html = renderToStaticMarkup(<ReportView report={report} attachmentHref={(id) => `/files/${id}`} />);
    expect(html).toMatch(/>Proof of concept<\/h3>.*poc\.txt.*>Fix<\/h3>.*fix-1\.2\.1\.zip/s);
    expect(html).toContain(
      '<a href="https://acme.example/releases/1.2.1" target="_blank" rel="noopener noreferrer nofollow"',
    );
    const hostile = renderToStaticMarkup(
      <ReportView report={reportWith({ fix_url: "javascript:alert(1)" })} />,
    );
    expect(hostile).not.toContain('href="javascript:');
    expect(hostile).toContain("javascript:alert(1)");
  });

  it("can sit under a page's own h1", () => {
    const html = renderToStaticMarkup(<ReportView report={reportWith()} headingLevel={2} />);
    expect(html).toContain('<h2 id="report-title"');
    expect(html).not.toContain("<h1");
  });
});

describe("report labels", () => {
  it("names states and version ranges in words", () => {
    expect(stateLabel("fix_pending")).toBe("Fix pending");
    expect(affectedVersionsLabel("<", "2.0")).toBe("< 2.0 (less than)");
    expect(affectedVersionsLabel("", "1.4")).toBe("1.4 (this version only)");
  });
});

describe("reportsApi", () => {
  it("forwards a preview link's token to the API, and only when there is one", async () => {
    const calls: [string, unknown][] = [];
    const client = {
      request: async <T,>(path: string, options?: unknown) => {
        calls.push([path, options]);
        return {} as T;
      },
    };
    await reportsApi.getReport(client, "abc", "signed-token");
    await reportsApi.getReport(client, "abc");
    expect(calls).toEqual([
      ["/reports/abc", { query: { token: "signed-token" } }],
      ["/reports/abc", { query: { token: undefined } }],
    ]);
  });

  it("sends a report with an Idempotency-Key of its own, a new one for each submission", async () => {
    const keys: (string | undefined)[] = [];
    const client = {
      request: async <T,>(_path: string, options?: { headers?: Record<string, string> }) => {
        keys.push(options?.headers?.["Idempotency-Key"]);
        return {} as T;
      },
    };
    const report: ReportSubmissionRequest = {
      kind: "plugin",
      product_slug: "contact-form-deluxe",
      product_name: "Contact Form Deluxe",
      affected_version_prefix: "<=",
      affected_version: "1.2.3",
      vulnerability_type: 2,
      owasp_category: 43,
      required_privilege: 3,
      title: "Stored XSS in the form title",
      description: "The form title is echoed without escaping on the admin page.",
      steps_to_reproduce: "1. Create a form. 2. Put a script tag in its title. 3. Open the list.",
      proof_of_concept: "<script>alert(document.domain)</script> in the title field of the form.",
    };
    await reportsApi.submitReport(client, report);
    await reportsApi.submitReport(client, report);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).not.toBe(keys[0]);
  });

  it("sends comments and attachment uploads with an Idempotency-Key each, so their retries store nothing twice", async () => {
    const keys: (string | undefined)[] = [];
    const client = {
      request: async <T,>(_path: string, options?: { headers?: Record<string, string> }) => {
        keys.push(options?.headers?.["Idempotency-Key"]);
        return {} as T;
      },
    };
    await reportsApi.addComment(client, "abc", "Any news?");
    await reportsApi.addPinComment(client, "abc", "Fixed in 1.2.");
    await reportsApi.uploadAttachment(client, "abc", new File(["poc"], "poc.txt"), "upload-token");
    expect(keys).toHaveLength(3);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(keys).size).toBe(3);
  });

  it("reads the page number of a next_page_url", () => {
    expect(pageFromUrl("/api/researcher/reports?tab=rejected&page=3")).toBe(3);
    expect(pageFromUrl(null)).toBeNull();
    expect(pageFromUrl("/api/researcher/reports?page=zero")).toBeNull();
  });
});
