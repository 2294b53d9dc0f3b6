import { createHash, randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase, pgliteOptions, type SqlRunner } from "./client.ts";
import { type CopyProgress, copyPgliteToPostgres } from "./pglite-to-postgres.ts";
import { openTestDatabase } from "./test-database.ts";

const ATTACHMENT_BYTES = 5 * 1024 * 1024;
const CHUNK_BYTES = 256 * 1024;
/** Above 2^53: a JavaScript number could not carry it. */
const BIG_EVENT_ID = "9007199254740993";

/** Rows of most kinds of value the schema holds, written with plain SQL as the modules would. */
async function fillSource(sql: SqlRunner, attachment: Buffer) {
  await sql.query(
    `insert into users (name, email, password_hash, is_staff, email_verified_at) values
       ('Ada', 'ada@example.test', 'argon2$x', true, '2026-01-02 03:04:05.123456+02'),
       ('Zoë "quoted" O''Brien \\ back', 'zoe@example.test', null, false, null),
       ('Gone', 'gone@example.test', null, false, null)`,
  );
  // The sequence stays at 3: a new user after the copy must get 4, not max(id) + 1 = 3.
  await sql.query("delete from users where email = 'gone@example.test'");
  await sql.query(
    `insert into sessions (token_hash, user_id, expires_at) values ('t1', 1, 'infinity'), ('t2', 2, '-infinity')`,
  );
  await sql.query(
    `insert into vendors (vendor_name, contact_email, contact_person, plan)
     values ('Acme – “Plugins” 🚀', 'sec@acme.test', E'Line one\\nLine two\\ttab', 'premium')`,
  );
  await sql.query("insert into vendor_members (vendor_id, user_id, role) values (1, 1, 'owner')");
  await sql.query(
    `insert into products (platform_id, kind, slug, name, vendor_id, tags, versions, contributors,
                           vendor_website_url, product_url, active_installs, directory_added)
     values (1, 'plugin', 'acme-forms', 'Acme Forms', 1, '{forms,NULL,"with space","quo\\"te"}', '{}',
             null, 'https://www.Acme.test/about', 'https://wordpress.org/plugins/acme-forms/', 2000000, '2020-02-29'),
            (1, 'theme', 'acme-theme', 'Acme Theme', null, null, '{1.0,1.1}', '{ada}', null, null, null, null)`,
  );
  await sql.query("insert into researchers (display_name, country, user_id) values ('Ada L.', 'GB', 1)");
  const { rows: vulnerabilities } = await sql.query<{ id: string }>(
    `insert into vulnerabilities (slug, product_id, title, description, source, severity, cvss_score,
                                  cvss_vector, "references", patched, published_at)
     values ('acme-forms-sqli', 1, 'Acme Forms <= 1.2 – SQL Injection', 'Unauthenticated SQLi via ''id''.',
             'wordfence', 'critical', 9.8, 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
             '[{"url": "https://example.test/a", "tags": [null, 1.50, true]}, "text", 12345678901234567890.5]', true,
             '2026-03-04 05:06:07.000001+00'),
            ('acme-theme-xss', 2, 'Acme Theme – XSS', '', 'patchstack', 'medium', 6.1, null, '[]', false, null)
     returning id`,
  );
  await sql.query(
    `insert into vulnerability_signals (vulnerability_id, known_exploited, epss)
     values ($1, '{"dateAdded": "2026-01-01", "nested": {"empty": {}, "list": []}}', 'null')`,
    [vulnerabilities[0]!.id],
  );
  // Not what the BEFORE INSERT trigger would compute: a copy that fired it would change this.
  await sql.query("update vulnerabilities set search_document = $1::tsvector where id = $2", [
    "'copied':1A 'unchanged':2B",
    vulnerabilities[0]!.id,
  ]);
  await sql.query(
    `insert into credits (vulnerability_id, researcher_id, position, role) values ($1, 1, 0, 'finder')`,
    [vulnerabilities[0]!.id],
  );
  await sql.query(
    `insert into affected_ranges (vulnerability_id, product_id, position, prefix, version, fixed)
     select $1, 1, n, '<=', '1.' || n, case when n % 2 = 0 then '1.' || (n + 1) end from generate_series(0, 24) n`,
    [vulnerabilities[0]!.id],
  );
  const { rows: reports } = await sql.query<{ id: string }>(
    `insert into reports (product_id, title, status, cvss_score, submitted_by_user_id, fix_deadline_at)
     values (1, 'A report', 'submitted', 7.5, 1, now() + interval '30 days') returning id`,
  );
  const { rows: attachments } = await sql.query<{ id: string }>(
    `insert into report_attachments (report_id, filename, content_type, size_bytes, sha256, storage, uploaded_by_user_id)
     values ($1, 'poc.bin', 'application/octet-stream', $2, $3, 'database', 1) returning id`,
    [reports[0]!.id, attachment.length, createHash("sha256").update(attachment).digest("hex")],
  );
  for (let seq = 0; seq * CHUNK_BYTES < attachment.length; seq++)
    await sql.query("insert into report_attachment_chunks (attachment_id, seq, data) values ($1, $2, $3)", [
      attachments[0]!.id,
      seq,
      attachment.subarray(seq * CHUNK_BYTES, (seq + 1) * CHUNK_BYTES),
    ]);
  await sql.query(
    `insert into invoices (number, vendor_id, plan, description, amount, currency, period_start, period_end,
                           provider, status)
     values ('INV-1', 1, 'premium', 'Premium', 12345678.90, 'EUR', '2026-01-01', '2026-02-01', 'manual', 'paid'),
            ('INV-2', 1, 'premium', 'Refund', -0.01, 'EUR', '2026-02-01', '2026-03-01', 'manual', 'void')`,
  );
  await sql.query(
    `insert into forward_targets (vendor_id, kind, email, events, status)
     values (1, 'email', 'hooks@acme.test', '{report.submitted,report.fixed}', 'active')`,
  );
  await sql.query(
    `insert into forward_events (id, vendor_id, type, payload) values ($1, 1, 'report.submitted', $2)`,
    [BIG_EVENT_ID, JSON.stringify({ big: "9007199254740993", n: 1e-7, s: "tick ✓ 𝄞" })],
  );
  await sql.query("select setval('forward_events_id_seq', $1::bigint)", [BIG_EVENT_ID]);
  // A JSON null and an SQL NULL, which to_jsonb(row) writes alike.
  await sql.query(
    `insert into app_state (key, value) values ('json-null', 'null'), ('string', '"text"'), ('number', '1.10')`,
  );
  await sql.query(
    `insert into data_sources (source, last_counts) values ('json-null', 'null'), ('sql-null', null),
            ('counts', '{"added": 3}')`,
  );
  await sql.query("insert into watchlists (user_id, name) values (1, 'Mine')");
}

