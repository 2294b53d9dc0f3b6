import * as mandatoryTests from "@secvisogram/csaf-validator-lib/mandatoryTests.js";
import * as recommendedTests from "@secvisogram/csaf-validator-lib/optionalTests.js";
import { csaf_2_0_strict } from "@secvisogram/csaf-validator-lib/schemaTests.js";
import validateStrict, { type DocumentTest } from "@secvisogram/csaf-validator-lib/validateStrict.js";

/**
 * BSI's reference CSAF validator (@secvisogram/csaf-validator-lib, decision 029) as the tests run it:
 * the strict schema test, every mandatory test (§6.1) and every recommended test (§6.2). None of these
 * makes a network request; the informative tests (§6.3) are not run: 6.3.6 and 6.3.7 fetch every URL
 * of a document and 6.3.8 calls hunspell.
 */
const TESTS: DocumentTest[] = [
  csaf_2_0_strict,
  ...Object.values(mandatoryTests as Record<string, DocumentTest>),
  ...Object.values(recommendedTests as Record<string, DocumentTest>),
];

interface Document {
  document?: { tracking?: { id?: unknown; status?: unknown } };
  vulnerabilities?: { scores?: unknown[] }[];
}

/**
 * The recommended-test warnings a document may carry, each with its reason (decision 029, amendment of
 * 2026-12-05). Nothing else is accepted.
 */
const ACCEPTED_WARNINGS: Record<string, (document: Document) => boolean> = {
  // 6.2.3 "missing score": a record (or a report) without a CVSS vector. A score is never made up.
  optionalTest_6_2_3: (document) =>
    (document.vulnerabilities ?? []).every((vulnerability) => !vulnerability.scores?.length),
  // 6.2.11 "missing canonical url": a CRA step's draft (status draft, TLP:AMBER) is not published
  // here; the vendor completes it and sends it, so it has no canonical URL of ours.
  optionalTest_6_2_11: (document) => document.document?.tracking?.status === "draft",
};

/**
 * Every error (schema, mandatory and recommended tests) and every recommended-test warning not
 * accepted above, of many documents: `<tracking id> <test> <error|warning> <path> <message>`.
 */
export async function csafValidatorFindings(documents: unknown[]): Promise<string[]> {
  const findings: string[] = [];
  for (const document of documents) {
    const id = String((document as Document).document?.tracking?.id);
    const result = await validateStrict(TESTS, document);
    for (const test of result.tests) {
      for (const error of test.errors) {
        findings.push(`${id} ${test.name} error ${error.instancePath} ${error.message}`);
      }
      if (ACCEPTED_WARNINGS[test.name]?.(document as Document)) continue;
      for (const warning of test.warnings) {
        findings.push(`${id} ${test.name} warning ${warning.instancePath} ${warning.message}`);
      }
    }
  }
  return findings;
}

/** The names of the tests run: the strict schema test, then §6.1's and §6.2's. */
export const csafValidatorTestNames = TESTS.map((test) => (test as { name: string }).name);
