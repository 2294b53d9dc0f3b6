import { z } from "zod";
import { EMAIL_MESSAGE } from "./fields.ts";

/**
 * A program's coordinated vulnerability disclosure policy, single point of contact and support
 * period (issue 20, Cyber Resilience Act Art. 13), and the notices a vendor sends its product's
 * users (Art. 14(8)).
 */

export const POLICY_MAX_LENGTH = 20_000;
export const CONTACT_EMAIL_MAX_LENGTH = 254;
export const NOTICE_MIN_LENGTH = 20;
export const NOTICE_MAX_LENGTH = 5_000;
/** Notices a program may send in a rolling day: enough for an incident, not a mailing list. */
export const NOTICES_PER_DAY = 5;

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_MESSAGE = "Enter the date as YYYY-MM-DD, for example 2028-12-31.";

/** A real calendar day between 2000 and 2199, written YYYY-MM-DD. */
export function isIsoDay(value: string): boolean {
  const match = ISO_DAY.exec(value);
  if (!match) return false;
  const year = Number(match[1]);
  const date = new Date(`${value}T00:00:00Z`);
  return year >= 2000 && year < 2200 && !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

const blankToNull = (value: string | null | undefined) =>
  value === undefined || value === null || value === "" ? null : value;

export const ProgramPolicyBody = z.object({
  /** Blank or missing: the generated policy (the template) is published. */
  policy_markdown: z
    .string({ error: "The policy must be text." })
    .trim()
    .max(POLICY_MAX_LENGTH, { error: "The policy must be at most 20,000 characters." })
    .nullish()
    .transform(blankToNull),
  /** Blank or missing: the program's vendor contact e-mail. */
  security_contact_email: z
    .string({ error: EMAIL_MESSAGE })
    .trim()
    .max(CONTACT_EMAIL_MAX_LENGTH, { error: "The e-mail address must be at most 254 characters." })
    .nullish()
    .transform(blankToNull)
    .pipe(z.email({ error: EMAIL_MESSAGE }).nullable()),
  /** Blank or missing: no support period declared. */
  support_ends_on: z
    .string({ error: DATE_MESSAGE })
    .trim()
    .nullish()
    .transform(blankToNull)
    .pipe(z.string().refine(isIsoDay, { error: DATE_MESSAGE }).nullable()),
});
export type ProgramPolicyBody = z.infer<typeof ProgramPolicyBody>;
export type ProgramPolicyInput = z.input<typeof ProgramPolicyBody>;

export const ProductUserNoticeBody = z.object({
  message: z
    .string({ error: "Write a message to the users." })
    .trim()
    .min(NOTICE_MIN_LENGTH, {
      error: `Write at least ${NOTICE_MIN_LENGTH} characters: what is affected and what to do.`,
    })
    .max(NOTICE_MAX_LENGTH, { error: "The message must be at most 5,000 characters." }),
  /** One of the program's reports the notice is about; blank or missing: none. */
  report_id: z
    .string()
    .trim()
    .nullish()
    .transform(blankToNull)
    .pipe(z.uuid({ error: "Choose one of this program's reports, or none." }).nullable()),
});
export type ProductUserNoticeBody = z.infer<typeof ProductUserNoticeBody>;

/** What the generated policy is made from. */
export interface PolicyTemplateValues {
  siteName: string;
  productName: string;
  /** plugin, theme or core. */
  kind: string;
  slug: string;
  version: string | null;
  vendorName: string;
  fixDeadlineDays: number;
}

/** Characters that would change the meaning of a name in Markdown. */
const escapeMarkdown = (value: string) => value.replace(/([\\`*_[\]{}<>()#+!|~])/g, "\\$1");

/**
 * The generated coordinated vulnerability disclosure policy (PRODUCT.md §4): scope, how to report,
 * the fix deadline, safe harbour and coordinated disclosure. The vendor edits it from here.
 */
export function policyTemplate(values: PolicyTemplateValues): string {
  const site = escapeMarkdown(values.siteName);
  const name = escapeMarkdown(values.productName);
  const vendor = escapeMarkdown(values.vendorName);
  const kind = values.kind === "core" ? "core" : values.kind;
  const release = values.version ? ` (${escapeMarkdown(values.version)})` : "";
  return [
    "## Scope",
    "",
    `The WordPress ${kind} **${name}** (slug \`${values.slug}\`), all versions, including the current release${release}. Issues in WordPress core, in other plugins or themes, or in hosting are out of scope: report them to their own vendors.`,
    "",
    "## How to report",
    "",
    `Use the report form for ${name} on ${site}: it is already filled in with the product, and asks for the affected versions, a description and the steps to reproduce. Please do not report through public channels such as the WordPress.org support forum.`,
    "",
    "## Fix deadline",
    "",
    `${site} checks each report and notifies the vendor. ${vendor} commits to releasing a fix within **${values.fixDeadlineDays} days** of being notified, and to keeping the reporter informed of the progress.`,
    "",
    "## Safe harbour",
    "",
    `${vendor} will not take legal action against researchers who act in good faith under this policy: who test only their own installations, do not access, change or keep other people's data, avoid harming the service or its users, and give the vendor the time above to fix the issue before disclosing it.`,
    "",
    "## Coordinated disclosure",
    "",
    `Once a fix is released, or the deadline has passed, the vulnerability is published in the ${site} vulnerability database with credit to the researcher. Please keep the details private until then.`,
    "",
  ].join("\n");
}

/** "31 December 2028": how the support period's end is written for people (UTC, the date as declared). */
export function formatSupportEnd(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  });
}
