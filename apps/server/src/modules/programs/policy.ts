import { type ProgramPolicy, ProgramPolicyBody, policyTemplate } from "@pressguard/domain";
import type { SqlRunner } from "../../db/client.ts";
import { bumpDataVersion } from "../../db/data-version.ts";
import { isoOrNull } from "../../db/timestamps.ts";
import { AppError, validationErrorOf } from "../../errors.ts";
import { findPolicyRow, type PolicyRow, type PolicySource, savePolicy } from "./policy-queries.ts";
import { PROGRAM_NOT_FOUND, type ProgramParts } from "./rules.ts";

/**
 * A program's disclosure policy, single point of contact and support period (issue 20, CRA
 * Art. 13): what the vendor edits, and the published values the policy page and security.txt show.
 */

const templateOf = (source: PolicySource, siteName: string) =>
  policyTemplate({
    siteName,
    productName: source.name,
    kind: source.kind,
    slug: source.slug,
    version: source.version,
    vendorName: source.vendor_name,
    fixDeadlineDays: source.fix_deadline_days,
  });

/** The policy published: the vendor's text, else the generated one. */
export const publishedPolicyOf = (source: PolicySource, siteName: string) =>
  source.policy_markdown ?? templateOf(source, siteName);

type ContactSource = Pick<
  PolicySource,
  "security_contact_email" | "vendor_contact_email" | "vendor_account_email"
>;

/** The contact when the vendor named no single point of contact: the program's, then the account's. */
const defaultContactOf = (source: ContactSource) =>
  source.vendor_contact_email ?? source.vendor_account_email;

/** The single point of contact published (security.txt's Contact, the policy page). */
export const securityContactOf = (source: ContactSource) =>
  source.security_contact_email ?? defaultContactOf(source);

async function findPolicy(sql: SqlRunner, vendorId: number, id: number): Promise<PolicyRow> {
  const row = await findPolicyRow(sql, vendorId, id);
  if (!row) throw new AppError("not_found", { message: PROGRAM_NOT_FOUND });
  return row;
}

export function createProgramPolicy(options: Pick<ProgramParts, "database" | "onPublicChange" | "siteName">) {
  const { database } = options;
  const siteName = options.siteName ?? "Pressguard";

  const answerOf = (row: PolicyRow): ProgramPolicy => ({
    policy_markdown: row.policy_markdown,
    template: templateOf(row, siteName),
    policy_updated_at: isoOrNull(row.policy_updated_at),
    security_contact_email: row.security_contact_email,
    default_contact_email: defaultContactOf(row),
    support_ends_on: row.support_ends_on,
  });

  return {
    async getPolicy(vendorId: number, id: number): Promise<ProgramPolicy> {
      return answerOf(await findPolicy(database.sql, vendorId, id));
    },

    async updatePolicy(vendorId: number, id: number, input: unknown): Promise<ProgramPolicy> {
      const parsed = ProgramPolicyBody.safeParse(input);
      if (!parsed.success) throw validationErrorOf(parsed.error.issues);
      const body = parsed.data;
      await database.sql.transaction(async (tx) => {
        const current = await findPolicy(tx, vendorId, id);
        // The template unchanged stays "the generated policy": it then follows the program's values.
        const template = templateOf(current, siteName).trim();
        const markdown = body.policy_markdown === template ? null : body.policy_markdown;
        await savePolicy(tx, vendorId, id, {
          markdown,
          securityContactEmail: body.security_contact_email,
          supportEndsOn: body.support_ends_on,
        });
        if (current.is_active) await bumpDataVersion(tx);
      });
      await options.onPublicChange?.();
      return answerOf(await findPolicy(database.sql, vendorId, id));
    },
  };
}
