import { type ProgramPolicy, ProgramPolicyBody, policyTemplate } from "@pressguard/domain";
import type { SqlRunner } from "../../db/client.ts";
import { bumpDataVersion } from "../../db/data-version.ts";
import { isoOrNull } from "../../db/timestamps.ts";
import { AppError, validationErrorOf } from "../../errors.ts";
import { PROGRAM_NOT_FOUND, type ProgramParts } from "./rules.ts";

/**
 * A program's disclosure policy, single point of contact and support period (issue 20, CRA
 * Art. 13): what the vendor edits, and the published values the policy page and security.txt show.
 */

/** What the generated policy and the published contact are made from. */
export interface PolicySource {
  kind: string;
  slug: string;
  name: string;
  version: string | null;
  fix_deadline_days: number;
  vendor_name: string;
  policy_markdown: string | null;
  security_contact_email: string | null;
  vendor_contact_email: string | null;
  /** The vendor account's contact e-mail: the last fallback of the point of contact. */
  vendor_account_email: string | null;
}

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

interface PolicyRow extends PolicySource {
  is_active: boolean;
  policy_updated_at: Date | string | null;
  support_ends_on: string | null;
}

/** The columns of {@link PolicyRow}, from `products p` joined to `vendors vd`. */
const POLICY_COLUMNS = `
  p.kind, p.slug, p.name, p.version, p.fix_deadline_days, vd.vendor_name, p.policy_markdown,
  p.security_contact_email, p.vendor_contact_email, vd.contact_email as vendor_account_email,
  to_char(p.support_ends_on, 'YYYY-MM-DD') as support_ends_on, p.policy_updated_at`;

async function findPolicy(sql: SqlRunner, vendorId: number, id: number): Promise<PolicyRow> {
  const { rows } = await sql.query<PolicyRow>(
    `select p.is_active, ${POLICY_COLUMNS}
     from products p join vendors vd on vd.id = p.vendor_id
     where p.id = $1 and p.vendor_id = $2`,
    [id, vendorId],
  );
  if (!rows[0]) throw new AppError("not_found", { message: PROGRAM_NOT_FOUND });
  return rows[0];
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
        await tx.query(
          `update products set
             policy_updated_at = case when policy_markdown is distinct from $3 then now() else policy_updated_at end,
             policy_markdown = $3, security_contact_email = $4, support_ends_on = $5::date, updated_at = now()
           where id = $1 and vendor_id = $2`,
          [id, vendorId, markdown, body.security_contact_email, body.support_ends_on],
        );
        if (current.is_active) await bumpDataVersion(tx);
      });
      await options.onPublicChange?.();
      return answerOf(await findPolicy(database.sql, vendorId, id));
    },
  };
}
