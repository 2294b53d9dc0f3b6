import { z } from "zod";
import type { PLANS } from "./plans-values.ts";

// The list and its lookups live apart from the schema, so a page that renders them loads no zod (issue 35).
export { PLANS, planByValue } from "./plans-values.ts";

export type Plan = (typeof PLANS)[number]["value"];

export const Plan = z.enum(["free", "premium", "both"]);
