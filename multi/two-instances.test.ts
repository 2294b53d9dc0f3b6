// Over 400 lines on purpose: every test shares one start of two instances, nginx and PostgreSQL,
// which take most of its time; a second file would start them again.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../apps/server/src/db/client.ts";
import { createForwardingSink } from "../apps/server/src/modules/forwarding/sink.ts";
import { startReceiver } from "../apps/server/src/modules/forwarding/testing.ts";
import { findFreePort } from "../apps/server/src/smoke/server-process.ts";
import {
  createDatabase,
  ensureBuild,
  type Instance,
  makeWorkDir,
  type Nginx,
  recordFigures,
  removeWorkDir,
  startInstance,
  startNginx,
} from "./instances.ts";

/**
 * Issue 15, "Many instances" (decision 022): two production servers on one PostgreSQL database behind
 * Debian's nginx (round-robin). Through nginx and directly: a session made on one instance is one on
 * the other; rate limits count across instances; an upload on A downloads from B byte for byte; a
 * write through A reaches B's stored public answers; queued mail and webhook deliveries go out once.
 */

let database: Awaited<ReturnType<typeof createDatabase>>;
let workDir: string;
let a: Instance;
let b: Instance;
let proxy: Nginx;
let smtp: SMTPServer;
const received: { to: string[]; raw: string }[] = [];
const suiteStarted = performance.now();
let startSeconds = 0;
const WEBHOOK_SECRET = "multi-instance-webhook-secret";

beforeAll(async () => {
  workDir = makeWorkDir();
  database = await createDatabase();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push({
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((done) => smtp.listen(0, "127.0.0.1", done));
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  ensureBuild();
  const started = performance.now();
  // Ports first: APP_URL is nginx's address, as behind any proxy.
  const env = (proxyPort: number) => ({
    DATABASE_URL: database.url,
    NODE_ENV: "production",
    APP_URL: `http://127.0.0.1:${proxyPort}`,
    TRUST_PROXY: "on",
    SEED: "off",
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    LOG_LEVEL: "warn",
    // The webhook receiver below is on 127.0.0.1; both workers look for due deliveries every 0.2 s.
    FORWARDING_ALLOW_LOOPBACK: "true",
    FORWARDING_POLL_SECONDS: "0.2",
    // The load below comes from one address through the proxy: the public API's limit (decision 028)
    // counts it in both instances, shared through the database, and refuses none of it.
    API_RATE_LIMIT_ANONYMOUS: "1000000000",
    // CAPTCHA_HMAC_KEY and PREVIEW_TOKEN_KEY unset: the instances share the keys kept in the database.
  });
  const reservedProxyPort = await findFreePort();
  // Both at once on a new database: their migrations are serialised by the migration lock.
  [a, b] = await Promise.all([
    startInstance("a", env(reservedProxyPort), workDir),
    startInstance("b", env(reservedProxyPort), workDir),
  ]);
  proxy = await startNginx([a, b], workDir, reservedProxyPort);
  startSeconds = (performance.now() - started) / 1000;
}, 240_000);

afterAll(async () => {
  await proxy?.stop();
  await Promise.all([a?.stop(), b?.stop()]);
  await new Promise<void>((done) => (smtp ? smtp.close(() => done()) : done()));
  await database?.drop();
  if (workDir) removeWorkDir(workDir);
});

/** A browser: one cookie jar for the site (all origins are one site here), the XSRF pair on unsafe calls. */
function browser() {
  const cookies = new Map<string, string>();
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...value] = (pair ?? "").split("=");
      if (!name) continue;
      const text = value.join("=");
      if (text === "" || /max-age=0/i.test(line)) cookies.delete(name.trim());
      else cookies.set(name.trim(), text);
    }
  };
  const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  return {
    cookies,
    async call(
      origin: string,
      method: string,
      path: string,
      body?: unknown,
      headers: Record<string, string> = {},
    ) {
      const unsafe = method !== "GET" && method !== "HEAD";
      if (unsafe && !cookies.has("XSRF-TOKEN")) remember(await fetch(`${origin}/api/csrf-cookie`));
      const response = await fetch(`${origin}${path}`, {
        method,
        headers: {
          accept: "application/json",
          ...(cookies.size > 0 && { cookie: cookieHeader() }),
          ...(unsafe && { "x-xsrf-token": decodeURIComponent(cookies.get("XSRF-TOKEN") ?? "") }),
          ...(body !== undefined && !Buffer.isBuffer(body) && { "content-type": "application/json" }),
          ...headers,
        },
        ...(body !== undefined && { body: Buffer.isBuffer(body) ? body : JSON.stringify(body) }),
      });
      remember(response);
      return response;
    },
  };
}

