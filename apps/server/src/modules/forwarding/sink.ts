import type { ReportEventSink } from "../reports/events.ts";
import { reportPayloadOf } from "./payload.ts";
import {
  findReportSnapshot,
  findVendorComment,
  insertDeliveries,
  insertEvent,
  receivingTargets,
} from "./queries.ts";

export interface ForwardingSinkOptions {
  appUrl: string;
  now?: () => Date;
  /** Called once the event is stored: the worker runs a pass soon after the transaction commits. */
  onRecorded?: () => void;
}

/**
 * The report service's event sink (issue 8): inside the change's transaction it stores one
 * `forward_events` row with the vendor-readable snapshot and one delivery per receiving target.
 * Nothing is stored for a vendor with no target that wants the event.
 */
export function createForwardingSink({ appUrl, now = () => new Date(), onRecorded }: ForwardingSinkOptions) {
  const sink: ReportEventSink = {
    async record(event, tx) {
      const targetIds = await receivingTargets(tx, event.vendorId, event.type);
      if (targetIds.length === 0) return;
      const at = now();
      const report = await findReportSnapshot(tx, event.reportId);
      if (!report) return;
      // Only comments the vendor reads: staff-only notes never leave the platform.
      const comment =
        event.commentId === undefined
          ? undefined
          : await findVendorComment(tx, event.reportId, event.commentId);
      if (comment === null) return;
      const payload = reportPayloadOf(appUrl, event, report, comment, at);
      const eventId = await insertEvent(tx, { vendorId: event.vendorId }, event.reportId, payload, at);
      await insertDeliveries(tx, eventId, targetIds, at);
      onRecorded?.();
    },
  };
  return sink;
}
