import { z } from "zod";
import { Plan } from "../enums/plans.ts";
import { SoftwareType } from "../enums/software-types.ts";
import { optionalEmail, optionalText, requiredSlug, requiredText, requiredUrl } from "./fields.ts";

export const KIND_MESSAGE = "Kind must be plugin or theme.";
export const PLAN_MESSAGE = "Plan must be free, premium (Paid) or both.";

/**
 * A program (software item) as a vendor creates or edits it (spec §3 "Program (software item) list
 * entry", validation §5 with its exact messages).
 */
export const Program = z.object({
  kind: z.enum(SoftwareType.options, { error: KIND_MESSAGE }),
  version: optionalText(),
  name: requiredText("Software name is required."),
  product_url: requiredUrl("Software URL is required."),
  description: optionalText(),
  dependencies: optionalText(),
  vendor_contact_email: optionalEmail(),
  slug: requiredSlug("Slug is required."),
  vendor_website_url: requiredUrl("Website URL is required."),
  /** The software's plan: free, premium (labelled Paid) or both (a free version and a paid one). */
  plan: z.enum(Plan.options, { error: PLAN_MESSAGE }).default("free"),
});

/** The Program fields in the order of spec §3, plus the plan: the CSV template's header. */
export const PROGRAM_FIELDS = [
  "kind",
  "version",
  "name",
  "product_url",
  "description",
  "dependencies",
  "vendor_contact_email",
  "slug",
  "vendor_website_url",
  "plan",
] as const satisfies readonly (keyof Program)[];
export type Program = z.infer<typeof Program>;
export type ProgramInput = z.input<typeof Program>;
