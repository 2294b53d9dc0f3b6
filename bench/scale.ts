import type { Database } from "../apps/server/src/db/client.ts";

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
  await database.sql.query(
    `with product_ids as (select array_agg(id order by id) as ids from products)
     insert into vulnerabilities (id, slug, product_id, title, description, severity, cvss_score, source, published_at)
     select gen_random_uuid(), 'bench-vulnerability-' || i,
            ids[1 + (i * 7919) % array_length(ids, 1)],
            'Bench product ' || i || ' <= 1.0 - Synthetic Cross-Site Scripting',
            'Generated for load tests.',
            (array['low','medium','high','critical'])[1 + i % 4], (i % 100) / 10.0, 'bench-synthetic',
            now() - (i || ' minutes')::interval
     from generate_series(1, $1::int) as i, product_ids
     on conflict do nothing`,
    [missingVulnerabilities],
  );
  await database.sql.query("analyze products, vulnerabilities, affected_ranges");
  return { products: await count("products"), vulnerabilities: await count("vulnerabilities") };
}
