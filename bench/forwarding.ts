// Over 400 lines on purpose: one script read top to bottom in the order it runs (receiver, database,
// the bare loop, the worker, the retry storm); its steps share the receiver and the figures.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Database, openDatabase } from "../apps/server/src/db/client.ts";
import { openTestDatabase } from "../apps/server/src/db/test-database.ts";
import {
  createForwardingWorker,
  MAX_CONSECUTIVE_FAILURES,
} from "../apps/server/src/jobs/forwarding-worker.ts";
import type { ForwardPayload } from "../apps/server/src/modules/forwarding/payload.ts";
import { createForwardingSink } from "../apps/server/src/modules/forwarding/sink.ts";
import {
  signatureOf,
  WEBHOOK_USER_AGENT,
  webhookBodyOf,
} from "../apps/server/src/modules/forwarding/webhook-body.ts";
import { postWebhook } from "../apps/server/src/modules/forwarding/webhook-client.ts";
import { numberOption, textOption } from "./support.ts";

/**
 * Report forwarding under load (issue 8): how fast the real worker delivers a backlog of webhook
 * deliveries, as a ratio against the same HTTP client posting the same number of signed bodies to
 * the same receiver in a bare loop (no database), measured in the same run.
 *
 *   npm run bench:forwarding [-- --events 2000 --targets 1,5 --storm-targets 100 --storm-events 5 --delay 0]
 *
 * Embedded PGlite (a throwaway data directory, as the app runs it) unless DATABASE_URL is set, in
 * which case a throwaway database on that server is created and dropped. Events are recorded through
 * the report service's sink (`createForwardingSink().record` in a transaction of its own), then the
 * worker (`createForwardingWorker().kick()`) drains them against a node:http receiver on 127.0.0.1
 * that checks every signature. The retry storm (`--storm-targets 0` skips it) answers 500 to
 * everything with no backoff, until each target is switched off after 20 failures in a row.
 */
const events = numberOption("events", 2000);
const targetCounts = (textOption("targets") ?? "1,5").split(",").map(Number).filter(Boolean);
const stormTargets = numberOption("storm-targets", 100);
const stormEvents = numberOption("storm-events", 5);
/** How long the receiver waits before answering: a real receiver is not on the same machine. */
const receiverDelayMs = numberOption("delay", 0);
const APP_URL = "http://pressguard.bench";

/** Prints each check; a failed one makes the run exit 1. */
const checks: { name: string; ok: boolean }[] = [];
function check(name: string, ok: boolean) {
  checks.push({ name, ok });
  console.info(`  ${ok ? "ok  " : "FAIL"} ${name}`);
  if (!ok) process.exitCode = 1;
}

