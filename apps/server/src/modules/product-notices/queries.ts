import { VENDOR_VISIBLE_REPORT_STATES } from "@pressguard/domain";
import type { SqlRunner } from "../../db/client.ts";
import { productSlugKeySql } from "../check/product-slug.ts";

/** The SQL of the notices a vendor sends its product's users (issue 20, CRA Art. 14(8)). */

/** What a notice needs of the product: who watches it (kind + slug) and what the e-mail says. */
export interface NoticeProduct {
  id: number;
  platform: string;
  kind: string;
  slug: string;
  name: string;
  vendor_name: string;
}

/** A watchlist owner: one e-mail each, however many of their watchlists hold the product. */
export interface Watcher {
  user_id: number;
  email: string;
  name: string;
}

export interface NoticeRow {
  id: number;
  report_id: string | null;
  report_title: string | null;
  message: string;
  sent_by: string | null;
  recipients: number;
  created_at: Date | string;
}

export function createNoticeQueries(sql: SqlRunner) {
  return {
    /** The vendor's product, locked in `tx` so that concurrent sends count each other against the limit. */
    async lockProduct(tx: SqlRunner, vendorId: number, id: number): Promise<NoticeProduct | null> {
      const { rows } = await tx.query<NoticeProduct>(
        `select p.id, pl.slug as platform, p.kind, p.slug, p.name, vd.vendor_name
         from products p join platforms pl on pl.id = p.platform_id join vendors vd on vd.id = p.vendor_id
         where p.id = $1 and p.vendor_id = $2
         for update of p`,
        [id, vendorId],
      );
      return rows[0] ?? null;
    },

    async findProduct(vendorId: number, id: number): Promise<NoticeProduct | null> {
      const { rows } = await sql.query<NoticeProduct>(
        `select p.id, pl.slug as platform, p.kind, p.slug, p.name, vd.vendor_name
         from products p join platforms pl on pl.id = p.platform_id join vendors vd on vd.id = p.vendor_id
         where p.id = $1 and p.vendor_id = $2`,
        [id, vendorId],
      );
      return rows[0] ?? null;
    },

    /** Every owner of a watchlist holding the product (entries keep their slug by `productSlugKey`). */
    async watchersOf(product: Pick<NoticeProduct, "kind" | "slug">, tx: SqlRunner = sql): Promise<Watcher[]> {
      const { rows } = await tx.query<Watcher>(
        `select distinct u.id as user_id, u.email, u.name
         from watchlist_entries e
         join watchlists w on w.id = e.watchlist_id
         join users u on u.id = w.user_id
         where e.kind = lower($1) and e.slug = ${productSlugKeySql("$2")}
         order by u.id`,
        [product.kind, product.slug],
      );
      return rows;
    },

    async countWatchers(product: Pick<NoticeProduct, "kind" | "slug">): Promise<number> {
      const { rows } = await sql.query<{ watchers: number }>(
        `select count(distinct w.user_id)::int as watchers
         from watchlist_entries e join watchlists w on w.id = e.watchlist_id
         where e.kind = lower($1) and e.slug = ${productSlugKeySql("$2")}`,
        [product.kind, product.slug],
      );
      return rows[0]?.watchers ?? 0;
    },

    /** Notices of the product sent within the last `hours`. */
    async sentWithin(productId: number, hours: number, tx: SqlRunner = sql): Promise<number> {
      const { rows } = await tx.query<{ sent: number }>(
        `select count(*)::int as sent from product_user_notices
         where product_id = $1 and created_at > now() - make_interval(hours => $2::int)`,
        [productId, hours],
      );
      return rows[0]?.sent ?? 0;
    },

    /** The product's reports the vendor sees (from validation on), newest first: what a notice may be about. */
    async reportsOf(productId: number) {
      const { rows } = await sql.query<{ id: string; title: string }>(
        `select r.id, r.title from reports r
         where r.product_id = $1 and r.status = any($2::text[])
         order by r.created_at desc, r.id
         limit 200`,
        [productId, VENDOR_VISIBLE_REPORT_STATES],
      );
      return rows;
    },

    async isReportOf(productId: number, reportId: string, tx: SqlRunner = sql): Promise<boolean> {
      const { rows } = await tx.query(
        `select 1 from reports r
         where r.product_id = $1 and r.id = $2
           and r.status = any($3::text[])`,
        [productId, reportId, VENDOR_VISIBLE_REPORT_STATES],
      );
      return rows.length > 0;
    },

    async insertNotice(
      tx: SqlRunner,
      notice: {
        productId: number;
        reportId: string | null;
        message: string;
        sentBy: number | null;
        recipients: number;
      },
    ): Promise<number> {
      const { rows } = await tx.query<{ id: number }>(
        `insert into product_user_notices (product_id, report_id, message, sent_by, recipients)
         values ($1, $2, $3, $4, $5) returning id`,
        [notice.productId, notice.reportId, notice.message, notice.sentBy, notice.recipients],
      );
      return rows[0]?.id ?? 0;
    },

    async listNotices(productId: number): Promise<NoticeRow[]> {
      const { rows } = await sql.query<NoticeRow>(
        `select n.id, n.report_id, r.title as report_title, n.message, u.name as sent_by, n.recipients, n.created_at
         from product_user_notices n
         left join reports r on r.id = n.report_id
         left join users u on u.id = n.sent_by
         where n.product_id = $1
         order by n.created_at desc, n.id desc
         limit 100`,
        [productId],
      );
      return rows;
    },
  };
}
