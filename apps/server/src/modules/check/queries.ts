import type { Database, SqlRunner } from "../../db/client.ts";
import { productSlugKeySql } from "./product-slug.ts";

/** The batch version check's SQL (decision 014). */
export function createCheckQueries(database: Database) {
  const run = database.sql;
  return {
    /**
     * Every range of every product named in the batch, in one query (kind, slug pairs unnested; slugs
     * matched by `productSlugKeySql`). A known product without any range gives one row with no
     * vulnerability (`id` null), so the answer can tell it from an unknown one. Each range carries its
     * own product's fix, listed or inferred (db/infer-fixed.ts), never another product's of the record.
     * A withdrawn record (decision 035) affects nothing: not the check, a watchlist or an alert.
     * `sql`: a transaction's runner, for the alert job.
     */
    async rangesForProducts(kinds: string[], slugs: string[], sql: SqlRunner = run) {
      const { rows } = await sql.query<{
        kind: string;
        /** The slug as asked, by `productSlugKey`. */
        slug: string;
        current_version: string | null;
        platform: string;
        id: string | null;
        vulnerability_slug: string;
        title: string;
        cve: string | null;
        severity: string | null;
        fixed_in: string | null;
        inferred_fixed_from: string | null;
        introduced: string | null;
        introduced_inclusive: boolean;
        fixed: string | null;
        last_affected: string | null;
        prefix: string;
        version: string;
        main_kind: string;
        main_slug: string;
        known_exploited: unknown;
        epss: unknown;
      }>(
        `select p.kind, i.slug, p.version as current_version, pl.slug as platform, r.id,
           r.vulnerability_slug, r.title, r.cve, r.severity, r.fixed_in, r.inferred_fixed_from, r.introduced,
           r.introduced_inclusive, r.fixed, r.last_affected, r.prefix, r.version, r.main_kind, r.main_slug,
           r.known_exploited, r.epss
         from (select distinct kind, ${productSlugKeySql("slug")} as slug
           from unnest($1::text[], $2::text[]) as i(kind, slug)) i
         join products p on p.kind = i.kind and ${productSlugKeySql("p.slug")} = i.slug
         join platforms pl on pl.id = p.platform_id and pl.slug = 'wordpress'
         left join lateral (
           select v.id, v.slug as vulnerability_slug, v.title, v.cve, v.severity,
             ar.fixed_in, ar.inferred_fixed_from, ar.introduced, ar.introduced_inclusive,
             ar.fixed, ar.last_affected, ar.prefix, ar.version, mp.kind as main_kind, mp.slug as main_slug,
             v.published_at, s.known_exploited, s.epss
           from affected_ranges ar
           join vulnerabilities v on v.id = ar.vulnerability_id
           join products mp on mp.id = v.product_id
           left join vulnerability_signals s on s.vulnerability_id = v.id
           where ar.product_id = p.id and v.withdrawn_at is null
         ) r on true
         order by r.published_at desc nulls last, r.id`,
        [kinds, slugs],
        { prepare: true },
      );
      return rows;
    },
  };
}

export type CheckQueries = ReturnType<typeof createCheckQueries>;
