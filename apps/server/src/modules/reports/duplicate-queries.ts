import { DUPLICATE_CANDIDATE_REPORT_STATES } from "@pressguard/domain";
import type { SqlRunner } from "../../db/client.ts";

export interface RecordRangeRow {
  id: string;
  slug: string;
  title: string;
  type_code: number | null;
  dated: Date | string | null;
  introduced: string | null;
  introduced_inclusive: boolean;
  fixed: string | null;
  last_affected: string | null;
  prefix: string;
  version: string;
}

export interface OtherReportRow {
  id: string;
  title: string;
  status: string;
  type_code: number | null;
  affected_version_prefix: string | null;
  affected_version: string | null;
  created_at: Date | string;
}

/** The product's published records and other reports, by the product_id indexes (issue 19). */
export function createDuplicateQueries(sql: SqlRunner) {
  return {
    /** Every range of a record affecting the product (affected_ranges_product_idx). */
    async recordRanges(productId: number, tx: SqlRunner = sql): Promise<RecordRangeRow[]> {
      const { rows } = await tx.query<RecordRangeRow>(
        `select v.id::text, v.slug, v.title, v.type_code, coalesce(v.published_at, v.created_at) as dated,
           ar.introduced, ar.introduced_inclusive, ar.fixed, ar.last_affected, ar.prefix, ar.version
         from affected_ranges ar join vulnerabilities v on v.id = ar.vulnerability_id
         where ar.product_id = $1`,
        [productId],
      );
      return rows;
    },

    /** The product's other open or published reports not yet a record (reports_product_status_idx). */
    async otherReports(productId: number, exceptId: string | null, tx: SqlRunner = sql) {
      const { rows } = await tx.query<OtherReportRow>(
        `select id::text, title, status, type_code, affected_version_prefix, affected_version, created_at
         from reports where product_id = $1 and status = any($2::text[]) and vulnerability_id is null
           and ($3::uuid is null or id <> $3::uuid)`,
        [productId, DUPLICATE_CANDIDATE_REPORT_STATES, exceptId],
      );
      return rows;
    },

    /** A record affecting the product, or a report on it (the target of "duplicate of"). */
    async recordOnProduct(vulnerabilityId: string, productId: number, tx: SqlRunner = sql) {
      const { rows } = await tx.query<{ on_product: boolean }>(
        `select exists (select 1 from affected_ranges where vulnerability_id = $1 and product_id = $2)
           or exists (select 1 from vulnerabilities where id = $1 and product_id = $2) as on_product
         from vulnerabilities where id = $1`,
        [vulnerabilityId, productId],
      );
      return rows[0] ? rows[0].on_product : null;
    },

    async reportProduct(reportId: string, tx: SqlRunner = sql): Promise<number | null> {
      const { rows } = await tx.query<{ product_id: number }>(
        "select product_id from reports where id = $1",
        [reportId],
      );
      return rows[0]?.product_id ?? null;
    },
  };
}