/** A researcher with a verified address (as the e-mailed link would do), signed in through `origin`. */
async function researcher(origin: string) {
  const user = browser();
  const email = `multi-${randomUUID()}@example.test`;
  const password = "correct horse battery";
  const registered = await user.call(origin, "POST", "/api/register", {
    name: "Multi Instance",
    email,
    password,
    role: "researcher",
  });
  expect(registered.status, await registered.clone().text()).toBe(202);
  await database.query("update users set email_verified_at = now() where email = $1", [email]);
  const signedIn = await user.call(origin, "POST", "/api/login", { email, password });
  expect(signedIn.status, await signedIn.clone().text()).toBe(200);
  return { ...user, email, password, id: ((await signedIn.json()) as { id: number }).id };
}

const reportBody = (title: string) => ({
  kind: "plugin",
  product_slug: `multi-instance-${randomUUID().slice(0, 8)}`,
  product_name: "Multi Instance Plugin",
  affected_version_prefix: "<=",
  affected_version: "1.0.0",
  vulnerability_type: 2,
  owasp_category: 43,
  required_privilege: 3,
  title,
  description: "Submitted through one of two instances behind nginx.",
  steps_to_reproduce: "1. Submit through nginx. 2. Read it back from the other instance.",
  proof_of_concept: "The same database answers, whichever instance is asked.",
});

