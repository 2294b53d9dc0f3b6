import type { ReportSubmissionRequest } from "./report-requests.ts";

/** A report form every schema accepts, for the tests of the report's bodies (test code only). */
export const VALID_REPORT_FORM = {
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
} as const satisfies ReportSubmissionRequest;