function verifySignature(secret: string, header: string | undefined, body: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? "");
  if (!match) return false;
  const expected = createHmac("sha256", secret).update(`${match[1]}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(match[2] ?? "", "hex"));
}

/**
 * The webhook receiver: `/hook/<key>` verifies the signature with that key's secret and answers
 * that key's status. It counts per key what it received, so each phase checks its own requests.
 */
async function startReceiver() {
  const endpoints = new Map<
    string,
    { secret: string; status: number; requests: number; invalid: number; answered200: Map<string, number> }
  >();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const endpoint = endpoints.get(request.url?.slice("/hook/".length) ?? "");
      if (!endpoint) {
        response.writeHead(404).end();
        return;
      }
      endpoint.requests += 1;
      const body = Buffer.concat(chunks).toString("utf8");
      const signature = request.headers["x-pressguard-signature"];
      const valid = verifySignature(endpoint.secret, typeof signature === "string" ? signature : "", body);
      if (!valid) endpoint.invalid += 1;
      const status = valid ? endpoint.status : 401;
      if (status === 200) {
        const delivery = String(request.headers["x-pressguard-delivery"]);
        endpoint.answered200.set(delivery, (endpoint.answered200.get(delivery) ?? 0) + 1);
      }
      const answer = () =>
        response.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "ok" : "nope");
      if (receiverDelayMs > 0) setTimeout(answer, receiverDelayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    /** A new endpoint: its URL and secret. */
    add(key: string, status: number) {
      const secret = `whsec_${randomBytes(32).toString("base64url")}`;
      endpoints.set(key, { secret, status, requests: 0, invalid: 0, answered200: new Map() });
      return { url: `http://127.0.0.1:${port}/hook/${key}`, secret };
    },
    /** What the endpoints whose key starts with `prefix` received, together. */
    stats(prefix: string) {
      let requests = 0;
      let invalid = 0;
      let successes = 0;
      let duplicated = 0;
      let delivered = 0;
      for (const [key, endpoint] of endpoints) {
        if (!key.startsWith(prefix)) continue;
        requests += endpoint.requests;
        invalid += endpoint.invalid;
        delivered += endpoint.answered200.size;
        for (const count of endpoint.answered200.values()) {
          successes += count;
          if (count > 1) duplicated += 1;
        }
      }
      return { requests, invalid, successes, delivered, duplicated };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

async function openBenchDatabase(): Promise<{ database: Database; label: string; cleanUp: () => void }> {
  if (process.env.DATABASE_URL)
    return {
      database: await openTestDatabase(),
      label: "PostgreSQL (DATABASE_URL, a throwaway database dropped at the end)",
      cleanUp: () => {},
    };
  const dir = mkdtempSync(join(tmpdir(), "pressguard-bench-forwarding-"));
  const database = await openDatabase({ pgliteDir: join(dir, "pglite") });
  await database.migrate();
  return {
    database,
    label: "embedded PGlite (a data directory on disk, as the app runs it)",
    cleanUp: () => rmSync(dir, { recursive: true, force: true }),
  };
}

const one = async <T>(database: Database, text: string, params: unknown[] = []) =>
  (await database.sql.query<T>(text, params)).rows[0] as T;

/** A premium vendor with an owner, a program and one report on it, and `count` webhook targets. */
async function premiumVendor(
  database: Database,
  receiver: Receiver,
  name: string,
  count: number,
  status: number,
) {
  const vendor = await one<{ id: number }>(
    database,
    `insert into vendors (vendor_name, contact_email, contact_person, plan)
     values ($1, 'security@bench.example', 'Bench Owner', 'premium') returning id`,
    [`Bench ${name}`],
  );
  const owner = await one<{ id: number }>(
    database,
    "insert into users (name, email, password_hash) values ('Bench Owner', $1, 'x') returning id",
    [`owner-${name}@bench.example`],
  );
  await database.sql.query("insert into vendor_members (vendor_id, user_id, role) values ($1, $2, 'owner')", [
    vendor.id,
    owner.id,
  ]);
  const product = await one<{ id: number }>(
    database,
    `insert into products (platform_id, kind, slug, name, is_active, vendor_id)
     select id, 'plugin', $1, 'Bench Gallery', true, $2 from platforms where slug = 'wordpress' returning id`,
    [`bench-gallery-${name}`, vendor.id],
  );
  const report = await one<{ id: string }>(
    database,
    `insert into reports (product_id, title, status, severity, cvss_score, cvss_vector, type_code,
       affected_version_prefix, affected_version, fixed_version)
     values ($1, 'Stored XSS through the gallery caption', 'validated', 'medium', 5.4,
       'CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N', 2, '<=', '2.4.1', '2.4.2') returning id`,
    [product.id],
  );
  for (let index = 0; index < count; index++) {
    const { url, secret } = receiver.add(`${name}-${index}`, status);
    await database.sql.query(
      `insert into forward_targets (vendor_id, kind, url, secret, status, confirmed_at)
       values ($1, 'webhook', $2, $3, 'active', now())`,
      [vendor.id, url, secret],
    );
  }
  return { vendorId: vendor.id, reportId: report.id };
}

/** Records `count` events through the report service's sink, each in its own transaction; events/s. */
async function recordEvents(database: Database, vendorId: number, reportId: string, count: number) {
  const sink = createForwardingSink({ appUrl: APP_URL });
  const started = performance.now();
  for (let index = 0; index < count; index++)
    await database.sql.transaction((tx) =>
      sink.record(
        {
          type: "report.status_changed",
          vendorId,
          reportId,
          action: "submit_fix",
          fromState: "awaiting_fix",
          toState: "fix_pending",
        },
        tx,
      ),
    );
  return count / ((performance.now() - started) / 1000);
}

/** The payload of the vendor's first recorded event: the ceiling posts the same bytes. */
async function firstPayload(database: Database, vendorId: number): Promise<ForwardPayload> {
  const { payload } = await one<{ payload: ForwardPayload | string }>(
    database,
    "select payload from forward_events where vendor_id = $1 order by id limit 1",
    [vendorId],
  );
  return typeof payload === "string" ? JSON.parse(payload) : payload;
}

function benchWorker(database: Database, retryBaseSeconds: number) {
  const mails: string[] = [];
  const errors: unknown[] = [];
  const worker = createForwardingWorker({
    database,
    mailer: {
      enqueue: async (to) => {
        mails.push(to);
        return mails.length;
      },
    },
    appUrl: APP_URL,
    // FORWARDING_ALLOW_LOOPBACK: the receiver is on 127.0.0.1.
    allowLoopback: true,
    retryBaseSeconds,
    pollSeconds: 3600,
    onError: (error) => errors.push(error),
  });
  return { worker, mails, errors };
}

/** The same exchange as the worker's, `count` times in a row: the same headers, signed per request. */
async function ceilingLoop(receiver: Receiver, payload: ForwardPayload, count: number, key: string) {
  const { url, secret } = receiver.add(key, 200);
  const body = webhookBodyOf(payload, "json");
  const started = performance.now();
  for (let index = 0; index < count; index++) {
    const result = await postWebhook({
      url,
      body,
      allowLoopback: true,
      headers: {
        "Content-Type": "application/json",
        "User-Agent": WEBHOOK_USER_AGENT,
        "X-Pressguard-Event": payload.type,
        "X-Pressguard-Delivery": String(index),
        "X-Pressguard-Event-Id": payload.id,
        "X-Pressguard-Signature": signatureOf(secret, Math.floor(Date.now() / 1000), body),
      },
    });
    if (!result.succeeded) throw new Error(`the ceiling's POST ${index} failed: ${result.excerpt}`);
  }
  return count / ((performance.now() - started) / 1000);
}

const seconds = (value: number | string | null) => (value === null ? null : Number(value));

async function deliveryFigures(database: Database, vendorId: number) {
  return one<{
    deliveries: number;
    succeeded: number;
    attempts: number;
    not_one_success: number;
    lag_p50: number | string | null;
    lag_p95: number | string | null;
    http_p50: number | string | null;
    http_p95: number | string | null;
  }>(
    database,
    `with mine as (
       select d.id, d.status, d.finished_at, e.created_at as event_created_at
       from forward_deliveries d join forward_events e on e.id = d.event_id where e.vendor_id = $1),
     tried as (
       select a.delivery_id, count(*) as attempts, count(*) filter (where a.succeeded) as successes
       from forward_delivery_attempts a where a.delivery_id in (select id from mine) group by a.delivery_id)
     select (select count(*)::int from mine) as deliveries,
            (select count(*)::int from mine where status = 'succeeded') as succeeded,
            (select coalesce(sum(attempts), 0)::int from tried) as attempts,
            (select count(*)::int from mine m left join tried t on t.delivery_id = m.id
             where coalesce(t.successes, 0) <> 1) as not_one_success,
            (select percentile_cont(0.5) within group (order by extract(epoch from finished_at - event_created_at))
             from mine where status = 'succeeded') as lag_p50,
            (select percentile_cont(0.95) within group (order by extract(epoch from finished_at - event_created_at))
             from mine where status = 'succeeded') as lag_p95,
            (select percentile_cont(0.5) within group (order by latency_ms) from forward_delivery_attempts
             where delivery_id in (select id from mine)) as http_p50,
            (select percentile_cont(0.95) within group (order by latency_ms) from forward_delivery_attempts
             where delivery_id in (select id from mine)) as http_p95`,
    [vendorId],
  );
}

async function throughput(database: Database, receiver: Receiver, targets: number) {
  const name = `t${targets}`;
  console.info(`\n${events} events × ${targets} webhook target(s) = ${events * targets} deliveries`);
  const { vendorId, reportId } = await premiumVendor(database, receiver, name, targets, 200);
  const recordRate = await recordEvents(database, vendorId, reportId, events);
  const payload = await firstPayload(database, vendorId);
  const expected = events * targets;
  const { worker, errors } = benchWorker(database, 30);
  const started = performance.now();
  const claimed = await worker.kick();
  const elapsed = (performance.now() - started) / 1000;
  await worker.stop();
  // Right after the worker (not between recording and draining: that would add to the lag figures).
  const ceilingRate = await ceilingLoop(receiver, payload, expected, `ceiling-${name}`);
  const figures = await deliveryFigures(database, vendorId);
  const received = receiver.stats(`${name}-`);
  const ceilingReceived = receiver.stats(`ceiling-${name}`);
  check(
    `ceiling: ${ceilingReceived.delivered} POSTs answered 200, ${ceilingReceived.invalid} invalid signatures`,
    ceilingReceived.delivered === expected && ceilingReceived.invalid === 0,
  );
  check(`${figures.deliveries} deliveries stored (expected ${expected})`, figures.deliveries === expected);
  check(`${figures.succeeded} succeeded`, figures.succeeded === expected);
  check(
    `exactly one successful attempt per delivery (${figures.not_one_success} deliveries otherwise)`,
    figures.not_one_success === 0,
  );
  check(`${figures.attempts} attempts recorded, ${claimed} claimed`, figures.attempts === expected);
  check(
    `receiver: ${received.requests} requests, ${received.delivered} distinct deliveries answered 200, ${received.duplicated} twice`,
    received.requests === expected && received.delivered === expected && received.duplicated === 0,
  );
  check(`receiver: every signature valid (${received.invalid} invalid)`, received.invalid === 0);
  check(`no worker errors (${errors.length})`, errors.length === 0);
  const workerRate = expected / elapsed;
  return {
    targets,
    deliveries: expected,
    recordEventsPerSecond: recordRate,
    workerSeconds: elapsed,
    workerDeliveriesPerSecond: workerRate,
    ceilingDeliveriesPerSecond: ceilingRate,
    ratio: workerRate / ceilingRate,
    lagSeconds: { p50: seconds(figures.lag_p50), p95: seconds(figures.lag_p95) },
    httpMs: { p50: seconds(figures.http_p50), p95: seconds(figures.http_p95) },
  };
}

/** Every attempt fails (500) and is due again at once, until each target is switched off. */
async function retryStorm(database: Database, receiver: Receiver) {
  console.info(`\nRetry storm: ${stormEvents} events × ${stormTargets} targets answering 500, no backoff`);
  const { vendorId, reportId } = await premiumVendor(database, receiver, "storm", stormTargets, 500);
  await recordEvents(database, vendorId, reportId, stormEvents);
  const { worker, mails, errors } = benchWorker(database, 0);
  const started = performance.now();
  await worker.kick();
  const elapsed = (performance.now() - started) / 1000;
  await worker.stop();
  const figures = await deliveryFigures(database, vendorId);
  const targets = await one<{ disabled: number; min_attempts: number; max_attempts: number }>(
    database,
    `select count(*) filter (where t.status = 'disabled')::int as disabled,
            min(coalesce(a.attempts, 0))::int as min_attempts, max(coalesce(a.attempts, 0))::int as max_attempts
     from forward_targets t left join (
       select d.target_id, count(*) as attempts from forward_delivery_attempts x
       join forward_deliveries d on d.id = x.delivery_id group by d.target_id) a on a.target_id = t.id
     where t.vendor_id = $1`,
    [vendorId],
  );
  const pending = await one<{ pending: number }>(
    database,
    `select count(*)::int as pending from forward_deliveries d join forward_events e on e.id = d.event_id
     where e.vendor_id = $1 and d.status <> 'failed'`,
    [vendorId],
  );
  const received = receiver.stats("storm-");
  check(
    `receiver: ${received.requests} requests, ${figures.attempts} attempts recorded`,
    received.requests === figures.attempts,
  );
  check(
    `no success at all (${figures.succeeded} deliveries, ${received.successes} 200s)`,
    figures.succeeded === 0 && received.successes === 0,
  );
  check(`every delivery failed (${pending.pending} not)`, pending.pending === 0);
  check(
    `every target switched off (${targets.disabled} of ${stormTargets}), ${targets.min_attempts}–${targets.max_attempts} attempts each (limit ${MAX_CONSECUTIVE_FAILURES} in a row)`,
    targets.disabled === stormTargets && targets.min_attempts >= MAX_CONSECUTIVE_FAILURES,
  );
  check(`one owner e-mail per switched-off target (${mails.length})`, mails.length === stormTargets);
  check(`receiver: every signature valid (${received.invalid} invalid)`, received.invalid === 0);
  check(`no worker errors (${errors.length})`, errors.length === 0);
  return {
    targets: stormTargets,
    events: stormEvents,
    deliveries: figures.deliveries,
    attempts: figures.attempts,
    seconds: elapsed,
    attemptsPerSecond: figures.attempts / elapsed,
    attemptsPerTarget: { min: targets.min_attempts, max: targets.max_attempts },
    httpMs: { p50: seconds(figures.http_p50), p95: seconds(figures.http_p95) },
  };
}

/** Unmeasured: the first few hundred rounds of each path run several times slower (JIT, plan caches). */
async function warmUp(database: Database, receiver: Receiver) {
  const { vendorId, reportId } = await premiumVendor(database, receiver, "warm-up", 1, 200);
  await recordEvents(database, vendorId, reportId, WARM_UP_EVENTS);
  const { worker } = benchWorker(database, 30);
  await worker.kick();
  await worker.stop();
  const payload = await firstPayload(database, vendorId);
  await ceilingLoop(receiver, payload, WARM_UP_EVENTS, "ceiling-warm-up");
}
const WARM_UP_EVENTS = 300;

const { database, label, cleanUp } = await openBenchDatabase();
console.info(`Database: ${label}`);
const receiver = await startReceiver();
try {
  await warmUp(database, receiver);
  const results = [];
  for (const targets of targetCounts) results.push(await throughput(database, receiver, targets));
  const storm = stormTargets > 0 ? await retryStorm(database, receiver) : undefined;

  const fixed = (value: number | null, digits = 0) => (value === null ? "—" : value.toFixed(digits));
  console.info(`\n${label}, ${events} events, receiver answers after ${receiverDelayMs} ms:\n`);
  console.info(
    "| targets | deliveries | events recorded/s | drain | worker deliveries/s | ceiling deliveries/s | ratio | lag p50 | lag p95 | HTTP p50 | HTTP p95 |\n| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  for (const r of results)
    console.info(
      `| ${r.targets} | ${r.deliveries} | ${fixed(r.recordEventsPerSecond)} | ${r.workerSeconds.toFixed(1)} s | ${fixed(r.workerDeliveriesPerSecond)} | ${fixed(r.ceilingDeliveriesPerSecond)} | ${r.ratio.toFixed(3)} | ${fixed(r.lagSeconds.p50, 1)} s | ${fixed(r.lagSeconds.p95, 1)} s | ${fixed(r.httpMs.p50)} ms | ${fixed(r.httpMs.p95)} ms |`,
    );
  if (storm)
    console.info(
      `\nRetry storm: ${storm.attempts} failed attempts on ${storm.deliveries} deliveries in ${storm.seconds.toFixed(1)} s = ${fixed(storm.attemptsPerSecond)} attempts/s (${storm.attemptsPerTarget.min}–${storm.attemptsPerTarget.max} per target, HTTP p50 ${fixed(storm.httpMs.p50)} ms)`,
    );
  mkdirSync(join(import.meta.dirname, "results"), { recursive: true });
  writeFileSync(
    join(import.meta.dirname, "results", "forwarding.json"),
    JSON.stringify(
      { date: new Date().toISOString(), database: label, events, results, storm, checks },
      null,
      2,
    ),
  );
} finally {
  await receiver.close();
  await database.close();
  cleanUp();
}
if (process.exitCode) console.error("\nSome checks failed.");
process.exit(process.exitCode ?? 0);
