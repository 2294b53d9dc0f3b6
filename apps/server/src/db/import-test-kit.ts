import { afterEach, beforeEach } from "vitest";
import type { Database } from "./client.ts";
import {
  CORE_SQLI,
  MODERN_EVENTS_SSRF,
  SMASH_BALLOON_XSS,
  VIDEO_GALLERY_ALL_VERSIONS,
  WEB_DIRECTORY_SQLI,
} from "./import-fixtures.ts";
import { openTestDatabase } from "./test-database.ts";

/** What the bulk import's tests share: a fresh database per test, and readers of what was written. */

export const ALL_RECORDS = [
  SMASH_BALLOON_XSS,
  MODERN_EVENTS_SSRF,
  WEB_DIRECTORY_SQLI,
  VIDEO_GALLERY_ALL_VERSIONS,
  CORE_SQLI,
];
export const lines = (...records: unknown[]) => records.map((record) => JSON.stringify(record));

export let database: Database;

/** Gives each test of the calling describe block a fresh, empty, migrated database. */
export function useFreshDatabase() {
  beforeEach(async () => {
    database = await openTestDatabase();
  });
  afterEach(async () => {
    await database.close();
  });
}

export async function rows<Row = Record<string, unknown>>(
  text: string,
  params: unknown[] = [],
): Promise<Row[]> {
  return (await database.sql.query<Row>(text, params)).rows;
}

export async function countOf(table: string): Promise<number> {
  const [row] = await rows<{ count: number }>(`select count(*)::int as count from ${table}`);
  return row!.count;
}

export async function vulnerability(id: string) {
  const [row] = await rows(
    `select v.*, v.cvss_score::float8 as score, p.kind as product_kind, p.slug as product_slug
     from vulnerabilities v join products p on p.id = v.product_id where v.id = $1`,
    [id],
  );
  return row!;
}

export async function rangesOf(id: string) {
  return rows(
    `select p.slug as product_slug, r.position, r.introduced, r.introduced_inclusive, r.fixed, r.last_affected,
       r.prefix, r.version, r.fixed_in
     from affected_ranges r join products p on p.id = r.product_id
     where r.vulnerability_id = $1 order by p.slug, r.position`,
    [id],
  );
}

export async function creditsOf(id: string) {
  return rows<{ display_name: string; credit_key: string; position: number; role: string }>(
    `select r.display_name, r.credit_key, c.position, c.role
     from credits c join researchers r on r.id = c.researcher_id
     where c.vulnerability_id = $1 order by c.position`,
    [id],
  );
}

export async function product(kind: string, slug: string) {
  const [row] = await rows(
    `select p.*, pl.slug as platform from products p join platforms pl on pl.id = p.platform_id
     where p.kind = $1 and p.slug = $2`,
    [kind, slug],
  );
  return row;
}
