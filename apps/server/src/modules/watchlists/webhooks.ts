import { randomUUID } from "node:crypto";
import {
  isUuid,
  MAX_WATCHLIST_WEBHOOKS,
  WATCHLIST_MESSAGES,
  WatchlistWebhookInput,
} from "@pressguard/domain";
import type { Database, SqlRunner } from "../../db/client.ts";
import { AppError, validationErrorOf } from "../../errors.ts";
import type { PageRequest } from "../../http/pagination.ts";
import type { WatchAlertPayload, WatchNoticePayload } from "../forwarding/payload.ts";
import { queueWatchlistEvents, type TargetService } from "../forwarding/public.ts";
import { checkWebhookUrl, newSecret, targetOf } from "../forwarding/service.ts";
import { createAlertQueries } from "./alert-queries.ts";
import { createWatchlistQueries } from "./queries.ts";

interface WatchlistWebhookOptions {
  database: Database;
  appUrl: string;
  allowLoopback: boolean;
  /** Forwarding's targets of an owner: the watchlists' webhooks are kept, and tested, there. */
  targets: TargetService;
  /** Wakes the forwarding worker for a test event. */
  onDeliveryQueued?: () => void;
  now?: () => Date;
}

const WEBHOOK_NOT_FOUND = "Webhook not found.";

/**
 * A watchlist's alert webhooks (issue 20): forwarding targets owned by the watchlist, so its alerts are
 * signed, retried and logged by the report forwarding's delivery queue. Every call names the owner:
 * another user's watchlist answers 404, as an unknown one does.
 */
export function createWatchlistWebhookService(options: WatchlistWebhookOptions) {
  const { database, targets } = options;
  const watchlists = createWatchlistQueries(database.sql);
  const now = options.now ?? (() => new Date());

  async function watchlistOf(userId: number, id: string) {
    const row = isUuid(id) ? await watchlists.find(userId, id.toLowerCase()) : null;
    if (!row) throw new AppError("not_found", { message: WATCHLIST_MESSAGES.notFound });
    return { watchlistId: row.id, name: row.name };
  }

  async function webhookOf(userId: number, id: string, webhookId: number) {
    const { watchlistId, name } = await watchlistOf(userId, id);
    const target = await targets.find({ watchlistId }, webhookId);
    if (!target) throw new AppError("not_found", { message: WEBHOOK_NOT_FOUND });
    return { owner: { watchlistId }, name, target };
  }

  return {
    async list(userId: number, id: string) {
      const { watchlistId } = await watchlistOf(userId, id);
      return { data: (await targets.list({ watchlistId })).map(targetOf) };
    },

    async create(userId: number, id: string, body: unknown) {
      const owner = await watchlistOf(userId, id);
      const parsed = WatchlistWebhookInput.safeParse(body ?? {});
      if (!parsed.success) throw validationErrorOf(parsed.error.issues);
      if ((await targets.list(owner)).length >= MAX_WATCHLIST_WEBHOOKS)
        throw new AppError("conflict", {
          message: `A watchlist sends its alerts to at most ${MAX_WATCHLIST_WEBHOOKS} webhooks. Delete one first.`,
        });
      await checkWebhookUrl(parsed.data.url, options.allowLoopback);
      const secret = newSecret();
      const row = await targets.createWebhook(
        { watchlistId: owner.watchlistId },
        { ...parsed.data, events: [], secret, createdBy: userId },
      );
      return { target: targetOf(row), secret };
    },

    async enable(userId: number, id: string, webhookId: number) {
      const { owner, target } = await webhookOf(userId, id, webhookId);
      await checkWebhookUrl(target.url ?? "", options.allowLoopback);
      return targetOf((await targets.setStatus(owner, webhookId, "active", null)) ?? target);
    },

    async disable(userId: number, id: string, webhookId: number) {
      const { owner, target } = await webhookOf(userId, id, webhookId);
      const row = await targets.setStatus(owner, webhookId, "disabled", "Disabled by you.");
      return targetOf(row ?? target);
    },

    async remove(userId: number, id: string, webhookId: number) {
      const { watchlistId } = await watchlistOf(userId, id);
      if (!(await targets.remove({ watchlistId }, webhookId)))
        throw new AppError("not_found", { message: WEBHOOK_NOT_FOUND });
    },

    /** An example alert (a `watchlist.test` event) to this webhook only, sent once. */
    async sendTest(userId: number, id: string, webhookId: number) {
      const { owner, name, target } = await webhookOf(userId, id, webhookId);
      if (target.status !== "active")
        throw new AppError("conflict", { message: "Enable the webhook first." });
      const at = now();
      const payload: WatchAlertPayload = {
        id: randomUUID(),
        type: "watchlist.test",
        created_at: at.toISOString(),
        test: true,
        watchlist: { id: owner.watchlistId, name, url: `${options.appUrl}/watchlists/${owner.watchlistId}` },
        alerts: [
          {
            change: "new",
            entry: { kind: "plugin", slug: "example-plugin", version: "1.0.0" },
            vulnerability: {
              id: "00000000-0000-4000-8000-000000000000",
              title: "Test event: stored XSS in an example plugin",
              url: `${options.appUrl}/database`,
              severity: "medium",
              cve: null,
              fixed_in: "1.0.1",
              fixed_in_inferred: null,
            },
            action: "Update example-plugin to 1.0.1 or later.",
          },
        ],
      };
      const deliveryId = await targets.queueTest(owner, target.id, payload, at);
      options.onDeliveryQueued?.();
      return { delivery_id: deliveryId };
    },

    async deliveries(userId: number, id: string, webhookId: number, page: PageRequest) {
      const { target } = await webhookOf(userId, id, webhookId);
      return targets.deliveries(target.id, page);
    },
  };
}

export type WatchlistWebhookService = ReturnType<typeof createWatchlistWebhookService>;

/**
 * Queues a vendor's notice (CRA Art. 14(8)) to the active webhooks of every watchlist holding the
 * product, one event per watchlist, in the caller's transaction: the notice and its deliveries commit
 * together. Answers whether any delivery was queued (the caller then wakes the worker).
 */
export async function queueNoticeWebhooks(
  tx: SqlRunner,
  notice: {
    appUrl: string;
    vendor: string;
    product: { name: string; kind: string; slug: string; url: string };
    message: string;
    now: Date;
  },
): Promise<boolean> {
  const rows = await createAlertQueries(tx).watchlistsWithWebhooksFor(
    notice.product.kind,
    notice.product.slug,
  );
  await queueWatchlistEvents(
    tx,
    rows.map((watchlist) => ({
      watchlistId: watchlist.id,
      targetIds: watchlist.target_ids.map(Number),
      payload: {
        id: randomUUID(),
        type: "watchlist.notice",
        created_at: notice.now.toISOString(),
        watchlist: {
          id: watchlist.id,
          name: watchlist.name,
          url: `${notice.appUrl}/watchlists/${watchlist.id}`,
        },
        notice: { vendor: notice.vendor, product: notice.product, message: notice.message },
      } satisfies WatchNoticePayload,
    })),
    notice.now,
  );
  return rows.length > 0;
}
