import type { SqlRunner } from "../../db/client.ts";

export interface NewReport {
  productId: number;
  researcherId: number;
  submittedByUserId: number;
  reporterEmail: string | null;
  title: string;
  affectedVersionPrefix: string;
  affectedVersion: string;
  typeCode: number;
  owaspCode: number;
  requiredPrivilege: number;
  description: string;
  stepsToReproduce: string;
  proofOfConcept: string;
  suggestedFix: string | null;
  reportedCvssVector: string | null;
  possibleDuplicateOf: string | null;
  possibleDuplicateOfVulnerability: string | null;
}

/** What a submission reads and writes: the reporter's account and profile, the product, the report. */
export function createSubmissionQueries(sql: SqlRunner) {
  return {
    async findUserByEmail(email: string, tx: SqlRunner = sql) {
      const { rows } = await tx.query<{ id: number; name: string }>(
        "select id, name from users where email = $1",
        [email],
      );
      return rows[0] ?? null;
    },

    /** A magic-link-only account (no password) for a signed-out reporter; null when the e-mail is taken. */
    async createPasswordlessUser(name: string, email: string, tx: SqlRunner = sql): Promise<number | null> {
      const { rows } = await tx.query<{ id: number }>(
        `insert into users (name, email, password_hash) values ($1, $2, null)
         on conflict (email) do nothing returning id`,
        [name, email],
      );
      return rows[0]?.id ?? null;
    },

    /** The user's researcher profile, created when missing. */
    async ensureResearcher(userId: number, displayName: string, tx: SqlRunner = sql): Promise<number> {
      // Two first reports of one account at once must not make it two profiles (no unique key on user_id).
      await tx.query("select pg_advisory_xact_lock(7007, $1::int)", [userId]);
      const found = await tx.query<{ id: number }>(
        "select id from researchers where user_id = $1 order by id limit 1",
        [userId],
      );
      if (found.rows[0]) return found.rows[0].id;
      const { rows } = await tx.query<{ id: number }>(
        "insert into researchers (display_name, user_id) values ($1, $2) returning id",
        [displayName, userId],
      );
      return rows[0]!.id;
    },

    /** The vendor behind an embed's public key. */
    async embedVendor(publicKey: string): Promise<{ id: number; vendor_name: string } | null> {
      const { rows } = await sql.query<{ id: number; vendor_name: string }>(
        "select id, vendor_name from vendors where public_key = $1",
        [publicKey.toLowerCase()],
      );
      return rows[0] ?? null;
    },

    /** Whether kind + slug (any case, as the submission finds it) is an active program of the vendor. */
    async isActiveProgramOf(vendorId: number, kind: string, slug: string): Promise<boolean> {
      const { rows } = await sql.query(
        `select 1 from products p join platforms pl on pl.id = p.platform_id
         where pl.slug = 'wordpress' and p.vendor_id = $1 and p.is_active and p.kind = $2
           and lower(p.slug) = lower($3) limit 1`,
        [vendorId, kind, slug],
      );
      return rows.length > 0;
    },

    /**
     * The product for kind + slug on the WordPress platform: the exact slug, else one differing only
     * in case (imported premium slugs keep their capitals); an unknown one becomes a lobby product
     * with a lower-case slug.
     */
    async findOrCreateProduct(
      product: { kind: string; slug: string; name: string },
      tx: SqlRunner = sql,
    ): Promise<{ id: number; created: boolean }> {
      const find = async (slug: string) => {
        // The exact slug uses the unique index; only an unknown one pays for the case-insensitive scan.
        for (const match of ["p.slug = $2", "lower(p.slug) = lower($2)"]) {
          const { rows } = await tx.query<{ id: number }>(
            `select p.id from products p join platforms pl on pl.id = p.platform_id
             where pl.slug = 'wordpress' and p.kind = $1 and ${match} order by p.id limit 1`,
            [product.kind, slug],
          );
          if (rows[0]) return rows[0].id;
        }
        return null;
      };
      const existing = await find(product.slug);
      if (existing !== null) return { id: existing, created: false };
      const inserted = await tx.query<{ id: number }>(
        `insert into products (platform_id, kind, slug, name, is_lobby_product)
         select id, $1, lower($2), $3, true from platforms where slug = 'wordpress'
         on conflict (platform_id, kind, slug) do nothing returning id`,
        [product.kind, product.slug, product.name],
      );
      if (inserted.rows[0]) return { id: inserted.rows[0].id, created: true };
      // Created by a concurrent submission.
      const raced = await find(product.slug);
      if (raced === null) throw new Error("the wordpress platform row is missing");
      return { id: raced, created: false };
    },

    /** The oldest open or published report on the product with the same type: a likely duplicate. */
    async findPossibleDuplicate(
      productId: number,
      typeCode: number,
      states: readonly string[],
      tx: SqlRunner = sql,
    ): Promise<string | null> {
      const { rows } = await tx.query<{ id: string }>(
        `select id::text from reports where product_id = $1 and type_code = $2 and status = any($3::text[])
         order by created_at, id limit 1`,
        [productId, typeCode, states],
      );
      return rows[0]?.id ?? null;
    },

    async insertReport(report: NewReport, tx: SqlRunner = sql): Promise<string> {
      const { rows } = await tx.query<{ id: string }>(
        `insert into reports (product_id, researcher_id, submitted_by_user_id, reporter_email, title,
           affected_version_prefix, affected_version, type_code, owasp_code, required_privilege, description,
           steps_to_reproduce, proof_of_concept, suggested_fix, reported_cvss_vector, possible_duplicate_of,
           possible_duplicate_of_vulnerability_id)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) returning id::text`,
        [
          report.productId,
          report.researcherId,
          report.submittedByUserId,
          report.reporterEmail,
          report.title,
          report.affectedVersionPrefix,
          report.affectedVersion,
          report.typeCode,
          report.owaspCode,
          report.requiredPrivilege,
          report.description,
          report.stepsToReproduce,
          report.proofOfConcept,
          report.suggestedFix,
          report.reportedCvssVector,
          report.possibleDuplicateOf,
          report.possibleDuplicateOfVulnerability,
        ],
      );
      return rows[0]!.id;
    },
  };
}
