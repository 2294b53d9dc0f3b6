import type { Database } from "../apps/server/src/db/client.ts";
import { mergePendingIndexEntries } from "../apps/server/src/db/import.ts";

/**
 * Adds generated rows so the benchmark database has the scale of QUALITY.md: the real data plus
 * synthetic products up to 60 000 and vulnerabilities up to 250 000. Generated rows are marked
 * `source = 'bench-synthetic'` and slugs start with `bench-`, so they are easy to tell apart.
 */
export async function scaleDatabase(
  database: Database,
  target = { products: 60_000, vulnerabilities: 250_000 },
) {
  const count = async (table: string) =>
    Number((await database.sql.query<{ n: string }>(`select count(*) as n from ${table}`)).rows[0]?.n ?? 0);
  const missingProducts = Math.max(0, target.products - (await count("products")));
  await database.sql.query(
    `insert into products (platform_id, kind, slug, name, is_active, product_url)
     select (select id from platforms where slug = 'wordpress'),
            case when i % 10 = 0 then 'theme' else 'plugin' end,
            'bench-' || i, 'Bench product ' || i, i % 50 = 0, 'https://example.com/bench-' || i
     from generate_series(1, $1::int) as i
     on conflict do nothing`,
    [missingProducts],
  );
  const missingVulnerabilities = Math.max(0, target.vulnerabilities - (await count("vulnerabilities")));
  // Each synthetic record gets one affected range of its product, in the forms real records use
  // (`<= x`, `< fixed` from an `introduced` version, one exact version), so that the batch check's
  // figures at this scale read range data of the real shape. Written as the importer writes (migration
  // 0014): the search document and product kind in the same statement, the triggers standing aside.
  await database.sql.transaction(async (tx) => {
    await tx.query("select set_config('pressguard.bulk_import', 'on', true)");
    await tx.query(
      `with product_ids as (select array_agg(id order by id) as ids from products),
       generated as (
         select gen_random_uuid() as id, i, ids[1 + (i * 7919) % array_length(ids, 1)] as product_id
         from generate_series(1, $1::int) as i, product_ids
       ),
       inserted as (
         insert into vulnerabilities (id, slug, product_id, product_kind, title, description, severity,
           cvss_score, source, published_at, fixed_in, patched, search_document)
         select g.id, 'bench-vulnerability-' || g.i, g.product_id, p.kind,
                'Bench product ' || g.i || ' <= 1.0 - Synthetic Cross-Site Scripting',
                'Generated for load tests.',
                (array['low','medium','high','critical'])[1 + g.i % 4], (g.i % 100) / 10.0, 'bench-synthetic',
                now() - (g.i || ' minutes')::interval,
                case when g.i % 3 = 1 then (g.i % 7) || '.' || (1 + g.i % 9) || '.1' end, g.i % 3 = 1,
                setweight(to_tsvector('simple', p.name || ' ' || p.slug), 'A')
                  || to_tsvector('simple', 'Bench product ' || g.i
                    || ' <= 1.0 - Synthetic Cross-Site Scripting Generated for load tests.')
         from generated g join products p on p.id = g.product_id
         on conflict do nothing
         returning id, product_id, slug
       )
       insert into affected_ranges (vulnerability_id, product_id, position, introduced, fixed,
         last_affected, prefix, version, fixed_in)
       select r.id, r.product_id, 0,
              case when n % 3 = 1 then (n % 7) || '.0' end,
              case when n % 3 = 1 then (n % 7) || '.' || (1 + n % 9) || '.1' end,
              case when n % 3 = 0 then (n % 7) || '.' || (n % 10) end,
              case n % 3 when 0 then '<=' when 1 then '<' else '' end,
              case n % 3 when 0 then (n % 7) || '.' || (n % 10)
                         when 1 then (n % 7) || '.' || (1 + n % 9) || '.1'
                         else (n % 7) || '.' || (n % 10) || '.' || (n % 4) end,
              case when n % 3 = 1 then (n % 7) || '.' || (1 + n % 9) || '.1' end
       from (select id, product_id, substring(slug from 21)::int as n from inserted) r`,
      [missingVulnerabilities],
    );
  });
  // As an import leaves it (db/import.ts): no GIN entry pending, which every search would read.
  await mergePendingIndexEntries(database.sql);
  await database.sql.query("analyze products, vulnerabilities, affected_ranges");
  return { products: await count("products"), vulnerabilities: await count("vulnerabilities") };
}
