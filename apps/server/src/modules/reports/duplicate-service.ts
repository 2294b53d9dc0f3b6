import { DUPLICATE_MESSAGES, type DuplicateCandidates } from "@pressguard/domain";
import type { SqlRunner } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import { duplicateCandidates } from "./duplicate-candidates.ts";
import { createDuplicateQueries } from "./duplicate-queries.ts";
import type { ReportContext } from "./report-context.ts";
import type { ReportRow } from "./report-queries.ts";
import { publicPathOf } from "./report-views.ts";

const invalid = (field: string, message: string) =>
  new AppError("validation", { fieldErrors: { [field]: [message] } });

/**
 * The original a report is rejected as a duplicate of (issue 19): a record affecting the same
 * product, or another report on it; 422 otherwise. Only with the reason `duplicate`.
 */
export async function duplicateTargetOf(
  row: ReportRow,
  reason: string,
  target: { duplicate_of_vulnerability_id?: string | null; duplicate_of_report_id?: string | null },
  tx: SqlRunner,
): Promise<{ duplicate_of_vulnerability_id: string | null; duplicate_of_report_id: string | null }> {
  const vulnerabilityId = target.duplicate_of_vulnerability_id?.toLowerCase() ?? null;
  const reportId = target.duplicate_of_report_id?.toLowerCase() ?? null;
  const none = { duplicate_of_vulnerability_id: null, duplicate_of_report_id: null };
  if (vulnerabilityId === null && reportId === null) return none;
  const field = vulnerabilityId ? "duplicate_of_vulnerability_id" : "duplicate_of_report_id";
  if (reason !== "duplicate") throw invalid(field, DUPLICATE_MESSAGES.onlyDuplicates);
  if (vulnerabilityId && reportId) throw invalid(field, DUPLICATE_MESSAGES.oneOriginal);
  const queries = createDuplicateQueries(tx);
  if (vulnerabilityId) {
    const onProduct = await queries.recordOnProduct(vulnerabilityId, row.product_id, tx);
    if (onProduct === null) throw invalid(field, DUPLICATE_MESSAGES.unknownRecord);
    if (!onProduct) throw invalid(field, DUPLICATE_MESSAGES.otherProduct);
    return { ...none, duplicate_of_vulnerability_id: vulnerabilityId };
  }
  if (reportId === row.id) throw invalid(field, DUPLICATE_MESSAGES.itself);
  const productId = await queries.reportProduct(reportId!, tx);
  if (productId === null) throw invalid(field, DUPLICATE_MESSAGES.unknownReport);
  if (productId !== row.product_id) throw invalid(field, DUPLICATE_MESSAGES.otherProduct);
  return { ...none, duplicate_of_report_id: reportId };
}

/** Duplicate detection for staff (issue 19): a report's possible originals. */
export function createDuplicateService({ database, requireReport }: ReportContext) {
  return {
    /** GET /staff/reports/{id}/duplicate-candidates. */
    async listDuplicateCandidates(id: string): Promise<DuplicateCandidates> {
      const row = await requireReport(id);
      const { candidates, knownCount } = await duplicateCandidates(
        database.sql,
        {
          id: row.id,
          productId: row.product_id,
          typeCode: row.type_code,
          prefix: row.affected_version_prefix,
          version: row.affected_version,
        },
        (slug) => publicPathOf(row, slug),
      );
      return { data: candidates, known_vulnerability_count: knownCount };
    },
  };
}
