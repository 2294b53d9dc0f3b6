import {
  isUuid,
  type ReportActor,
  type ReportDetail,
  VENDOR_VISIBLE_REPORT_STATES,
} from "@pressguard/domain";
import type { Database, SqlRunner } from "../../db/client.ts";
import { AppError } from "../../errors.ts";
import type { RequestAuth } from "../../http/access.ts";
import { createAttachmentQueries } from "./attachment-queries.ts";
import { FIX_UPLOAD_MESSAGES } from "./attachments.ts";
import type { ReportEvent, ReportEventSink } from "./events.ts";
import type { PreviewTokens } from "./preview-tokens.ts";
import { createReportQueries, type ReportRow } from "./report-queries.ts";
import { detailOf, type Viewer } from "./report-views.ts";

/** What every part of the report service shares: finding a report, who reads it, its answer, its events. */

export const REPORT_NOT_FOUND = "Report not found.";

const PIN_CREDENTIAL_MESSAGE = "Enter the PIN from the e-mail to open this report.";

/** A report id in a path: a malformed one names no report (and never reaches SQL as a bad uuid). */
export function reportIdOf(value: string): string {
  if (!isUuid(value)) throw new AppError("not_found", { message: REPORT_NOT_FOUND });
  return value.toLowerCase();
}

const isStaff = (auth: RequestAuth) => auth.user.is_staff && auth.user.two_factor_enabled;

export function viewerOf(auth: RequestAuth, row: ReportRow): Viewer | null {
  if (isStaff(auth)) return "staff";
  // `researcher` is null for an API key without that scope (`userWithin`), as `vendor` is.
  if (auth.user.researcher && row.researcher_user_id === auth.user.id) return "researcher";
  if (
    auth.user.vendor &&
    row.product_vendor_id === auth.user.vendor.id &&
    VENDOR_VISIBLE_REPORT_STATES.includes(row.status)
  )
    return "vendor";
  return null;
}

/** Whether the product has a vendor with an active program (else the PIN flow reaches its contact). */
export const hasActiveProgram = (row: ReportRow) => row.product_vendor_id !== null && row.product_is_active;

export interface ReportContextOptions {
  database: Database;
  /** Signs and checks preview links and the PIN credential (PREVIEW_TOKEN_KEY). */
  previewTokens: PreviewTokens;
  /** Report forwarding: told of every event for the owning vendor, inside the change's transaction. */
  events?: ReportEventSink;
}

export function createReportContext({ database, previewTokens, events }: ReportContextOptions) {
  const queries = createReportQueries(database.sql);
  const attachmentQueries = createAttachmentQueries(database.sql);

  async function requireReport(id: string, tx?: SqlRunner, lock = false) {
    const row = await queries.getReport(id, tx, lock);
    if (!row) throw new AppError("not_found", { message: REPORT_NOT_FOUND });
    return row;
  }

  async function detailFor(
    row: ReportRow,
    viewer: Viewer,
    actor: ReportActor | null = viewer === "staff" ? "staff" : viewer === "vendor" ? "vendor" : null,
    tx: SqlRunner = database.sql,
  ): Promise<ReportDetail> {
    const timeline = await queries.listEvents(row.id, tx);
    const comments = await queries.listComments(
      row.id,
      viewer === "staff" ? ["staff", "vendor_researcher"] : ["vendor_researcher"],
      tx,
    );
    const attachments = await attachmentQueries.listAttachments(row.id, tx);
    return detailOf(row, viewer, timeline, comments, actor, attachments);
  }

  /**
   * Records a report event for the owning vendor (issue 8), inside `tx`. Only for a product with an
   * active program, and only for a report the vendor may read after the change.
   */
  async function recordEvent(
    row: ReportRow,
    event: Omit<ReportEvent, "vendorId" | "reportId">,
    tx: SqlRunner,
  ): Promise<void> {
    if (!events || !hasActiveProgram(row)) return;
    if (!VENDOR_VISIBLE_REPORT_STATES.includes(event.toState)) return;
    await events.record({ ...event, vendorId: row.product_vendor_id!, reportId: row.id }, tx);
  }

  /**
   * Who reads a report: a caller who may as themselves, else the holder of a genuine, unexpired
   * preview token for this very report (as its audience, with no actions). Signed out without a
   * token: 401; anyone else: 404.
   */
  async function requireReader(auth: RequestAuth | null, id: string, token: string | undefined) {
    if (!auth && token === undefined) throw new AppError("unauthenticated");
    const row = await requireReport(id);
    const viewer = auth ? viewerOf(auth, row) : null;
    if (viewer) return { row, viewer, actor: undefined };
    const claims = token === undefined ? null : previewTokens.verify(token);
    if (claims && claims.reportId === row.id) {
      if (claims.audience === "researcher") return { row, viewer: "researcher" as const, actor: null };
      if (claims.audience === "vendor" && VENDOR_VISIBLE_REPORT_STATES.includes(row.status))
        return { row, viewer: "vendor" as const, actor: null };
    }
    throw new AppError("not_found", { message: REPORT_NOT_FOUND });
  }

  /** The report behind a PIN credential (a pin_contact token for this very report), else 401/404. */
  async function requirePinContact(id: string, credential: string | undefined) {
    const claims = previewTokens.verify(credential);
    if (claims?.audience !== "pin_contact" || claims.reportId !== id)
      throw new AppError("unauthenticated", { message: PIN_CREDENTIAL_MESSAGE });
    return requireReport(id);
  }

  /**
   * The owning vendor acting on a report: signed in (its user id), or holding its e-mailed link's
   * token (no user). Staff and the researcher read the report but do not act for the vendor (403);
   * anyone else gets 404.
   */
  function vendorSideOf(auth: RequestAuth | null, row: ReportRow, token: string | undefined) {
    const viewer = auth ? viewerOf(auth, row) : null;
    if (viewer === "vendor" && auth) return { userId: auth.user.id };
    const claims = previewTokens.verify(token);
    if (
      claims?.audience === "vendor" &&
      claims.reportId === row.id &&
      VENDOR_VISIBLE_REPORT_STATES.includes(row.status)
    )
      return { userId: null };
    if (viewer) throw new AppError("forbidden", { message: FIX_UPLOAD_MESSAGES.notAllowed });
    throw new AppError("not_found", { message: REPORT_NOT_FOUND });
  }

  return {
    database,
    queries,
    previewTokens,
    requireReport,
    detailFor,
    recordEvent,
    requireReader,
    requirePinContact,
    vendorSideOf,
  };
}

export type ReportContext = ReturnType<typeof createReportContext>;
