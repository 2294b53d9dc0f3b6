import { openDatabase } from "../apps/server/src/db/client.ts";
import { createWatchAlertJob } from "../apps/server/src/jobs/watch-alert-job.ts";
import { createMailer } from "../apps/server/src/mail/outbox.ts";
import { createCheckService } from "../apps/server/src/modules/check/service.ts";
import { createWatchlistService } from "../apps/server/src/modules/watchlists/service.ts";
import { numberOption } from "./support.ts";

/**
 * Issue 20's benchmark: one publication matched against many watched entries, and its alerts
 * enqueued (decision 031).
 *
 *   DATABASE_URL=postgres://…/pressguard_scale node --import tsx bench/watch-alerts.ts [--owners 1000]
 *   PGLITE_DIR=<a seeded directory> node --import tsx bench/watch-alerts.ts
 *
 * On a database holding the bundled data (the scale database of `npm run db:seed:scale` for the
 * figures of bench/README.md), makes `owners` synthetic accounts with 20 watchlists each (a host's
 * sites) of 5 entries each: Contact Form 7 at one of five versions, two of which a new record affects,
 * and four other popular plugins. Then publishes one Contact Form 7 record (`<= 5.8.9`, fixed in
 * 5.9.0) and times the alert job's run: fingerprint, match, keep each alert once, queue one e-mail per
 * owner and one webhook delivery per affected watchlist with a webhook (one in ten has one, all of
 * them affected). A second run (nothing pending) and a cosmetic edit's run are timed too. Then an agency's
 * account with the most watchlists allowed (1,000 sites of 25 popular plugins) is read: its list with
 * counts and its exposures report, as `GET /api/watchlists` and `/exposures` compute them (cold: the
 * batch check's range cache empty; then warm). Everything the bench made is deleted at the end.
 */
const owners = numberOption("owners", 1_000);
const WATCHLISTS_PER_OWNER = 20;
const CF7_VERSIONS = ["5.7.0", "5.8.0", "5.9.0", "5.9.5", "6.1"];
const OTHERS = [
  "elementor",
  "woocommerce",
  "akismet",
  "wordpress-seo",
  "jetpack",
  "wpforms-lite",
  "classic-editor",
];
const RECORD_ID = "0b5e4c1a-1b2c-4d3e-8f90-a1b2c3d4e5f6";
const EMAIL_DOMAIN = "watch-bench.invalid";

const url = process.env.DATABASE_URL;
const pgliteDir = process.env.PGLITE_DIR;
if (!url && !pgliteDir)
  throw new Error("Set DATABASE_URL or PGLITE_DIR to a database holding the bundled data.");
const database = await openDatabase(url ? { url } : { pgliteDir: pgliteDir! });
await database.migrate();
const sql = database.sql;
const job = createWatchAlertJob({
  database,
  mailer: createMailer({ database, smtpUrl: undefined, from: "bench@example.test", siteName: "Pressguard" }),
  appUrl: "http://localhost:3000",
});

async function cleanUp() {
  await sql.query("delete from vulnerabilities where id = $1", [RECORD_ID]);
  await sql.query("delete from mail_outbox where to_address like $1", [`%@${EMAIL_DOMAIN}`]);
  await sql.query("delete from users where email like $1", [`%@${EMAIL_DOMAIN}`]);
}

const seconds = (startedAt: number) => ((performance.now() - startedAt) / 1000).toFixed(2);

