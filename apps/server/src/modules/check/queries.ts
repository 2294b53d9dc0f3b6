import type { Database } from "../../db/client.ts";

/** The batch version check's SQL (decision 014). */
export function createCheckQueries(database: Database) {
  const run = database.sql;
  return {
    /** Every range of every product named in the batch, in one query (kind, slug pairs unnested). */
    async rangesForProducts(kinds: string[], slugs: string[]) {
      const { rows } = await run.query<{
        kind: string;
        slug: string;
        platform: string;
        id: string;
        vulnerability_slug: string;
        title: string;
        cve: string | null;
        severity: string | null;
        fixed_in: string | null;
        introduced: string | null;
        introduced_inclusive: boolean;
        fixed: string | null;
        last_affected: string | null;
        prefix: string;
        version: string;
        main_kind: string;
        main_slug: string;
      }>(
        `select p.kind, p.slug, pl.slug as platform, v.id, v.slug as vulnerability_slug, v.title, v.cve,
           v.severity, coalesce(ar.fixed_in, v.fixed_in) as fixed_in, ar.introduced, ar.introduced_inclusive,
           ar.fixed, ar.last_affected, ar.prefix, ar.version, mp.kind as main_kind, mp.slug as main_slug
         from (select distinct kind, slug from unnest($1::text[], $2::text[]) as i(kind, slug)) i
         join products p on p.kind = i.kind and p.slug = i.slug
         join platforms pl on pl.id = p.platform_id and pl.slug = 'wordpress'
         join affected_ranges ar on ar.product_id = p.id
         join vulnerabilities v on v.id = ar.vulnerability_id
         join products mp on mp.id = v.product_id
         order by v.published_at desc nulls last, v.id`,
        [kinds, slugs],
        { prepare: true },
      );
      return rows;
    },
  };
}

export type CheckQueries = ReturnType<typeof createCheckQueries>;
