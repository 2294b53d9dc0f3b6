import { type ProductProgram, type PublicProduct, policyTemplate } from "@pressguard/domain";
import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { SecurityPolicy } from "./security-policy.tsx";

/** The public policy page of an active program (issue 20): the policy, the contact, the support period. */

const product = { name: "Acme Forms", slug: "acme-forms", version: "2.1.0" } as PublicProduct;

const program = (overrides: Partial<ProductProgram> = {}): ProductProgram => ({
  vendor_name: "Acme Inc",
  vendor_website_url: "https://acme.example",
  fix_deadline_days: 30,
  activated_at: "2026-01-15T10:00:00Z",
  plan: "free",
  policy_markdown: policyTemplate({
    siteName: "Pressguard",
    productName: "Acme Forms",
    kind: "plugin",
    slug: "acme-forms",
    version: "2.1.0",
    vendorName: "Acme Inc",
    fixDeadlineDays: 30,
  }),
  policy_updated_at: null,
  security_contact_email: "psirt@acme.example",
  support_ends_on: "2028-12-31",
  ...overrides,
});

const render = (value: ProductProgram) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <SecurityPolicy
        product={product}
        program={value}
        reportPath="/database/report/wordpress/plugin/acme-forms"
        securityTxtPath="/database/wordpress/plugin/acme-forms/security.txt"
      />
    </MemoryRouter>,
  );

describe("SecurityPolicy", () => {
  it("renders the generated policy's sections, the point of contact and the support period", () => {
    const html = render(program());
    expect(html).toContain("<h2>Scope</h2>");
    expect(html).toContain("<h2>Safe harbour</h2>");
    expect(html).toContain("within <strong>30 days</strong>");
    expect(html).toContain('href="mailto:psirt@acme.example"');
    expect(html).toContain("Security updates until 31 December 2028.");
    expect(html).toContain('href="/database/report/wordpress/plugin/acme-forms"');
  });

  it("renders the vendor's Markdown without its HTML or script links", () => {
    const html = render(
      program({
        policy_markdown: "## Our policy\n\nWrite to us.<script>alert(1)</script> [x](javascript:alert(1))",
        policy_updated_at: "2026-11-20T09:00:00Z",
        support_ends_on: null,
      }),
    );
    expect(html).toContain("<h2>Our policy</h2>");
    expect(html).not.toMatch(/<script|javascript:/i);
    expect(html).toContain("Policy updated 20 November 2026.");
    expect(html).toContain("Acme Inc has not declared an end date for security updates.");
  });
});
