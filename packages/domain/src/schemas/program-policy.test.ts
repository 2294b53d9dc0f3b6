import { describe, expect, it } from "vitest";
import {
  formatSupportEnd,
  isIsoDay,
  ProductUserNoticeBody,
  ProgramPolicyBody,
  policyTemplate,
} from "./program-policy.ts";

describe("ProgramPolicyBody", () => {
  it("turns blanks into null: the generated policy, the program's contact, no support period", () => {
    expect(
      ProgramPolicyBody.parse({ policy_markdown: "  ", security_contact_email: "", support_ends_on: "" }),
    ).toEqual({ policy_markdown: null, security_contact_email: null, support_ends_on: null });
  });

  it("accepts real days only", () => {
    expect(isIsoDay("2028-12-31")).toBe(true);
    expect(isIsoDay("2028-02-29")).toBe(true);
    for (const day of ["2027-02-29", "2028-13-01", "31/12/2028", "1999-12-31", "2028-1-5"])
      expect(isIsoDay(day), day).toBe(false);
  });
});

describe("ProductUserNoticeBody", () => {
  it("needs a message of 20 characters or more and takes a report id or none", () => {
    expect(ProductUserNoticeBody.safeParse({ message: "Update." }).success).toBe(false);
    expect(ProductUserNoticeBody.parse({ message: "Update Acme Forms to 2.4 now.", report_id: "" })).toEqual({
      message: "Update Acme Forms to 2.4 now.",
      report_id: null,
    });
  });
});

describe("policyTemplate", () => {
  it("escapes Markdown in names so that they stay text", () => {
    const text = policyTemplate({
      siteName: "Pressguard",
      productName: "Forms *Pro* [beta]",
      kind: "plugin",
      slug: "forms-pro",
      version: null,
      vendorName: "Acme_Inc",
      fixDeadlineDays: 14,
    });
    expect(text).toContain("**Forms \\*Pro\\* \\[beta\\]**");
    expect(text).toContain("Acme\\_Inc commits to releasing a fix within **14 days**");
    expect(text).toContain("including the current release.");
  });

  it("writes the support period's end for people", () => {
    expect(formatSupportEnd("2028-12-31")).toBe("31 December 2028");
  });
});
