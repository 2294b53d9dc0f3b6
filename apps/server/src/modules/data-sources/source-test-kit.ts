import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { SqlRunner } from "../../db/client.ts";

/**
 * What the data-source tests share: a stand-in upstream on loopback (never the real hosts) that
 * answers a document with an ETag, a 304 to its own ETag, or a failure; and records made in SQL.
 */

export interface StandInDocument {
  status: number;
  body: string | Buffer;
  etag: string;
  contentType: string;
  /** Every request's URL and headers, in order. */
  requests: IncomingMessage[];
}

export async function startStandIn(
  document: StandInDocument,
  path = "/document",
): Promise<{ server: Server; url: string; close: () => Promise<void> }> {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    document.requests.push(request);
    if (document.status !== 200) {
      response.writeHead(document.status, { "content-type": "text/plain" }).end("no");
      return;
    }
    if (request.headers["if-none-match"] === document.etag) {
      response.writeHead(304, { etag: document.etag }).end();
      return;
    }
    response.writeHead(200, { "content-type": document.contentType, etag: document.etag }).end(document.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}${path}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Keeps the app's schedule off `source`: it syncs a source that never succeeded 10 s after start,
 * which would race a slow test's own first sync. A success "just now" makes it not due; "Sync now"
 * and `runAll` ignore the schedule.
 */
export async function holdSchedule(sql: SqlRunner, source: string): Promise<void> {
  await sql.query(
    `insert into data_sources (source, last_success_at) values ($1, now())
     on conflict (source) do update set last_success_at = now()`,
    [source],
  );
}

/** The WordPress platform's id, made when the database is empty. */
async function platformId(sql: SqlRunner): Promise<number> {
  const { rows } = await sql.query<{ id: number }>(
    `insert into platforms (slug, name) values ('wordpress', 'WordPress')
     on conflict (slug) do update set name = platforms.name returning id`,
  );
  return rows[0]!.id;
}

/** A product (plugin unless told), made or found by kind and slug. */
export async function productNamed(
  sql: SqlRunner,
  slug: string,
  fields: { kind?: string; version?: string | null; plan?: string } = {},
): Promise<number> {
  const { rows } = await sql.query<{ id: number }>(
    `insert into products (platform_id, kind, slug, name, version, plan) values ($1, $2, $3, $3, $4, $5)
     on conflict (platform_id, kind, slug) do update set name = excluded.name returning id`,
    [await platformId(sql), fields.kind ?? "plugin", slug, fields.version ?? null, fields.plan ?? "free"],
  );
  return rows[0]!.id;
}

/** A record of `productId` with this CVE (or none), and a range on the product: its id. */
export async function recordWithCve(
  sql: SqlRunner,
  productId: number,
  cve: string | null,
  range: { prefix: "<=" | "<"; version: string } = { prefix: "<=", version: "1.0" },
): Promise<string> {
  const slug = `record-${Math.random().toString(36).slice(2, 10)}`;
  const { rows } = await sql.query<{ id: string }>(
    `insert into vulnerabilities (slug, product_id, title, source, cve, published_at)
     values ($1, $2, $3, 'test-generated', $4, now()) returning id::text`,
    [slug, productId, `Test record ${cve ?? slug}`, cve],
  );
  const id = rows[0]!.id;
  await sql.query(
    `insert into affected_ranges (vulnerability_id, product_id, position, prefix, version, last_affected, fixed)
     values ($1, $2, 0, $3, $4, case when $3 = '<=' then $4 end, case when $3 = '<' then $4 end)`,
    [id, productId, range.prefix, range.version],
  );
  return id;
}

/** Every record's `column` by id, as text: what "nothing changed" compares. */
export async function columnSnapshot(sql: SqlRunner, column: "known_exploited" | "epss"): Promise<string> {
  const { rows } = await sql.query<{ rows: string | null }>(
    `select string_agg(v.id::text || '=' || coalesce(s.${column}::text, 'null'), ',' order by v.id) as rows
     from vulnerabilities v left join vulnerability_signals s on s.vulnerability_id = v.id`,
  );
  return rows[0]?.rows ?? "";
}
