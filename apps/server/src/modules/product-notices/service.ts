import {
  NOTICES_PER_DAY,
  type ProductUserNotice,
  ProductUserNoticeBody,
  type ProductUserNoticeList,
} from "@pressguard/domain";
import type { Database, SqlRunner } from "../../db/client.ts";
import { isoOrNull } from "../../db/timestamps.ts";
import { AppError, validationErrorOf } from "../../errors.ts";
import type { Mailer } from "../../mail/outbox.ts";
import { PROGRAM_NOT_FOUND } from "../programs/rules.ts";
import { pagePaths } from "../public-records/presenters.ts";
import { queueNoticeWebhooks } from "../watchlists/webhooks.ts";
import { createNoticeQueries, type NoticeProduct, type NoticeRow } from "./queries.ts";

export const NOTICE_MESSAGES = {
  rateLimited: `You can send ${NOTICES_PER_DAY} notices a day for a program. Try again tomorrow.`,
  reportNotOfProgram: "Choose one of this program's reports, or none.",
} as const;

export interface ProductNoticeOptions {
  database: Database;
  mailer: Pick<Mailer, "enqueue">;
  appUrl: string;
  /** Wakes the forwarding worker: the notice was queued to watchlists' webhooks. */
  onDeliveryQueued?: () => void;
  now?: () => Date;
}

const noticeOf = (row: NoticeRow): ProductUserNotice => ({
  ...row,
  created_at: isoOrNull(row.created_at) ?? "",
});

/**
 * A vendor's notices to the users of its product (issue 20, CRA Art. 14(8)): a message about a
 * vulnerability and the measures to take, e-mailed once to every owner of a watchlist holding it.
 */
export function createProductNoticeService(options: ProductNoticeOptions) {
  const { database, mailer } = options;
  const appUrl = options.appUrl.replace(/\/+$/, "");
  const queries = createNoticeQueries(database.sql);

  /**
   * Tells everyone watching `product` the vendor's `message`: each owner once by e-mail, and each
   * watchlist holding it on its alert webhooks; in `tx` both are queued only if it commits. Returns
   * how many owners were e-mailed. The one place watchers are reached for a notice.
   */
  async function notifyWatchers(product: NoticeProduct, message: string, tx: SqlRunner = database.sql) {
    const watchers = await queries.watchersOf(product, tx);
    const url = appUrl + pagePaths.product(product);
    const hooked = await queueNoticeWebhooks(tx, {
      appUrl,
      vendor: product.vendor_name,
      product: { name: product.name, kind: product.kind, slug: product.slug, url },
      message,
      now: (options.now ?? (() => new Date()))(),
    });
    // The worker looks a moment later, once the caller's transaction has committed (kickSoon).
    if (hooked) options.onDeliveryQueued?.();
    for (const watcher of watchers)
      await mailer.enqueue(
        watcher.email,
        {
          template: "product_user_notice",
          name: watcher.name,
          vendorName: product.vendor_name,
          productName: product.name,
          message,
          url,
        },
        tx,
      );
    return watchers.length;
  }

  return {
    notifyWatchers,

    async listNotices(vendorId: number, productId: number): Promise<ProductUserNoticeList> {
      const product = await queries.findProduct(vendorId, productId);
      if (!product) throw new AppError("not_found", { message: PROGRAM_NOT_FOUND });
      const [rows, watchers, sent, reports] = await Promise.all([
        queries.listNotices(product.id),
        queries.countWatchers(product),
        queries.sentWithin(product.id, 24),
        queries.reportsOf(product.id),
      ]);
      return {
        data: rows.map(noticeOf),
        watchers,
        remaining_today: Math.max(0, NOTICES_PER_DAY - sent),
        reports,
      };
    },

    async sendNotice(
      vendorId: number,
      productId: number,
      userId: number,
      input: unknown,
    ): Promise<ProductUserNotice> {
      const parsed = ProductUserNoticeBody.safeParse(input);
      if (!parsed.success) throw validationErrorOf(parsed.error.issues);
      const { message, report_id: reportId } = parsed.data;
      const id = await database.sql.transaction(async (tx) => {
        const product = await queries.lockProduct(tx, vendorId, productId);
        if (!product) throw new AppError("not_found", { message: PROGRAM_NOT_FOUND });
        if ((await queries.sentWithin(product.id, 24, tx)) >= NOTICES_PER_DAY)
          throw new AppError("rate_limited", { message: NOTICE_MESSAGES.rateLimited });
        if (reportId && !(await queries.isReportOf(product.id, reportId, tx)))
          throw new AppError("validation", {
            fieldErrors: { report_id: [NOTICE_MESSAGES.reportNotOfProgram] },
          });
        const recipients = await notifyWatchers(product, message, tx);
        return queries.insertNotice(tx, {
          productId: product.id,
          reportId,
          message,
          sentBy: userId,
          recipients,
        });
      });
      const notice = (await queries.listNotices(productId)).find((row) => row.id === id);
      if (!notice) throw new AppError("internal");
      return noticeOf(notice);
    },
  };
}

export type ProductNoticeService = ReturnType<typeof createProductNoticeService>;