describe("two instances behind nginx on one PostgreSQL database", () => {
  it("spreads requests over both instances", async () => {
    const upstreams = new Set<string>();
    for (let index = 0; index < 6; index += 1) {
      const response = await fetch(`${proxy.origin}/healthz`);
      expect(response.status).toBe(200);
      upstreams.add(response.headers.get("x-upstream") ?? "");
    }
    expect([...upstreams].sort()).toEqual([`127.0.0.1:${a.port}`, `127.0.0.1:${b.port}`].sort());
  });

  it("keeps a session made on one instance on the other, through nginx too, until it is ended on either", async () => {
    const user = await researcher(a.origin);
    for (const origin of [b.origin, a.origin, proxy.origin, proxy.origin, proxy.origin]) {
      const me = await user.call(origin, "GET", "/api/user");
      expect(me.status, origin).toBe(200);
      expect(((await me.json()) as { id: number }).id).toBe(user.id);
    }
    const signedOut = await user.call(b.origin, "POST", "/api/logout");
    expect(signedOut.status).toBeLessThan(300);
    for (const origin of [a.origin, b.origin])
      expect((await user.call(origin, "GET", "/api/user")).status).toBe(401);
  });

  it("counts rate limits across instances: the sign-in back-off and the 20 reports an hour", async () => {
    const user = await researcher(proxy.origin);
    const stranger = browser();
    const statuses: number[] = [];
    // Five wrong passwords are free (decision 020), whichever instance hears them.
    for (const origin of [a.origin, b.origin, a.origin, b.origin, proxy.origin]) {
      const response = await stranger.call(origin, "POST", "/api/login", {
        email: user.email,
        password: "wrong one",
      });
      statuses.push(response.status);
    }
    expect(
      statuses.every((status) => status === 422 || status === 401),
      statuses.join(),
    ).toBe(true);
    for (const origin of [a.origin, b.origin, proxy.origin]) {
      const held = await stranger.call(origin, "POST", "/api/login", {
        email: user.email,
        password: user.password,
      });
      expect(held.status, origin).toBe(429);
    }

    // Twenty signed-in reports an hour, counted in the database whichever instance takes them.
    const submitted: number[] = [];
    for (let index = 0; index < 20; index += 1) {
      const origin = index % 2 === 0 ? a.origin : proxy.origin;
      const response = await user.call(
        origin,
        "POST",
        "/api/reports",
        reportBody(`Rate limit report ${index}`),
      );
      if (response.status !== 201) console.info(await response.text());
      submitted.push(response.status);
    }
    expect(
      submitted.filter((status) => status === 201),
      submitted.join(),
    ).toHaveLength(20);
    expect((await user.call(b.origin, "POST", "/api/reports", reportBody("One too many"))).status).toBe(429);
  });

  it("serves an upload received by A from B and through nginx, byte for byte, with the same access rules", async () => {
    const owner = await researcher(a.origin);
    const created = await owner.call(
      a.origin,
      "POST",
      "/api/reports",
      reportBody("Attachment across instances"),
    );
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const content = randomBytes(5 * 1024 * 1024 + 123);
    const boundary = "----multi-boundary";
    const form = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="poc.zip"\r\nContent-Type: application/zip\r\n\r\n`,
      ),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const uploaded = await owner.call(a.origin, "POST", `/api/reports/${id}/attachments`, form, {
      "content-type": `multipart/form-data; boundary=${boundary}`,
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(201);
    const attachment = (await uploaded.json()) as { id: string };
    const path = `/api/reports/${id}/attachments/${attachment.id}`;
    const digest = (bytes: ArrayBuffer) => createHash("sha256").update(Buffer.from(bytes)).digest("hex");
    for (const origin of [b.origin, proxy.origin, proxy.origin]) {
      const download = await owner.call(origin, "GET", path);
      expect(download.status, origin).toBe(200);
      expect(digest(await download.arrayBuffer()), origin).toBe(
        digest(content.buffer.slice(content.byteOffset, content.byteOffset + content.length)),
      );
    }
    // An upload through nginx lands on either instance and downloads from both.
    const second = await owner.call(proxy.origin, "POST", `/api/reports/${id}/attachments`, form, {
      "content-type": `multipart/form-data; boundary=${boundary}`,
    });
    expect(second.status).toBe(201);
    const secondPath = `/api/reports/${id}/attachments/${((await second.json()) as { id: string }).id}`;
    for (const origin of [a.origin, b.origin])
      expect((await owner.call(origin, "GET", secondPath)).status).toBe(200);
    // Somebody else's researcher account and a signed-out caller get what they got from one instance.
    const stranger = await researcher(b.origin);
    expect((await stranger.call(b.origin, "GET", path)).status).toBe(404);
    expect((await fetch(`${b.origin}${path}`)).status).toBe(401);
    // The preview link A e-mailed (signed with the key both share) opens the report and its file on B.
    const [mail] = await database.query<{ text_body: string }>(
      "select text_body from mail_outbox where to_address = $1 and template = 'report_received'",
      [owner.email],
    );
    const token = /\?token=([A-Za-z0-9_.-]+)/.exec(mail?.text_body ?? "")?.[1];
    expect(token).toBeDefined();
    expect((await fetch(`${b.origin}/api/reports/${id}?token=${token}`)).status).toBe(200);
    expect((await fetch(`${b.origin}${path}?token=${token}`)).status).toBe(200);
  });

  it("refreshes B's stored public answer after a write through A", async () => {
    const user = await researcher(a.origin);
    const saved = await user.call(a.origin, "PUT", "/api/researcher/profile", {
      display_name: "Before Change",
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    const { uuid } = (await saved.json()) as { uuid: string };
    const publicPath = `/api/v1/researchers/${uuid}`;
    const nameOnB = async () => {
      const response = await fetch(`${b.origin}${publicPath}`);
      expect(response.status).toBe(200);
      return ((await response.json()) as { display_name: string }).display_name;
    };
    // Read twice on B: the second answer comes from B's response store.
    expect(await nameOnB()).toBe("Before Change");
    expect(await nameOnB()).toBe("Before Change");
    const changed = await user.call(a.origin, "PUT", "/api/researcher/profile", {
      display_name: "After Change",
    });
    expect(changed.status).toBe(200);
    const written = performance.now();
    let seconds = Number.POSITIVE_INFINITY;
    while (performance.now() - written < 10_000) {
      if ((await nameOnB()) === "After Change") {
        seconds = (performance.now() - written) / 1000;
        break;
      }
      await sleep(100);
    }
    recordFigures({ stored_answer_refreshed_on_other_instance_seconds: Number(seconds.toFixed(2)) });
    // The data version is polled every 2 s (decision 005): never staler than that, plus a request.
    expect(seconds).toBeLessThan(3);
  });

  it("sends each queued mail exactly once, though both instances deliver the outbox", async () => {
    const recipients = Array.from(
      { length: 40 },
      (_, index) => `outbox-${index}-${randomUUID()}@example.test`,
    );
    await database.query(
      `insert into mail_outbox (template, to_address, subject, text_body, html_body, status)
       select 'multi_instance', address, 'Once', 'Sent once', '<p>Sent once</p>', 'pending'
       from unnest($1::text[]) as address`,
      [recipients],
    );
    const deadline = Date.now() + 30_000;
    let pending = recipients.length;
    while (Date.now() < deadline && pending > 0) {
      await sleep(250);
      const [row] = await database.query<{ n: number }>(
        "select count(*)::int as n from mail_outbox where template = 'multi_instance' and status <> 'sent'",
      );
      pending = row?.n ?? 0;
    }
    expect(pending).toBe(0);
    await sleep(500);
    const deliveries = recipients.map(
      (address) => received.filter((mail) => mail.to.includes(address)).length,
    );
    recordFigures({
      outbox_mails_queued: recipients.length,
      outbox_mails_received: deliveries.reduce((x, y) => x + y, 0),
    });
    expect(
      deliveries.every((count) => count === 1),
      deliveries.join(),
    ).toBe(true);
  });

  it("delivers each forwarded report event exactly once, though both instances run the forwarding worker", async () => {
    const receiver = await startReceiver({ secret: () => WEBHOOK_SECRET });
    const direct = await openDatabase({ url: database.url, poolSize: 2 });
    try {
      const one = async <Row>(text: string, params: unknown[] = []) =>
        (await direct.sql.query<Row>(text, params)).rows[0] as Row;
      const vendor = await one<{ id: number }>(
        `insert into vendors (vendor_name, contact_email, contact_person, plan)
         values ('Multi Vendor', 'security@multi.example', 'Multi Owner', 'premium') returning id`,
      );
      const product = await one<{ id: number }>(
        `insert into products (platform_id, kind, slug, name, is_active, vendor_id)
         select id, 'plugin', 'multi-forwarded', 'Multi Forwarded', true, $1 from platforms where slug = 'wordpress'
         returning id`,
        [vendor.id],
      );
      const report = await one<{ id: string }>(
        `insert into reports (product_id, title, status, severity, type_code, affected_version_prefix, affected_version)
         values ($1, 'Forwarded once whichever instance delivers it', 'awaiting_fix', 'medium', 2, '<=', '1.0.0')
         returning id`,
        [product.id],
      );
      await direct.sql.query(
        `insert into forward_targets (vendor_id, kind, url, secret, status, confirmed_at)
         values ($1, 'webhook', $2, $3, 'active', now())`,
        [vendor.id, receiver.url, WEBHOOK_SECRET],
      );
      // Recorded as the report service records them: an event and its delivery, in one transaction each.
      const sink = createForwardingSink({ appUrl: proxy.origin });
      const EVENTS = 30;
      for (let index = 0; index < EVENTS; index += 1)
        await direct.sql.transaction((tx) =>
          sink.record(
            {
              type: "report.status_changed",
              vendorId: vendor.id,
              reportId: report.id,
              action: "submit_fix",
              fromState: "awaiting_fix",
              toState: "fix_pending",
            },
            tx,
          ),
        );
      const deadline = Date.now() + 30_000;
      let open = EVENTS;
      while (Date.now() < deadline && open > 0) {
        await sleep(200);
        open = (
          await one<{ n: number }>(
            "select count(*)::int as n from forward_deliveries where status <> 'succeeded'",
          )
        ).n;
      }
      expect(open).toBe(0);
      await sleep(500);
      const perEvent = new Map<string, number>();
      for (const request of receiver.received) {
        const id = String(request.headers["x-pressguard-event-id"]);
        perEvent.set(id, (perEvent.get(id) ?? 0) + 1);
      }
      recordFigures({ webhook_events_recorded: EVENTS, webhook_requests_received: receiver.received.length });
      expect(receiver.received.every((request) => request.signatureValid)).toBe(true);
      expect(perEvent.size).toBe(EVENTS);
      expect(
        [...perEvent.values()].every((count) => count === 1),
        [...perEvent.values()].join(),
      ).toBe(true);
    } finally {
      await direct.close();
      await receiver.close();
    }
  });

  it("stays within its time budget", () => {
    const seconds = (performance.now() - suiteStarted) / 1000;
    recordFigures({
      instances_start_seconds: Number(startSeconds.toFixed(1)),
      suite_seconds: Number(seconds.toFixed(1)),
    });
    expect(seconds).toBeLessThan(120);
  });
});
