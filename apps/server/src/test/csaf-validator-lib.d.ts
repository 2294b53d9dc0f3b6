/**
 * The parts of @secvisogram/csaf-validator-lib (BSI's reference CSAF validator, JavaScript without
 * types) the tests use: the schema tests, the mandatory (§6.1) and recommended (§6.2) tests, and the
 * strict runner, which refuses any test function the library does not define.
 */
declare module "@secvisogram/csaf-validator-lib/validateStrict.js" {
  interface Finding {
    message: string;
    instancePath: string;
  }
  export interface TestResult {
    name: string;
    isValid: boolean;
    errors: Finding[];
    warnings: Finding[];
    infos: Finding[];
  }
  export type DocumentTest = (document: unknown) => unknown;
  export default function validateStrict(
    tests: DocumentTest[],
    document: unknown,
  ): Promise<{ isValid: boolean; tests: TestResult[] }>;
}
declare module "@secvisogram/csaf-validator-lib/schemaTests.js" {
  import type { DocumentTest } from "@secvisogram/csaf-validator-lib/validateStrict.js";
  export const csaf_2_0_strict: DocumentTest;
  export const csaf_2_0: DocumentTest;
}
declare module "@secvisogram/csaf-validator-lib/mandatoryTests.js" {
  import type { DocumentTest } from "@secvisogram/csaf-validator-lib/validateStrict.js";

  const tests: Record<string, DocumentTest>;
  export = tests;
}
declare module "@secvisogram/csaf-validator-lib/optionalTests.js" {
  import type { DocumentTest } from "@secvisogram/csaf-validator-lib/validateStrict.js";

  const tests: Record<string, DocumentTest>;
  export = tests;
}
