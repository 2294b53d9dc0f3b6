import type { ForwardEventType, ReportState } from "@pressguard/domain";
import type { SqlRunner } from "../../db/client.ts";

/**
 * A report event for the vendor that owns the report's product (issue 8: report forwarding). Raised
 * only for reports on a product with an active program, and only once the vendor may read the report.
 */
export interface ReportEvent {
  type: Exclude<ForwardEventType, "report.test">;
  vendorId: number;
  reportId: string;
  /** The lifecycle action or job that caused it (`validate`, `submit_fix`, `comment`, `deadline_near`…). */
  action: string;
  fromState: ReportState;
  toState: ReportState;
  /** The comment of a `report.comment_added` event. */
  commentId?: number;
}

/**
 * Where the report service records its events: inside the transaction of the change they tell of
 * (the outbox pattern), so an event is never lost nor told of a change that was rolled back.
 */
export interface ReportEventSink {
  record(event: ReportEvent, tx: SqlRunner): Promise<void>;
}