/** Each public table's row count and the md5 of its rows as JSON (timestamps in UTC, rows in one order). */
function checksums(database: Database) {
  return database.sql.transaction(async (tx) => {
    await tx.query("set local timezone = 'UTC'");
    const { rows: tables } = await tx.query<{ name: string }>(
      `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = 'public' and c.relkind in ('r', 'p') order by 1`,
    );
    const sums: Record<string, { rows: number; md5: string }> = {};
    for (const { name } of tables) {
      const { rows } = await tx.query<{ rows: number; md5: string }>(
        `select count(*)::int as rows,
                md5(coalesce(string_agg(to_jsonb(t.*)::text, '' order by to_jsonb(t.*)::text collate "C"), '')) as md5
           from public."${name}" t`,
      );
      sums[name] = rows[0]!;
    }
    return sums;
  });
}

describe("copyPgliteToPostgres", () => {
  const attachment = randomBytes(ATTACHMENT_BYTES);
  const opened: Database[] = [];
  let source: Database;
  const open = async (database: Promise<Database>) => {
    const made = await database;
    opened.push(made);
    return made;
  };

  beforeAll(async () => {
    source = await open(openDatabase({ pglite: await PGlite.create("memory://", pgliteOptions()) }));
    await source.migrate();
    await fillSource(source.sql, attachment);
  });
  afterAll(async () => {
    await Promise.all(opened.map((database) => database.close()));
  });

  it("copies every row of every public table identically and continues every sequence", async () => {
    const target = await open(openTestDatabase());
    const progress: CopyProgress[] = [];

    const copied = await copyPgliteToPostgres(source, target, {
      batchRows: 10,
      batchBytes: 2 * 1024 * 1024,
      onProgress: (step) => progress.push(step),
    });

    const before = await checksums(source);
    const after = await checksums(target);
    expect(after).toEqual(before);
    expect(before.report_attachment_chunks!.rows).toBe(ATTACHMENT_BYTES / CHUNK_BYTES);
    expect(before.affected_ranges!.rows).toBe(25);
    expect(before.vulnerability_alert_states!.rows).toBe(2);
    expect(copied.tables).toBe(Object.keys(before).length);
    expect(copied.rows).toBe(Object.values(before).reduce((sum, table) => sum + table.rows, 0));

    // The bytes themselves, and values to_jsonb cannot tell apart.
    const { rows: bytes } = await target.sql.query<{ data: Buffer }>(
      "select string_agg(data, ''::bytea order by seq) as data from report_attachment_chunks",
    );
    expect(bytes[0]!.data.equals(attachment)).toBe(true);
    const nulls =
      "select source, last_counts is null as sql_null, last_counts = 'null'::jsonb as json_null from data_sources order by source";
    expect((await target.sql.query(nulls)).rows).toEqual((await source.sql.query(nulls)).rows);
    expect(
      (await target.sql.query("select value is not null as kept from app_state where key = 'json-null'"))
        .rows,
    ).toEqual([{ kept: true }]);

    // Batches: by rows (25 ranges in tens), by bytes (20 chunks of ~512 KB of JSON under 2 MiB).
    const batchesOf = (table: string) => progress.filter((step) => step.table === table);
    expect(batchesOf("affected_ranges").map((step) => step.rows)).toEqual([10, 20, 25]);
    expect(batchesOf("report_attachment_chunks").length).toBeGreaterThanOrEqual(7);
    expect(progress.at(-1)).toMatchObject({ tables: copied.tables, done: copied.tables });

    // New rows take the next ids, not ones the copied rows hold.
    const { rows: user } = await target.sql.query<{ id: number }>(
      "insert into users (name, email) values ('New', 'new@example.test') returning id",
    );
    expect(user[0]!.id).toBe(4);
    const { rows: event } = await target.sql.query<{ id: string }>(
      "insert into forward_events (vendor_id, type, payload) values (1, 'report.fixed', '{}') returning id",
    );
    expect(event[0]!.id).toBe("9007199254740994");
  });

  it("refuses a target that holds rows the source has not, and leaves it as it was", async () => {
    const target = await open(openTestDatabase());
    await target.sql.query("insert into users (name, email) values ('Other', 'other@example.test')");

    await expect(copyPgliteToPostgres(source, target)).rejects.toThrow(
      /PostgreSQL database is not empty: its table users holds rows/,
    );
    const { rows } = await target.sql.query<{ users: number; platforms: number }>(
      "select (select count(*)::int from users) as users, (select count(*)::int from platforms) as platforms",
    );
    expect(rows).toEqual([{ users: 1, platforms: 1 }]);
  });

  it("refuses databases at different migrations", async () => {
    const target = await open(openTestDatabase());
    const last = "(select max(id) from drizzle.__drizzle_migrations)";
    await target.sql.query(`update drizzle.__drizzle_migrations set hash = 'edited' where id = ${last}`);
    await expect(copyPgliteToPostgres(source, target)).rejects.toThrow(
      /not at the same migration \(PGlite has \d+, PostgreSQL \d+, with different hashes\)/,
    );
    await target.sql.query(`delete from drizzle.__drizzle_migrations where id = ${last}`);
    await expect(copyPgliteToPostgres(source, target)).rejects.toThrow(/not at the same migration/);
  });

  it("refuses to copy the other way round", async () => {
    const target = await open(openTestDatabase());
    await expect(copyPgliteToPostgres(target, source)).rejects.toThrow(
      "copies from PGlite into PostgreSQL, not from postgres into pglite",
    );
  });
});
