import { z } from "zod";
import type { SEVERITIES } from "./severity-values.ts";

// The list and its lookups live apart from the schema, so a page that renders them loads no zod (issue 35).
export { SEVERITIES, severityByValue, severityFromScore } from "./severity-values.ts";

export type Severity = (typeof SEVERITIES)[number]["value"];

export const Severity = z.enum(["none", "low", "medium", "high", "critical"]);
