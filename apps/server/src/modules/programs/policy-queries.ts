import type { SqlRunner } from "../../db/client.ts";

/** The SQL of a program's policy (policy.ts): read with what its template is made from, and saved. */

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

export interface PolicyRow extends PolicySource {
  is_active: boolean;
  policy_updated_at: Date | string | null;
  support_ends_on: string | null;
}

/** The columns of {@link PolicyRow}, from `products p` joined to `vendors vd`. */
const POLICY_COLUMNS = `
  p.kind, p.slug, p.name, p.version, p.fix_deadline_days, vd.vendor_name, p.policy_markdown,
  p.security_contact_email, p.vendor_contact_email, vd.contact_email as vendor_account_email,
  to_char(p.support_ends_on, 'YYYY-MM-DD') as support_ends_on, p.policy_updated_at`;

/** The policy of the vendor's program `id`, or undefined when the vendor has no such program. */
export async function findPolicyRow(
  sql: SqlRunner,
  vendorId: number,
  id: number,
): Promise<PolicyRow | undefined> {
  const { rows } = await sql.query<PolicyRow>(
    `select p.is_active, ${POLICY_COLUMNS}
     from products p join vendors vd on vd.id = p.vendor_id
     where p.id = $1 and p.vendor_id = $2`,
    [id, vendorId],
  );
  return rows[0];
}

/** Saves the policy (null: the generated one), its single point of contact and support period; a new text is dated. */
export async function savePolicy(
  tx: SqlRunner,
  vendorId: number,
  id: number,
  policy: { markdown: string | null; securityContactEmail: string | null; supportEndsOn: string | null },
): Promise<void> {
  await tx.query(
    `update products set
       policy_updated_at = case when policy_markdown is distinct from $3 then now() else policy_updated_at end,
       policy_markdown = $3, security_contact_email = $4, support_ends_on = $5::date, updated_at = now()
     where id = $1 and vendor_id = $2`,
    [id, vendorId, policy.markdown, policy.securityContactEmail, policy.supportEndsOn],
  );
}
