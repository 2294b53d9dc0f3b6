import type { Database } from "../../db/client.ts";
import { fixedForProductSql } from "../../db/infer-fixed.ts";
import { PRODUCT_TAGLINE_PATTERN } from "../../db/schema/public-database.ts";

/**
 * The SQL that finds products by what a user types: the words of their name or slug as prefixes
 * (`conta form` finds Contact Form 7), an exact slug or name, or a name alike (pg_trgm, so `elementr`
 * finds Elementor). The search's product results, its suggestions and the report form's picker.
 */

export interface ProductMatchRow {
  id: number;
  platform: string;
  kind: string;
  slug: string;
  name: string;
  /** The current version, from the plugin directory. */
  version: string | null;
  active_installs: number | null;
  is_active: boolean;
  is_lobby_product: boolean;
  /** Records with a range on the product. */
  vulnerabilities: number;
  /** Of those, the ones without a fix, known or inferred (the product page's present tab). */
  unfixed: number;
}

/**
 * Records with a range on the product, computed only for the rows a page keeps (after its limit);
 * withdrawn ones left out, as the product's counters do.
 */
const PRODUCT_COLUMNS = `p.id, pl.slug as platform, p.kind, p.slug, p.name, p.version, p.active_installs,
  p.is_active, p.is_lobby_product,
  (select count(*)::int from vulnerabilities v
     where v.id in (select vulnerability_id from affected_ranges ar where ar.product_id = p.id)
       and v.withdrawn_at is null)
    as vulnerabilities,
  (select count(*)::int from vulnerabilities v
     where v.id in (select vulnerability_id from affected_ranges ar where ar.product_id = p.id)
       and v.withdrawn_at is null and not ${fixedForProductSql("p.id")})
    as unfixed`;

/**
 * A product's name before its tagline, lower case: "GiveWP – Donation Plugin and Fundraising
 * Platform" is "givewp". Names in the plugin directory are mostly the brand then a tagline; people
 * type the brand. The expression of the index on it (migration 0020), so that PostgreSQL uses it.
 */
const SHORT_NAME_SQL = `lower(regexp_replace(p.name, '${PRODUCT_TAGLINE_PATTERN}', ''))`;

/**
 * How popular a product is: the decimal logarithm of its installs. WordPress core, without a count,
 * runs on every site; other products without one (themes, premium and closed plugins) count as none.
 */
const POPULARITY_SQL = `log(1 + coalesce(p.active_installs, case when p.kind = 'core' then 100000000 else 0 end))`;

export type ProductOrder = "picker" | "search";

/**
 * Every statement here is prepared with a generic plan (decision 014): their plans are the same for
 * every text (the trigram and full-text indexes, then the page's few rows), and planning cost more
 * than running them: 2.4 ms planning against 3.5 ms running for the products alike, 0.7–0.8 ms
 * against 0.2–0.4 ms for the words' products (pg_stat_statements, 300 searches, decision 038).
 * Limits and offsets are parameters: a text per page number would leave a prepared statement per
 * page on every connection.
 */
const PREPARED = { prepare: true } as const;

/**
 * An exact slug or name first; then the picker puts active programs first (a report goes to them),
 * the search the most installed (the product most people mean).
 */
const orderOf = (order: ProductOrder, exact: string) =>
  `${exact}${order === "picker" ? "p.is_active desc, " : ""}${POPULARITY_SQL} desc,
   lower(p.name), p.id`;

