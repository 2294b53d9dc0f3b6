import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ReportComments, ReportTimeline } from "./report-parts.tsx";

const XSS =
  '<script>alert(1)</script><img src=x onerror="alert(1)"> [x](javascript:alert(1)) <svg onload=alert(1)>';

describe("the report parts shared by staff and vendor pages", () => {
  it("render comments and timeline notes as inert Markdown, marking staff-only comments", () => {
    const html = renderToStaticMarkup(
      <>
        <ReportTimeline
          events={[
            {
              action: "reject",
              from_state: "in_review",
              to_state: "rejected",
              note: XSS,
              actor: { id: 1, name: "Staff" },
              created_at: "2026-01-01T10:00:00Z",
            },
          ]}
        />
        <ReportComments
          comments={[
            {
              id: 1,
              body: XSS,
              visibility: "staff",
              author: { name: "Staff" },
              created_at: "2026-01-01T10:00:00Z",
            },
          ]}
        />
      </>,
    );
    // The HTML is shown as escaped text (issue 38: it is an XSS report's payload); no tag is live.
    for (const tag of html.match(/<[^>]*>/g) ?? []) {
      expect(tag).not.toMatch(/<script|\son\w+=|javascript:|<svg|<img/i);
    }
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("Rejected");
    expect(html).toContain("In review → Rejected");
    expect(html).toContain("Staff only");
  });
});
