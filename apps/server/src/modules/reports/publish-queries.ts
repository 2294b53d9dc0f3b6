import type { SqlRunner } from "../../db/client.ts";

/** The public record a report becomes when staff publish it (PRODUCT.md §2 "publishing"). */
export function createPublishQueries(sql: SqlRunner) {
  return {
    /** Creates or updates the public record of a published report, its range and its credit. */
    async writeVulnerability(
      record: {
        id: string;
        slug: string;
        productId: number;
        title: string;
        description: string;
        typeLabel: string | null;
        typeCode: number | null;
        owaspCode: number | null;
        requiredPrivilege: number | null;
        cvssVector: string | null;
        cvssScore: number | null;
        severity: string | null;
        cve: string | null;
        fixedIn: string | null;
        range: {
          prefix: string;
          version: string;
          introduced: string | null;
          fixed: string | null;
          lastAffected: string | null;
        };
        researcherId: number | null;
      },
      tx: SqlRunner = sql,
    ) {
      await tx.query(
        `insert into vulnerabilities (id, slug, product_id, title, description, type_label, type_code,
           owasp_code, required_privilege, cvss_vector, cvss_score, cvss_version, severity, cve, fixed_in,
           patched, published_at, source)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, case when $10::text is null then null else '3.1' end,
           $12, $13, $14, $14::text is not null, now(), 'pressguard')
         on conflict (id) do update set title = excluded.title, description = excluded.description,
           type_label = excluded.type_label, type_code = excluded.type_code, owasp_code = excluded.owasp_code,
           required_privilege = excluded.required_privilege, cvss_vector = excluded.cvss_vector,
           cvss_score = excluded.cvss_score, cvss_version = excluded.cvss_version, severity = excluded.severity,
           cve = excluded.cve, fixed_in = excluded.fixed_in, patched = excluded.patched, updated_at = now()`,
        [
          record.id,
          record.slug,
          record.productId,
          record.title,
          record.description,
          record.typeLabel,
          record.typeCode,
          record.owaspCode,
          record.requiredPrivilege,
          record.cvssVector,
          record.cvssScore,
          record.severity,
          record.cve,
          record.fixedIn,
        ],
      );
      await tx.query("delete from affected_ranges where vulnerability_id = $1", [record.id]);
      await tx.query(
        `insert into affected_ranges (vulnerability_id, product_id, position, introduced, fixed, last_affected,
           prefix, version, fixed_in)
         values ($1, $2, 0, $3, $4, $5, $6, $7, $8)`,
        [
          record.id,
          record.productId,
          record.range.introduced,
          record.range.fixed,
          record.range.lastAffected,
          record.range.prefix,
          record.range.version,
          record.fixedIn,
        ],
      );
      if (record.researcherId !== null) {
        await tx.query(
          `insert into credits (vulnerability_id, researcher_id, position, role) values ($1, $2, 0, 'finder')
           on conflict (vulnerability_id, researcher_id) do nothing`,
          [record.id, record.researcherId],
        );
      }
    },
  };
}