export function createProductQueries(database: Database) {
  const run = database.sql;

  return {
    /**
     * Products whose name or slug holds every word as a prefix, or whose slug is `slug`. The total
     * is counted only when asked (the suggestions do not show it).
     */
    async byWords(
      filters: { words: string[]; slugs?: string[] | undefined; kind?: string | undefined },
      options: { order: ProductOrder; limit: number; offset: number; count: boolean },
    ) {
      const params: unknown[] = [];
      const where: string[] = [];
      let slugs = "";
      if (filters.words.length > 0) {
        const query = `$${params.push(filters.words.map((word) => `${word}:*`).join(" & "))}`;
        if (filters.slugs?.length) {
          slugs = `$${params.push(filters.slugs)}::text[]`;
          // Every kind spelled out: the index on (kind, lower(slug)) serves the slug then.
          where.push(
            `(p.search @@ to_tsquery('simple', ${query})
              or p.kind in ('plugin', 'theme', 'core') and lower(p.slug) = any(${slugs}))`,
          );
        } else {
          where.push(`p.search @@ to_tsquery('simple', ${query})`);
        }
      }
      if (filters.kind) where.push(`p.kind = $${params.push(filters.kind)}`);
      const whereSql = where.length ? `where ${where.join(" and ")}` : "";
      // The page's own values after the filter's (the count statement takes only those).
      const pageParams = [...params];
      let exact = "false";
      let exactOrder = "";
      if (slugs) {
        const name = `$${pageParams.push(filters.words.join(" "))}`;
        // Not the short name: add-ons share their brand's ("ACF: Better Search" is "acf"). Among
        // products named exactly, the most installed: `file manager` is the slug of Bit File Manager
        // (20,000 installs) and the name of WP File Manager (a million).
        exact = `(lower(p.slug) = any(${slugs}) or lower(p.name) = ${name})`;
        exactOrder = `${exact} desc, `;
      }
      const [{ rows }, counted] = await Promise.all([
        run.query<ProductMatchRow & { exact: boolean }>(
          `select ${PRODUCT_COLUMNS}, ${exact} as exact
           from products p join platforms pl on pl.id = p.platform_id
           ${whereSql}
           order by ${orderOf(options.order, exactOrder)}
           limit $${pageParams.push(options.limit)} offset $${pageParams.push(options.offset)}`,
          pageParams,
          PREPARED,
        ),
        options.count
          ? run.query<{ total: number }>(
              `select count(*)::int as total from products p ${whereSql}`,
              params,
              PREPARED,
            )
          : null,
      ]);
      return { rows, total: counted ? (counted.rows[0]?.total ?? 0) : rows.length };
    },

    /**
     * Products whose slug is one of `slugs`, or whose name or short name is one of `names`, whatever
     * their case: a query that names a product and says more ("elementor xss"). The most popular
     * first. A name that is one of `names` (words and spaces) has no tagline: it is its short name,
     * whose index finds it (the trigram index on the name took 3–7 ms to answer an equality).
     */
    async exactly(slugs: string[], names: string[], kind: string | undefined, limit: number) {
      const params: unknown[] = [slugs, names];
      const kindSql = kind ? `and p.kind = $${params.push(kind)}` : "";
      const { rows } = await run.query<ProductMatchRow & { short_name: string }>(
        `select ${PRODUCT_COLUMNS}, ${SHORT_NAME_SQL} as short_name
         from products p join platforms pl on pl.id = p.platform_id
         where (p.kind in ('plugin', 'theme', 'core') and lower(p.slug) = any($1::text[])
             or ${SHORT_NAME_SQL} = any($2::text[]))
           ${kindSql}
         order by ${POPULARITY_SQL} desc, p.id
         limit $${params.push(limit)}`,
        params,
        PREPARED,
      );
      return rows;
    },

    /**
     * Products whose slug or name looks like `text` (pg_trgm). The candidates are the 50 most alike by
     * slug and the 50 by name (a misspelt `woocomer` is like 2,600 names at 60,000 products: scoring
     * them all took 116 ms). Each is scored on its closest form: the slug, the short name (the brand
     * before the tagline: "Speed Optimizer" for `speed optimiser`, "Popup Builder by OptinMonster" for
     * a long name typed in full) or the slug without its hyphens (`allinone seo`); plus half the
     * word similarity to the whole name (its other words do not count against it) and a tenth for
     * each factor of 10 installs, so that a popular product beats an unused one spelt a letter
     * closer (`elementr`: Elementor, 5 million installs, rather than an unused Elementra). `likeness`
     * is the best of these forms, from 0 to 1.
     */
    async alike(text: string, kind: string | undefined, limit: number) {
      const params: unknown[] = [text, text.replace(/[^\p{L}\p{N}]+/gu, "")];
      const kindSql = kind ? `and p.kind = $${params.push(kind)}` : "";
      const { rows } = await run.query<ProductMatchRow & { likeness: number }>(
        `with candidates as (
           (select p.id from products p where p.slug % $1 ${kindSql}
            order by similarity(p.slug, $1) desc limit 50)
           union
           (select p.id from products p where $1 <% lower(p.name) ${kindSql}
            order by word_similarity($1, lower(p.name)) desc limit 50)
         ), scored as (
           select c.id,
             greatest(similarity(p.slug, $1), similarity(${SHORT_NAME_SQL}, $1),
               similarity(lower(replace(p.slug, '-', '')), $2)) as form,
             word_similarity($1, lower(p.name)) as words,
             ${POPULARITY_SQL} as popularity
           from candidates c join products p on p.id = c.id
         )
         select ${PRODUCT_COLUMNS}, greatest(s.form, s.words)::float8 as likeness
         from scored s
         join products p on p.id = s.id
         join platforms pl on pl.id = p.platform_id
         order by s.form + 0.5 * s.words + 0.1 * s.popularity desc, p.id
         limit $${params.push(limit)}`,
        params,
        PREPARED,
      );
      return rows;
    },
  };
}

export type ProductQueries = ReturnType<typeof createProductQueries>;

/**
 * Researchers whose display name holds every word as a prefix, the most credited first, found by the
 * index on their name (migration 0037): matching every name cost 1.4 ms a search at 865 researchers.
 */
export async function researchersNamed(database: Database, words: string[], limit: number) {
  if (words.length === 0) return [];
  const { rows } = await database.sql.query<{
    uuid: string;
    display_name: string;
    vulnerabilities: number;
  }>(
    `select r.uuid, r.display_name,
       (select count(*)::int from credits c join vulnerabilities v on v.id = c.vulnerability_id
         where c.researcher_id = r.id and v.withdrawn_at is null) as vulnerabilities
     from researchers r
     where to_tsvector('simple', r.display_name) @@ to_tsquery('simple', $1)
     order by vulnerabilities desc, r.display_name, r.id
     limit $2`,
    [words.map((word) => `${word}:*`).join(" & "), limit],
    PREPARED,
  );
  return rows;
}
