import { z } from "zod";
import { isNothingChosen } from "./nothing-chosen.ts";
import { OWASP_CATEGORIES, type OwaspCategory } from "./owasp-values.ts";

// The list and its lookups live apart from the schema, so a page that renders them loads no zod (issue 35).
export { OWASP_CATEGORIES, type OwaspCategory, owaspCategoryByCode } from "./owasp-values.ts";

export type OwaspCode = OwaspCategory["code"];

export const OwaspCode = z.literal(OWASP_CATEGORIES.map((category) => category.code) as OwaspCode[], {
  error: (issue) =>
    isNothingChosen(issue.input)
      ? "Choose the OWASP category."
      : "Must be an OWASP category code from 41 to 50.",
});
