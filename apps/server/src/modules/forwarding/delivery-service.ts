import { deliveredEventLabel } from "@pressguard/domain";
import type { Database, SqlRunner } from "../../db/client.ts";
import type { Mailer } from "../../mail/outbox.ts";
import { type ForwardPayload, isReportPayload } from "./payload.ts";
import { type ClaimedDelivery, createDeliveryQueries } from "./queries.ts";
import { headlineOf, signatureOf, WEBHOOK_USER_AGENT, webhookBodyOf } from "./webhook-body.ts";
import { postWebhook, type WebhookResult } from "./webhook-client.ts";

/** Automatic retries stop this long after the event; the delivery is then failed. */
export const GIVE_UP_AFTER_MS = 24 * 60 * 60 * 1000;
/** The longest wait between two automatic attempts. */
const MAX_BACKOFF_SECONDS = 60 * 60;
/** After this many failed deliveries in a row the target is disabled and the owners are e-mailed. */
export const MAX_CONSECUTIVE_FAILURES = 20;
const BATCH_SIZE = 10;
/**
 * Far longer than a batch takes (its sends run together, each cut at 10 s, plus the recording): no
 * other instance takes up a delivery still being sent; a crashed worker's are due again when it ends.
 */
const LEASE_SECONDS = 120;

export interface DeliveryServiceOptions {
  database: Database;
  mailer: Pick<Mailer, "enqueue">;
  appUrl: string;
  allowLoopback: boolean;
  retryBaseSeconds: number;
  /** The webhook timeout (10 s unless a test shortens it). */
  timeoutMs?: number;
  now?: () => Date;
  /** A delivery that failed before its attempt was recorded (its lease runs out, it is taken up again). */
  onError?: (error: unknown) => void;
}

/** Seconds to wait after the `attempts`-th failed attempt: base · 2^(attempts−1), capped at 1 h. */
export function backoffSeconds(retryBaseSeconds: number, attempts: number): number {
  return Math.min(MAX_BACKOFF_SECONDS, retryBaseSeconds * 2 ** Math.max(0, attempts - 1));
}

const toDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

/**
 * The delivery queue of every owner's targets (a vendor's, a watchlist's), run by
 * jobs/forwarding-worker.ts: claims due deliveries in one short statement (FOR UPDATE SKIP LOCKED plus
 * a lease, so several instances never send one twice and a crashed one's work is taken up again),
 * sends each webhook OUTSIDE any transaction, then records the attempt, the delivery's status and the
 * target's failure count in a short transaction of its own; an e-mail target's mail is queued in that
 * transaction. After MAX_CONSECUTIVE_FAILURES in a row a target is switched off and its owners are
 * e-mailed.
 */
