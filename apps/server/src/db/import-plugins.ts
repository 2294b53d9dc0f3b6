import type { SqlRunner } from "./client.ts";
import { columns, countInserted, type WriteResult } from "./import-batches.ts";
import type { PluginRecord } from "./import-records.ts";
import type { Hashed } from "./parse-records.ts";

/** The plugin directory file's batch writer (import.ts runs it): one upsert of products per batch. */

export async function writePlugins(
  sql: SqlRunner,
  platformId: number,
  records: Hashed<PluginRecord>[],
): Promise<WriteResult> {
  const plugins = columns(records, (record) => ({
    slug: record.slug,
    name: record.name,
    version: record.version ?? null,
    author: record.author ?? null,
    authorProfile: record.author_profile ?? null,
    contributors: JSON.stringify(record.contributors),
    activeInstalls: record.active_installs ?? null,
    rating: record.rating ?? null,
    numRatings: record.num_ratings ?? null,
    requiresWp: record.requires ?? null,
    testedWp: record.tested ?? null,
    requiresPhp: record.requires_php ?? null,
    directoryUpdated: record.last_updated ?? null,
    directoryAdded: record.added ?? null,
    directoryUrl: record.wordpress_org_url ?? null,
    homepage: record.homepage ?? null,
    description: record.short_description ?? null,
    tags: JSON.stringify(record.tags),
    versions: JSON.stringify(record.versions),
    sourceHash: record.sourceHash,
  }));
  // A product a vendor owns keeps the name, URLs and description the vendor gave it; the directory's
  // factual metadata is refreshed either way.
  const pluginValuesChanged = `((p.version, p.author, p.author_profile, p.contributors, p.active_installs, p.rating, p.num_ratings, p.requires_wp, p.tested_wp,
         p.requires_php, p.directory_updated, p.directory_added, p.directory_url, p.tags, p.versions)
       is distinct from (excluded.version, excluded.author, excluded.author_profile, excluded.contributors,
         excluded.active_installs, excluded.rating,
         excluded.num_ratings, excluded.requires_wp, excluded.tested_wp, excluded.requires_php,
         excluded.directory_updated, excluded.directory_added, excluded.directory_url, excluded.tags,
         excluded.versions)
       or (p.vendor_id is null and (p.name, p.product_url, p.vendor_website_url, p.description)
         is distinct from (excluded.name, excluded.product_url, excluded.vendor_website_url,
           excluded.description)))`;
  const { rows } = await sql.query<{ inserted: boolean }>(
    `insert into products as p (platform_id, kind, slug, name, version, author, author_profile, contributors,
       active_installs, rating,
       num_ratings, requires_wp, tested_wp, requires_php, directory_updated, directory_added, directory_url,
       product_url, vendor_website_url, description, tags, versions, directory_source_hash)
     select $1, 'plugin', r.slug, r.name, r.version, r.author, r.author_profile,
       array(select jsonb_array_elements_text(r.contributors::jsonb)), r.active_installs, r.rating, r.num_ratings,
       r.requires_wp, r.tested_wp, r.requires_php, r.directory_updated, r.directory_added::date,
       r.directory_url, r.directory_url, r.homepage, r.description,
       array(select jsonb_array_elements_text(r.tags::jsonb)),
       array(select jsonb_array_elements_text(r.versions::jsonb)), r.source_hash
     from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[],
       $9::int2[], $10::int[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[],
       $16::text[], $17::text[], $18::text[], $19::text[], $20::text[], $21::text[])
       as r(slug, name, version, author, author_profile, contributors, active_installs, rating, num_ratings, requires_wp, tested_wp,
         requires_php, directory_updated, directory_added, directory_url, homepage, description, tags,
         versions, source_hash)
     on conflict (platform_id, kind, slug) do update set
       name = case when p.vendor_id is null then excluded.name else p.name end,
       product_url = case when p.vendor_id is null then excluded.product_url else p.product_url end,
       vendor_website_url = case when p.vendor_id is null then excluded.vendor_website_url
         else p.vendor_website_url end,
       description = case when p.vendor_id is null then excluded.description else p.description end,
       version = excluded.version, author = excluded.author, author_profile = excluded.author_profile,
       contributors = excluded.contributors, active_installs = excluded.active_installs,
       rating = excluded.rating, num_ratings = excluded.num_ratings, requires_wp = excluded.requires_wp,
       tested_wp = excluded.tested_wp, requires_php = excluded.requires_php,
       directory_updated = excluded.directory_updated, directory_added = excluded.directory_added,
       directory_url = excluded.directory_url, tags = excluded.tags, versions = excluded.versions,
       directory_source_hash = excluded.directory_source_hash,
       updated_at = case when ${pluginValuesChanged} then now() else p.updated_at end
     where ${pluginValuesChanged}
       or p.directory_source_hash is distinct from excluded.directory_source_hash
     returning (xmax = 0) as inserted`,
    [
      platformId,
      plugins.slug,
      plugins.name,
      plugins.version,
      plugins.author,
      plugins.authorProfile,
      plugins.contributors,
      plugins.activeInstalls,
      plugins.rating,
      plugins.numRatings,
      plugins.requiresWp,
      plugins.testedWp,
      plugins.requiresPhp,
      plugins.directoryUpdated,
      plugins.directoryAdded,
      plugins.directoryUrl,
      plugins.homepage,
      plugins.description,
      plugins.tags,
      plugins.versions,
      plugins.sourceHash,
    ],
  );
  return countInserted(rows);
}
