import type { SqlRunner } from "../../db/client.ts";

/** What the vendor's report form embed reads: the vendor behind its key and its active programs. */
export function createEmbedQueries(sql: SqlRunner) {
  return {
    async findVendorByKey(publicKey: string) {
      const { rows } = await sql.query<{ id: number; vendor_name: string; url: string | null }>(
        "select id, vendor_name, url from vendors where public_key = $1",
        [publicKey],
      );
      return rows[0] ?? null;
    },

    async listActivePrograms(vendorId: number) {
      const { rows } = await sql.query<{
        id: number;
        kind: string;
        slug: string;
        name: string;
        vendor_website_url: string | null;
      }>(
        `select id, kind, slug, name, vendor_website_url from products
         where vendor_id = $1 and is_active order by lower(name), id`,
        [vendorId],
      );
      return rows;
    },
  };
}
