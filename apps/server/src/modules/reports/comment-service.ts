import type { ReportActor, ReportDetail } from "@pressguard/domain";
import { AppError } from "../../errors.ts";
import type { RequestAuth } from "../../http/access.ts";
import type { IdempotentAttempt } from "../../http/idempotency.ts";
import type { ReportContext } from "./report-context.ts";
import type { ReportRow } from "./report-queries.ts";
import type { Viewer } from "./report-views.ts";

type NewComment = { body: string; visibility: "staff" | "vendor_researcher" };

const COMMENT_MESSAGES = {
  staffOnly: "Only staff can write staff-only comments.",
} as const;

/** A report's comments: by its readers signed in, by an e-mailed link's holder, by the PIN contact. */
export function createCommentService({
  database,
  queries,
  detailFor,
  recordEvent,
  requireReader,
  requirePinContact,
}: ReportContext) {
  /**
   * Adds a comment and answers the report as `viewer` sees it afterwards. With an idempotency key the
   * answer is stored in the comment's own transaction: a retry after a lost response gets it back and
   * never adds the comment twice.
   */
  async function insertComment(
    row: ReportRow,
    authorUserId: number | null,
    comment: NewComment,
    answer: { viewer: Viewer; actor?: ReportActor | null; idempotency: IdempotentAttempt | null },
  ): Promise<ReportDetail> {
    return database.sql.transaction(async (tx) => {
      const commentId = await queries.insertComment(
        { reportId: row.id, authorUserId, body: comment.body, visibility: comment.visibility },
        tx,
      );
      // Staff-only comments are not the vendor's to read, so they are not forwarded.
      if (comment.visibility === "vendor_researcher")
        await recordEvent(
          row,
          {
            type: "report.comment_added",
            action: "comment",
            fromState: row.status,
            toState: row.status,
            commentId,
          },
          tx,
        );
      const detail = await detailFor(row, answer.viewer, answer.actor, tx);
      await answer.idempotency?.record(tx, 201, detail);
      return detail;
    });
  }

  return {
    /**
     * A comment by the researcher, the owning vendor or staff, signed in; or by the holder of an
     * e-mail link's token, as its audience (a researcher link writes as the report's researcher, a
     * vendor link as the vendor's contact, with no author account). Only staff write staff-only ones.
     */
    async addComment(
      auth: RequestAuth | null,
      id: string,
      comment: NewComment,
      token?: string,
      idempotency: IdempotentAttempt | null = null,
    ): Promise<ReportDetail> {
      const { row, viewer, actor } = await requireReader(auth, id, token);
      if (comment.visibility === "staff" && viewer !== "staff")
        throw new AppError("forbidden", { message: COMMENT_MESSAGES.staffOnly });
      const author =
        actor === null ? (viewer === "researcher" ? row.researcher_user_id : null) : auth!.user.id;
      return insertComment(row, author, comment, { viewer, actor, idempotency });
    },

    /** POST /report-previews/{id}/comments: the PIN contact comments as the vendor (no author account). */
    async addPinComment(
      id: string,
      credential: string | undefined,
      comment: NewComment,
      idempotency: IdempotentAttempt | null = null,
    ): Promise<ReportDetail> {
      const row = await requirePinContact(id, credential);
      if (comment.visibility === "staff")
        throw new AppError("forbidden", { message: COMMENT_MESSAGES.staffOnly });
      return insertComment(row, null, comment, { viewer: "vendor", actor: "pin_contact", idempotency });
    },
  };
}
