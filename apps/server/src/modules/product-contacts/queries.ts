import type { SqlRunner } from "../../db/client.ts";

export interface ContactProductRow {
  id: number;
  platform: string;
  kind: string;
  slug: string;
  name: string;
  has_active_program: boolean;
  email: string | null;
  author: string | null;
  author_profile: string | null;
  contributors: string[] | null;
  product_url: string | null;
  directory_url: string | null;
  vendor_website_url: string | null;
}

export interface ContactChangeRow {
  email: string | null;
  previous_email: string | null;
  changed_by: string | null;
  changed_at: Date | string;
}

/** The SQL of the product contacts (issue 19): a product's routes to its vendor and the audit trail. */
export function createProductContactQueries(sql: SqlRunner) {
  return {
    async findProduct(id: number, tx: SqlRunner = sql, lock = false): Promise<ContactProductRow | null> {
      const { rows } = await tx.query<ContactProductRow>(
        `select p.id, pl.slug as platform, p.kind, p.slug, p.name,
           (p.vendor_id is not null and p.is_active) as has_active_program,
           p.vendor_contact_email as email, p.author, p.author_profile, p.contributors, p.product_url, p.directory_url, p.vendor_website_url
         from products p join platforms pl on pl.id = p.platform_id
         where p.id = $1${lock ? " for update of p" : ""}`,
        [id],
      );
      return rows[0] ?? null;
    },

    async history(productId: number): Promise<ContactChangeRow[]> {
      const { rows } = await sql.query<ContactChangeRow>(
        `select c.email, c.previous_email, u.name as changed_by, c.changed_at
         from product_contact_changes c left join users u on u.id = c.changed_by
         where c.product_id = $1 order by c.changed_at desc, c.id desc limit 50`,
        [productId],
      );
      return rows;
    },

    async setEmail(
      change: { productId: number; email: string | null; previousEmail: string | null; userId: number },
      tx: SqlRunner,
    ) {
      await tx.query("update products set vendor_contact_email = $2, updated_at = now() where id = $1", [
        change.productId,
        change.email,
      ]);
      await tx.query(
        `insert into product_contact_changes (product_id, email, previous_email, changed_by)
         values ($1, $2, $3, $4)`,
        [change.productId, change.email, change.previousEmail, change.userId],
      );
    },
  };
}