try {
  await cleanUp();
  // Whatever was pending before (an import, the migration's first fingerprints) is not this bench's.
  const baseline = performance.now();
  const before = await job.runOnce();
  console.info(`pending before the bench: ${before.changed} records fingerprinted in ${seconds(baseline)} s`);

  const made = performance.now();
  const { rows: users } = await sql.query<{ id: number }>(
    `insert into users (name, email, email_verified_at)
     select 'Bench host ' || i, 'host-' || i || '@${EMAIL_DOMAIN}', now() from generate_series(1, $1::int) i
     returning id`,
    [owners],
  );
  const { rows: lists } = await sql.query<{ id: string }>(
    `insert into watchlists (user_id, name)
     select u, 'site-' || s || '.example' from unnest($1::int[]) u, generate_series(1, $2::int) s
     returning id::text`,
    [users.map((user) => user.id), WATCHLISTS_PER_OWNER],
  );
  const entries = {
    list: [] as string[],
    slug: [] as string[],
    version: [] as string[],
    position: [] as number[],
  };
  lists.forEach((list, index) => {
    const add = (slug: string, version: string) => {
      entries.list.push(list.id);
      entries.slug.push(slug);
      entries.version.push(version);
      entries.position.push(entries.position.length);
    };
    add("contact-form-7", CF7_VERSIONS[index % CF7_VERSIONS.length]!);
    for (let other = 0; other < 4; other++)
      add(OTHERS[(index + other) % OTHERS.length]!, `${1 + (index % 9)}.0`);
  });
  await sql.query(
    `insert into watchlist_entries (watchlist_id, kind, slug, version, position)
     select l, 'plugin', s, v, p from unnest($1::uuid[], $2::text[], $3::text[], $4::int[]) as e(l, s, v, p)`,
    [entries.list, entries.slug, entries.version, entries.position],
  );
  // One watchlist in ten sends its alerts to a Slack webhook too (issue 20): queued with the alerts.
  const { rows: hooks } = await sql.query<{ count: number }>(
    `with made as (
       insert into forward_targets (watchlist_id, kind, url, format, secret, status, confirmed_at)
       select l, 'webhook', 'https://hooks.slack.example/services/' || n, 'slack', 'whsec_bench', 'active', now()
       from unnest($1::uuid[]) with ordinality as w(l, n) where n % 10 = 1
       returning id)
     select count(*)::int as count from made`,
    [lists.map((list) => list.id)],
  );
  const webhookCount = hooks[0]?.count ?? 0;
  console.info(
    `${owners} owners, ${lists.length} watchlists (${webhookCount} with a webhook), ${entries.list.length} watched entries made in ${seconds(made)} s`,
  );

  // The publication: what staff's publish writes, a record and its range (the triggers mark it).
  const { rows: products } = await sql.query<{ id: number }>(
    "select id from products where kind = 'plugin' and slug = 'contact-form-7'",
  );
  const productId = products[0]?.id;
  if (productId === undefined) throw new Error("contact-form-7 is not in this database");
  await sql.query(
    `insert into vulnerabilities (id, slug, product_id, title, severity, fixed_in, patched, published_at, source)
     values ($1, 'watch-bench-contact-form-7-sqli', $2, 'Contact Form 7 <= 5.8.9 - Bench SQL Injection', 'high',
       '5.9.0', true, now(), 'pressguard')`,
    [RECORD_ID, productId],
  );
  await sql.query(
    `insert into affected_ranges (vulnerability_id, product_id, position, prefix, version, last_affected, fixed_in)
     values ($1, $2, 0, '<=', '5.8.9', '5.8.9', '5.9.0')`,
    [RECORD_ID, productId],
  );

  const published = performance.now();
  const run = await job.runOnce();
  const publishSeconds = seconds(published);
  const { rows: queued } = await sql.query<{ count: number }>(
    `select count(*)::int as count from forward_deliveries d join forward_targets t on t.id = d.target_id
     where t.url like 'https://hooks.slack.example/%'`,
  );
  const quiet = performance.now();
  const idle = await job.runOnce();
  const idleSeconds = seconds(quiet);
  await sql.query("update vulnerabilities set title = title || ' (edited)' where id = $1", [RECORD_ID]);
  await sql.query("update vulnerabilities set severity = severity where id = $1", [RECORD_ID]);
  const cosmetic = performance.now();
  const edited = await job.runOnce();
  const cosmeticSeconds = seconds(cosmetic);

  console.info("\n| run | records changed | alerts | e-mails queued | seconds |");
  console.info("| --- | ---: | ---: | ---: | ---: |");
  console.info(
    `| one publication, ${entries.list.length} watched entries | ${run.changed} | ${run.alerts} | ${run.mails} (and ${queued[0]?.count ?? 0} webhook deliveries) | ${publishSeconds} |`,
  );
  console.info(
    `| the next run, nothing pending | ${idle.changed} | ${idle.alerts} | ${idle.mails} | ${idleSeconds} |`,
  );
  console.info(
    `| a cosmetic edit of it | ${edited.changed} | ${edited.alerts} | ${edited.mails} | ${cosmeticSeconds} |`,
  );

  // An agency: 1,000 sites of 25 popular plugins each, at versions spread over their histories.
  const { rows: agency } = await sql.query<{ id: number }>(
    `insert into users (name, email, email_verified_at) values ('Bench agency', 'agency@${EMAIL_DOMAIN}', now())
     returning id`,
  );
  const agencyId = agency[0]!.id;
  const { rows: popular } = await sql.query<{ slug: string; version: string | null }>(
    "select slug, version from products where kind = 'plugin' and version is not null order by active_installs desc nulls last limit 25",
  );
  const { rows: sites } = await sql.query<{ id: string }>(
    `insert into watchlists (user_id, name) select $1, 'client-' || s || '.example' from generate_series(1, 1000) s
     returning id::text`,
    [agencyId],
  );
  const siteEntries = { list: [] as string[], slug: [] as string[], version: [] as string[] };
  sites.forEach((site, index) => {
    for (const plugin of popular) {
      siteEntries.list.push(site.id);
      siteEntries.slug.push(plugin.slug);
      // A quarter of the sites up to date, the others one or two major versions behind.
      const [major = "1", minor = "0"] = (plugin.version ?? "1.0").split(".");
      siteEntries.version.push(
        index % 4 === 0
          ? (plugin.version ?? "1.0")
          : `${Math.max(0, Number(major) - 1 - (index % 2))}.${minor}`,
      );
    }
  });
  await sql.query(
    `insert into watchlist_entries (watchlist_id, kind, slug, version, position)
     select l, 'plugin', s, v, row_number() over () from unnest($1::uuid[], $2::text[], $3::text[]) as e(l, s, v)`,
    [siteEntries.list, siteEntries.slug, siteEntries.version],
  );
  const watchlists = createWatchlistService({
    database,
    check: createCheckService({ database, appUrl: "http://localhost:3000", dataVersion: () => "bench" }),
    appUrl: "http://localhost:3000",
  });
  const timed = async (label: string, work: () => Promise<unknown>) => {
    const startedAt = performance.now();
    const answer = await work();
    const bytes = JSON.stringify(answer).length;
    console.info(`| ${label} | ${seconds(startedAt)} | ${(bytes / 1e6).toFixed(1)} MB |`);
  };
  console.info(
    `\n| an agency's ${sites.length} watchlists, ${siteEntries.list.length} entries | seconds | answer |`,
  );
  console.info("| --- | ---: | ---: |");
  await timed("the list with counts, cold", () => watchlists.list(agencyId));
  await timed("the list with counts, warm", () => watchlists.list(agencyId));
  await timed("the exposures report, warm", () => watchlists.exposures(agencyId));
} finally {
  await cleanUp();
  await database.close();
}
