import { z } from "zod";
import { isNothingChosen } from "./nothing-chosen.ts";
import { WORDPRESS_ROLES, type WordPressRole } from "./roles-values.ts";

// The list and its lookups live apart from the schema, so a page that renders them loads no zod (issue 35).
export { WORDPRESS_ROLES, type WordPressRole, wordPressRoleByCode } from "./roles-values.ts";

export type WordPressRoleCode = WordPressRole["code"];

export const WordPressRoleCode = z.literal(WORDPRESS_ROLES.map((role) => role.code) as WordPressRoleCode[], {
  error: (issue) =>
    isNothingChosen(issue.input)
      ? "Choose the role an attacker needs."
      : "Must be a WordPress role code from 1 to 9.",
});
