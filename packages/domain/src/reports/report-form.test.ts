import { describe, expect, it } from "vitest";
import { messagesOf } from "../schema-test-kit.ts";
import { ReportSubmission, ReportValidation, SignedOutReportSubmission } from "./report-form.ts";
import { VALID_REPORT_FORM } from "./report-test-kit.ts";

const text = (length: number) => "x".repeat(length);

const VALID_REPORT = VALID_REPORT_FORM;

describe("the report form (PRODUCT.md §3)", () => {
  it("accepts a complete report and turns optional blanks into null", () => {
    expect(ReportSubmission.parse({ ...VALID_REPORT, suggested_fix: " ", cvss_vector: "" })).toEqual({
      ...VALID_REPORT,
      suggested_fix: null,
      cvss_vector: null,
      email: null,
    });
  });

  it("names every missing required field", () => {
    expect(Object.keys(messagesOf(ReportSubmission, {})).sort()).toEqual(
      [
        "affected_version",
        "affected_version_prefix",
        "description",
        "kind",
        "owasp_category",
        "product_name",
        "product_slug",
        "proof_of_concept",
        "required_privilege",
        "steps_to_reproduce",
        "title",
        "vulnerability_type",
      ].sort(),
    );
  });

  it("asks for a choice on an empty select, and says the steps to reproduce are required (issue 19)", () => {
    for (const blank of ["", undefined, null, Number.NaN])
      expect(
        messagesOf(ReportSubmission, {
          ...VALID_REPORT,
          vulnerability_type: blank,
          owasp_category: blank,
          required_privilege: blank,
          steps_to_reproduce: "",
        }),
      ).toEqual({
        vulnerability_type: ["Choose the vulnerability type."],
        owasp_category: ["Choose the OWASP category."],
        required_privilege: ["Choose the role an attacker needs."],
        steps_to_reproduce: ["The steps to reproduce are required."],
      });
  });

  it("checks lengths, codes and the enumerations with clear messages", () => {
    expect(
      messagesOf(ReportSubmission, {
        ...VALID_REPORT,
        kind: "library",
        affected_version_prefix: ">=",
        vulnerability_type: 43,
        owasp_category: 40,
        required_privilege: 10,
        title: "Too short",
        description: "short",
        proof_of_concept: text(50_001),
      }),
    ).toEqual({
      kind: ["Software kind must be plugin, theme or core."],
      affected_version_prefix: ['The version prefix must be "<=", "<" or empty (a specific version).'],
      vulnerability_type: ["Must be a vulnerability type code from 1 to 42."],
      owasp_category: ["Must be an OWASP category code from 41 to 50."],
      required_privilege: ["Must be a WordPress role code from 1 to 9."],
      title: ["The title must be 10 to 200 characters long."],
      description: ["The description must be at least 30 characters long."],
      proof_of_concept: ["The proof of concept must be at most 50,000 characters long."],
    });
    expect(messagesOf(ReportSubmission, { ...VALID_REPORT, title: text(201) })).toEqual({
      title: ["The title must be 10 to 200 characters long."],
    });
    expect(ReportSubmission.safeParse({ ...VALID_REPORT, description: text(50_000) }).success).toBe(true);
  });

  it("validates the CVSS vector with the domain's parser and asks for 3.1", () => {
    expect(
      ReportSubmission.parse({ ...VALID_REPORT, cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N" })
        .cvss_vector,
    ).toBe("CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N");
    expect(messagesOf(ReportSubmission, { ...VALID_REPORT, cvss_vector: "CVSS:3.1/AV:N" })).toEqual({
      cvss_vector: ["Missing base metrics: AC, PR, UI, S, C, I, A."],
    });
    expect(
      messagesOf(ReportSubmission, {
        ...VALID_REPORT,
        cvss_vector: "CVSS:3.0/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N",
      }),
    ).toEqual({ cvss_vector: ["Use a CVSS 3.1 vector: it starts with CVSS:3.1/."] });
  });

  it("requires the e-mail only from a signed-out reporter", () => {
    expect(messagesOf(SignedOutReportSubmission, VALID_REPORT)).toEqual({
      email: ["Your e-mail address is required when you are not signed in."],
    });
    expect(messagesOf(SignedOutReportSubmission, { ...VALID_REPORT, email: "nope" })).toEqual({
      email: ["Must be a valid email address."],
    });
    expect(SignedOutReportSubmission.parse({ ...VALID_REPORT, email: " a@example.com " }).email).toBe(
      "a@example.com",
    );
  });

  it("refuses a malformed product slug or version", () => {
    expect(
      messagesOf(ReportSubmission, { ...VALID_REPORT, product_slug: "../etc", affected_version: "1 2" }),
    ).toEqual({
      product_slug: [
        "The software slug may contain only letters, digits and single dots, hyphens or underscores between them.",
      ],
      affected_version: [
        "The version may contain only letters, digits, dots, plus signs, hyphens and underscores.",
      ],
    });
  });
});

describe("the validation staff give a report", () => {
  const valid = {
    vulnerability_type: 2,
    owasp_category: 43,
    required_privilege: 3,
    affected_version_prefix: "<",
    affected_version: "1.2.4",
    fixed_version: "1.2.4",
    cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N",
    cve: "cve-2026-12345",
  };

  it("accepts a full validation and upper-cases the CVE id", () => {
    expect(ReportValidation.parse(valid)).toEqual({ ...valid, cve: "CVE-2026-12345" });
  });

  it("requires a CVSS 3.1 vector and a well-formed CVE id", () => {
    const result = ReportValidation.safeParse({ ...valid, cvss_vector: "", cve: "2026-1" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path[0], issue.message])).toEqual([
      ["cvss_vector", "A CVSS 3.1 vector is required to validate a report."],
      ["cve", "A CVE id looks like CVE-2025-12345."],
    ]);
  });
});
