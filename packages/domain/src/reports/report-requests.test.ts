import { describe, expect, it } from "vitest";
import { messagesOf } from "../schema-test-kit.ts";
import { REPORT_ACTION_MESSAGE } from "./lifecycle.ts";
import {
  ReportSubmissionBody,
  type ReportSubmissionRequest,
  ReportTransitionBody,
  type ReportTransitionRequest,
  SignedOutReportSubmissionBody,
} from "./report-requests.ts";
import { VALID_REPORT_FORM } from "./report-test-kit.ts";

const VALIDATION = {
  vulnerability_type: 2,
  owasp_category: 43,
  required_privilege: 3,
  affected_version_prefix: "<=",
  affected_version: "1.2.3",
  cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N",
} as const;

const REPORT = VALID_REPORT_FORM;

describe("a transition's body (PRODUCT.md §2)", () => {
  it("reads each action with its own fields, and the note of any", () => {
    expect(ReportTransitionBody.parse({ action: "take_into_review", note: " Looking " })).toEqual({
      action: "take_into_review",
      note: "Looking",
    });
    expect(ReportTransitionBody.parse({ action: "reject", reason: "invalid" })).toEqual({
      action: "reject",
      note: null,
      reason: "invalid",
    });
    expect(
      ReportTransitionBody.parse({ action: "validate", ...VALIDATION, cve: "cve-2026-1234" }),
    ).toMatchObject({ action: "validate", cve: "CVE-2026-1234", fixed_version: null });
  });

  it("names an unknown or missing action in the lifecycle's words", () => {
    expect(messagesOf(ReportTransitionBody, { action: "fly" })).toEqual({ action: [REPORT_ACTION_MESSAGE] });
    expect(messagesOf(ReportTransitionBody, { note: "No action" })).toEqual({
      action: [REPORT_ACTION_MESSAGE],
    });
  });

  it("names every field an action lacks, in the action's own words, with a bad note", () => {
    expect(messagesOf(ReportTransitionBody, { action: "reject", reason: "" })).toEqual({
      reason: ["Choose why the report is rejected."],
    });
    expect(
      messagesOf(ReportTransitionBody, { action: "validate", ...VALIDATION, cvss_vector: "", note: 1 }),
    ).toEqual({
      note: ["The note must be text."],
      cvss_vector: ["A CVSS 3.1 vector is required to validate a report."],
    });
  });

  it("does not compile with an unknown action or a field its action lacks", () => {
    const bodies: ReportTransitionRequest[] = [
      { action: "verify_fix", note: "Checked on 2.4.2." },
      { action: "reject", reason: "duplicate", duplicate_of_report_id: crypto.randomUUID() },
      { action: "validate", ...VALIDATION },
      // @ts-expect-error: no such action
      { action: "fly" },
      // @ts-expect-error: rejecting needs its reason
      { action: "reject" },
      // @ts-expect-error: validating needs the classification and the CVSS vector
      { action: "validate", affected_version: "1.2.3" },
    ];
    expect(bodies.map((body) => ReportTransitionBody.safeParse(body).success)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});

describe("a report's body (PRODUCT.md §3)", () => {
  it("takes the captcha's answer and an embed's key besides the form", () => {
    expect(
      SignedOutReportSubmissionBody.parse({ ...REPORT, email: "a@example.com", captcha: "answer" }),
    ).toMatchObject({ email: "a@example.com", captcha: "answer" });
    expect(ReportSubmissionBody.parse({ ...REPORT, embed_key: "key" }).embed_key).toBe("key");
    // A key that is not text is an unknown key, as an unknown text is (the service answers 404).
    expect(ReportSubmissionBody.parse({ ...REPORT, embed_key: 42 }).embed_key).toBe("");
  });

  it("does not compile without the form's required fields", () => {
    const bodies: ReportSubmissionRequest[] = [
      REPORT,
      { ...REPORT, email: "a@example.com", captcha: "answer" },
      // @ts-expect-error: the title is required
      { ...REPORT, title: undefined },
    ];
    expect(bodies).toHaveLength(3);
  });
});
