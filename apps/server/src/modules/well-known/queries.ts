import type { Database } from "../../db/client.ts";
import { recordModifiedSql } from "../public-records/presenters.ts";

/**
 * The SQL of the sitemaps and the per-program security.txt (decision 026). The sitemaps read in
 * key order, a batch at a time from a known key (keyset), so a file of 50,000 URLs never needs an
 * OFFSET or a result set of the whole table.
 */

/** The kinds of child sitemap built from the database, with the key they are read in. */
export type SitemapKind = "products" | "vulnerabilities";

/** One child sitemap file: the key of its first row, how many URLs it holds, its newest change. */
export interface SitemapChunk {
  chunk: number;
  first_key: string;
  urls: number;
  lastmod: Date | string | null;
}

export interface ProductUrlRow {
  id: number;
  platform: string;
  kind: string;
  slug: string;
  lastmod: Date | string | null;
}

export interface VulnerabilityUrlRow {
  id: string;
  slug: string;
  platform: string;
  kind: string;
  product_slug: string;
  lastmod: Date | string | null;
}

export interface ProgramProductRow {
  platform: string;
  kind: string;
  slug: string;
  name: string;
  vendor_name: string | null;
  security_contact_email: string | null;
  vendor_contact_email: string | null;
  vendor_account_email: string | null;
  /** YYYY-MM-DD: the declared end of the support period. */
  support_ends_on: string | null;
}

/** One year of CSAF advisories (by the year of their initial release): how many, the newest change. */
export interface CsafYearRow {
  year: number;
  advisories: number;
  updated: Date | string | null;
}

/** What a ROLIE feed entry needs of a record: its id, title and dates (the CSAF/OSV dates, decision 025). */
export interface CsafEntryRow {
  id: string;
  title: string;
  published_at: Date | string | null;
  source_updated_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
  source: string;
  withdrawn_at: Date | string | null;
}

/** The UTC year of a record's initial release: its first known date (presenters.ts firstKnownAt). */
const RELEASE_YEAR = "extract(year from coalesce(v.published_at, v.created_at) at time zone 'UTC')::int";

/** A record's last change: its OSV `modified` (presenters.ts osvDatesOf, one rule). */
const RECORD_MODIFIED = recordModifiedSql("v");

/**
 * The rows of each kind numbered in key order, with their last change (chunked by `$1` rows).
 * A product page is listed when the product has a public record or an active program. A product
 * made by an anonymous report for an unknown slug (a lobby product) has neither until a record is
 * published: its name is whatever the reporter typed, so it stays out.
 */
const NUMBERED: Record<SitemapKind, string> = {
  products: `
    select p.id::text as key, row_number() over (order by p.id) - 1 as n,
           greatest(p.updated_at, p.activated_at, m.modified) as modified
    from products p
    left join (
      select ar.product_id, max(${RECORD_MODIFIED}) as modified
      from affected_ranges ar join vulnerabilities v on v.id = ar.vulnerability_id
      group by ar.product_id
    ) m on m.product_id = p.id
    where p.is_active or m.product_id is not null`,
  vulnerabilities: `
    select v.id::text as key, row_number() over (order by v.id) - 1 as n, ${RECORD_MODIFIED} as modified
    from vulnerabilities v`,
};