export function createDeliveryService(options: DeliveryServiceOptions) {
  const { database, mailer, appUrl } = options;
  const now = options.now ?? (() => new Date());
  const queries = createDeliveryQueries(database.sql);
  const forwardingPage = `${appUrl}/vdp/account/forward-reports`;

  async function sendWebhook(delivery: ClaimedDelivery, sentAt: Date): Promise<WebhookResult> {
    const body = webhookBodyOf(delivery.payload, delivery.format);
    const unixSeconds = Math.floor(sentAt.getTime() / 1000);
    return postWebhook({
      url: delivery.url ?? "",
      body,
      allowLoopback: options.allowLoopback,
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      headers: {
        "Content-Type": "application/json",
        "User-Agent": WEBHOOK_USER_AGENT,
        "X-Pressguard-Event": delivery.event_type,
        "X-Pressguard-Delivery": String(delivery.id),
        "X-Pressguard-Event-Id": delivery.event_uuid,
        "X-Pressguard-Signature": signatureOf(delivery.secret ?? "", unixSeconds, body),
      },
    });
  }

  /**
   * An e-mail target is delivered once the mail is queued (the mail outbox retries SMTP itself). The
   * mail is queued in the transaction that records the attempt, so a fault between the two can neither
   * lose the record nor queue the mail twice when the lease runs out. Returns null once recorded, or
   * the failed attempt to record when the mail could not be queued.
   */
  async function queueMail(delivery: ClaimedDelivery, sentAt: Date): Promise<WebhookResult | null> {
    const started = performance.now();
    const { payload } = delivery;
    // E-mail targets are a vendor's: the watchlists' alerts are mailed by their own job.
    if (!isReportPayload(payload))
      return { statusCode: null, succeeded: false, latencyMs: 0, excerpt: "Not sent: not a report event." };
    try {
      await database.sql.transaction(async (tx) => {
        await mailer.enqueue(
          delivery.email ?? "",
          {
            template: "forwarded_report_event",
            vendorName: delivery.vendor_name ?? "",
            headline: headlineOf(payload),
            lines: webhookLines(delivery.event_type, payload),
            url: payload.report.url,
          },
          tx,
        );
        const queued = {
          statusCode: null,
          succeeded: true,
          latencyMs: Math.round(performance.now() - started),
          excerpt: "Queued for e-mail delivery.",
        };
        await record(tx, delivery, sentAt, queued);
      });
      return null;
    } catch (error) {
      return {
        statusCode: null,
        succeeded: false,
        latencyMs: Math.round(performance.now() - started),
        excerpt: error instanceof Error ? error.message.slice(0, 1000) : "The e-mail could not be queued.",
      };
    }
  }

  function webhookLines(eventType: string, { report, comment }: ForwardPayload): string[] {
    return [
      `${deliveredEventLabel(eventType)} for ${report.product.name}: "${report.title}".`,
      `State: ${report.state.from ?? "—"} → ${report.state.to}.`,
      ...(report.severity
        ? [`Severity: ${report.severity}${report.cvss.score !== null ? ` (CVSS ${report.cvss.score})` : ""}.`]
        : []),
      ...(report.fix_deadline_at ? [`Fix deadline: ${report.fix_deadline_at.slice(0, 10)} (UTC).`] : []),
      ...(comment ? [`Comment: ${comment.body}`] : []),
    ];
  }

  /** Why a claimed delivery is not sent at all, if so. */
  function refusalOf(delivery: ClaimedDelivery): string | null {
    if (delivery.target_status !== "active") return "Not sent: the target is not active.";
    // A vendor's webhooks are a premium feature; a watchlist's are anyone's.
    if (delivery.kind === "webhook" && delivery.vendor_id !== null && delivery.plan !== "premium")
      return "Not sent: webhooks need the premium plan.";
    return null;
  }

  async function deliver(delivery: ClaimedDelivery): Promise<void> {
    const refusal = refusalOf(delivery);
    const sentAt = now();
    let result: WebhookResult;
    if (refusal) result = { statusCode: null, succeeded: false, latencyMs: 0, excerpt: refusal };
    else if (delivery.kind === "webhook") result = await sendWebhook(delivery, sentAt);
    else {
      const failed = await queueMail(delivery, sentAt);
      if (!failed) return;
      result = failed;
    }
    const outcome = result;
    const disabled = await database.sql.transaction((tx) => record(tx, delivery, sentAt, outcome, refusal));
    if (disabled) await mailOwners(delivery);
  }

  /**
   * Records an attempt: the delivery finished, or rescheduled with backoff, and the target's failure
   * streak. Returns whether this failure switched the target off.
   */
  async function record(
    tx: SqlRunner,
    delivery: ClaimedDelivery,
    sentAt: Date,
    result: WebhookResult,
    refusal: string | null = null,
  ): Promise<boolean> {
    const at = now();
    await queries.insertAttempt(tx, delivery.id, sentAt, result);
    if (result.succeeded) {
      await queries.finish(tx, delivery.id, "succeeded", at);
      await queries.resetFailures(tx, delivery.target_id);
      return false;
    }
    const next = new Date(at.getTime() + backoffSeconds(options.retryBaseSeconds, delivery.attempts) * 1000);
    const giveUpAt = toDate(delivery.event_created_at).getTime() + GIVE_UP_AFTER_MS;
    if (refusal || delivery.manual || next.getTime() > giveUpAt)
      await queries.finish(tx, delivery.id, "failed", at);
    else await queries.reschedule(tx, delivery.id, next);
    if (refusal || delivery.manual) return false;
    const failures = await queries.countFailure(tx, delivery.target_id);
    if (failures < MAX_CONSECUTIVE_FAILURES) return false;
    return queries.disableAfterFailures(
      tx,
      delivery.target_id,
      `Switched off after ${MAX_CONSECUTIVE_FAILURES} failed deliveries in a row.`,
      at,
    );
  }

  async function mailOwners(delivery: ClaimedDelivery) {
    const target = delivery.kind === "webhook" ? (delivery.url ?? "") : (delivery.email ?? "");
    const reason = `${MAX_CONSECUTIVE_FAILURES} deliveries in a row failed.`;
    if (delivery.watchlist_id !== null) {
      const watchlistId = delivery.watchlist_id;
      for (const owner of await queries.ownersOf({ watchlistId }))
        await mailer.enqueue(owner.email, {
          template: "watchlist_webhook_disabled",
          name: owner.name,
          target,
          reason,
          url: `${appUrl}/watchlists/${watchlistId}`,
        });
      return;
    }
    // A target has one owner (the table's check constraint): no watchlist, so a vendor.
    const vendorId = delivery.vendor_id;
    if (vendorId === null) throw new Error(`Forward target ${delivery.target_id} has no owner`);
    for (const owner of await queries.ownersOf({ vendorId })) {
      await mailer.enqueue(owner.email, {
        template: "forwarding_target_disabled",
        name: owner.name,
        vendorName: delivery.vendor_name ?? "",
        target,
        reason,
        url: forwardingPage,
      });
    }
  }

  return {
    /**
     * One batch: claims due deliveries and attempts them; answers how many were claimed (0: nothing
     * is due, or what is due is another instance's).
     */
    async attemptDue(): Promise<number> {
      const claimed = await queries.claim(now(), LEASE_SECONDS, BATCH_SIZE);
      // The batch is sent at once, so a slow or hanging receiver holds up only its own deliveries, not
      // every other vendor's. A claimed batch is finished even while stopping: each send is bounded.
      await Promise.all(
        claimed.map((delivery) =>
          deliver(delivery).catch((error: unknown) => {
            // The lease runs out and the delivery is taken up again.
            options.onError?.(error);
          }),
        ),
      );
      return claimed.length;
    },
  };
}
