import { z } from "zod";
import { SOFTWARE_TYPES } from "./software-types-values.ts";

// The list and its lookups live apart from the schema, so a page that renders them loads no zod (issue 35).
export { SOFTWARE_TYPES, softwareTypeByValue } from "./software-types-values.ts";

export type SoftwareType = (typeof SOFTWARE_TYPES)[number]["value"];

export const SoftwareType = z.enum(
  SOFTWARE_TYPES.map((type) => type.value) as [SoftwareType, ...SoftwareType[]],
);