export function createWellKnownQueries(database: Database) {
  const sql = database.sql;
  return {
    /** The files a kind's sitemap is split into, `size` URLs each: one pass over the table's keys. */
    async sitemapChunks(kind: SitemapKind, size: number): Promise<SitemapChunk[]> {
      const { rows } = await sql.query<SitemapChunk>(
        `with numbered as (${NUMBERED[kind]})
         select (n / $1)::int as chunk, count(*)::int as urls, max(modified) as lastmod,
                max(case when n % $1 = 0 then key end) as first_key
         from numbered group by 1 order by 1`,
        [size],
      );
      return rows;
    },

    /** Up to `limit` listed products from `fromId` on (inclusive or not), in id order. */
    async productUrls(fromId: number, inclusive: boolean, limit: number): Promise<ProductUrlRow[]> {
      const { rows } = await sql.query<ProductUrlRow>(
        `select p.id, pl.slug as platform, p.kind, p.slug,
                greatest(p.updated_at, p.activated_at, m.modified) as lastmod
         from products p
         join platforms pl on pl.id = p.platform_id
         left join lateral (
           select max(${RECORD_MODIFIED}) as modified, count(*) as ranges
           from affected_ranges ar join vulnerabilities v on v.id = ar.vulnerability_id
           where ar.product_id = p.id
         ) m on true
         -- Listed (LISTED_PRODUCT) read from the lateral: an exists() here is planned as a hash of
         -- every range, built again for each batch (0.3 s a batch at 250,000 records).
         where p.id ${inclusive ? ">=" : ">"} $1 and (p.is_active or m.ranges > 0)
         order by p.id
         limit $2`,
        [fromId, limit],
      );
      return rows;
    },

    /** Up to `limit` records from `fromId` on (inclusive or not), in id order, with their main product. */
    async vulnerabilityUrls(
      fromId: string,
      inclusive: boolean,
      limit: number,
    ): Promise<VulnerabilityUrlRow[]> {
      const { rows } = await sql.query<VulnerabilityUrlRow>(
        `select v.id, v.slug, pl.slug as platform, p.kind, p.slug as product_slug,
                ${RECORD_MODIFIED} as lastmod
         from vulnerabilities v
         join products p on p.id = v.product_id
         join platforms pl on pl.id = p.platform_id
         where v.id ${inclusive ? ">=" : ">"} $1::uuid
         order by v.id
         limit $2`,
        [fromId, limit],
      );
      return rows;
    },

    /** The years the CSAF advisories were first released in, oldest first, with their count and newest change. */
    async csafYears(): Promise<CsafYearRow[]> {
      const { rows } = await sql.query<CsafYearRow>(
        `select ${RELEASE_YEAR} as year, count(*)::int as advisories, max(${RECORD_MODIFIED}) as updated
         from vulnerabilities v group by 1 order by 1`,
      );
      return rows;
    },

    /** `limit` records first released in `year` from position `offset`, in id order (a feed's part). */
    async csafEntries(year: number, offset: number, limit: number): Promise<CsafEntryRow[]> {
      const { rows } = await sql.query<CsafEntryRow>(
        `select v.id, v.title, v.published_at, v.source_updated_at, v.created_at, v.updated_at, v.source,
           v.withdrawn_at
         from vulnerabilities v
         where ${RELEASE_YEAR} = $1
         order by v.id
         offset $2 limit $3`,
        [year, offset, limit],
      );
      return rows;
    },

    /** Up to `limit` records after `afterId` (from the first with null), in id order: the complete ROLIE feed. */
    async csafEntriesAfter(afterId: string | null, limit: number): Promise<CsafEntryRow[]> {
      const { rows } = await sql.query<CsafEntryRow>(
        `select v.id, v.title, v.published_at, v.source_updated_at, v.created_at, v.updated_at, v.source,
           v.withdrawn_at
         from vulnerabilities v
         where $1::uuid is null or v.id > $1::uuid
         order by v.id
         limit $2`,
        [afterId, limit],
      );
      return rows;
    },

    /** The product at a public path when it runs an active program; null otherwise. */
    async findActiveProgram(platform: string, kind: string, slug: string): Promise<ProgramProductRow | null> {
      const { rows } = await sql.query<ProgramProductRow>(
        `select pl.slug as platform, p.kind, p.slug, p.name, vd.vendor_name, p.security_contact_email,
                p.vendor_contact_email, vd.contact_email as vendor_account_email,
                to_char(p.support_ends_on, 'YYYY-MM-DD') as support_ends_on
         from products p
         join platforms pl on pl.id = p.platform_id
         left join vendors vd on vd.id = p.vendor_id
         where pl.slug = $1 and p.kind = $2 and p.slug = $3 and p.is_active`,
        [platform, kind, slug],
      );
      return rows[0] ?? null;
    },
  };
}
