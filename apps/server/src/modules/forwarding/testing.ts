import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { App } from "../../app.ts";
import type { Database } from "../../db/client.ts";
import { type ApiCaller, createApiCaller, registerUser } from "../../test/api-client.ts";
import { createSessionSecret } from "../../test/staff.ts";

/** Test support for report forwarding: a real webhook receiver and the report lifecycle steps. */

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  signatureValid: boolean;
  answered: number;
}

/** Checks a `t=…,v1=…` header the way a receiver should (documented on the forwarding page). */
export function verifySignature(secret: string, header: string | undefined, body: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? "");
  if (!match) return false;
  const expected = createHmac("sha256", secret).update(`${match[1]}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(match[2] ?? "", "hex"));
}

/**
 * A node:http receiver on 127.0.0.1 that verifies every signature with `secret()` and answers
 * with `statusFor(request index for that event id)`.
 */
export async function startReceiver(
  options: {
    secret?: () => string;
    statusFor?: (attemptOfEvent: number) => number;
    handle?: (response: ServerResponse) => boolean;
  } = {},
) {
  const received: Received[] = [];
  const perEvent = new Map<string, number>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      if (options.handle?.(response)) return;
      const eventId = String(request.headers["x-pressguard-event-id"]);
      const attempt = (perEvent.get(eventId) ?? 0) + 1;
      perEvent.set(eventId, attempt);
      const signatureValid = options.secret
        ? verifySignature(options.secret(), request.headers["x-pressguard-signature"] as string, body)
        : false;
      const answered = signatureValid || !options.secret ? (options.statusFor?.(attempt) ?? 200) : 401;
      received.push({ headers: request.headers, body, signatureValid, answered });
      response.writeHead(answered, { "content-type": "text/plain" });
      response.end(answered === 200 ? "ok" : `status ${answered}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function waitFor<T>(
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 15_000,
) {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error("waitFor timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const sampleReport = (slug: string) => ({
  kind: "plugin",
  product_slug: slug,
  product_name: "Acme Gallery",
  affected_version_prefix: "<=",
  affected_version: "2.4.1",
  vulnerability_type: 2,
  owasp_category: 43,
  required_privilege: 3,
  title: "Stored XSS through the widget title",
  description: "The widget title is printed on the front end without escaping.",
  steps_to_reproduce: "1. Log in as a contributor. 2. Add the widget. 3. Put a script in its title.",
  proof_of_concept: "Title: <script>alert(document.domain)</script> — runs for every visitor.",
});

export const sampleValidation = {
  action: "validate",
  vulnerability_type: 2,
  owasp_category: 43,
  required_privilege: 3,
  affected_version_prefix: "<=",
  affected_version: "2.4.1",
  fixed_version: "2.4.2",
  cvss_vector: "CVSS:3.1/AV:N/AC:L/PR:L/UI:R/S:C/C:L/I:L/A:N",
};

let ipCounter = 0;
const nextIp = () => {
  ipCounter += 1;
  return `10.61.${Math.floor(ipCounter / 250) % 250}.${ipCounter % 250}`;
};

/** A caller of `app` signed in as `userId` (a session made directly, so it survives an app restart). */
export async function callerFor(app: App, database: Database, userId: number): Promise<ApiCaller> {
  const caller = createApiCaller(app, { ip: nextIp() });
  caller.cookies.set("pressguard_session", (await createSessionSecret(database, userId)).secret);
  return caller;
}

/** A vendor owner with an active program for `slug`, optionally on premium. */
export async function vendorWithProgram(app: App, database: Database, slug: string, plan = "premium") {
  const vendor = await registerUser(app, { role: "vendor", ip: nextIp() });
  await database.sql.query("update users set email_verified_at = now() where email = $1", [vendor.email]);
  const created = await vendor.caller.post("/api/products", {
    kind: "plugin",
    name: "Acme Gallery",
    product_url: "https://acme.example/gallery",
    slug,
    vendor_website_url: "https://acme.example",
  });
  if (created.statusCode !== 201) throw new Error(`product: ${created.statusCode} ${created.body}`);
  const productId = created.json<{ id: number }>().id;
  const activated = await vendor.caller.post(`/api/products/${productId}/activate-product`, {
    is_lobby_product: false,
  });
  if (activated.statusCode !== 200) throw new Error(`activate: ${activated.statusCode} ${activated.body}`);
  const { rows } = await database.sql.query<{ vendor_id: number }>(
    "select vendor_id from vendor_members where user_id = $1",
    [vendor.user.id],
  );
  const vendorId = rows[0]?.vendor_id ?? 0;
  await database.sql.query("update vendors set plan = $2 where id = $1", [vendorId, plan]);
  return { ...vendor, vendorId };
}

/** Another seat in `vendorId` with `role`. */
export async function seatIn(app: App, database: Database, vendorId: number, role: "admin" | "member") {
  const user = await registerUser(app, { role: "researcher", ip: nextIp() });
  await database.sql.query("insert into vendor_members (vendor_id, user_id, role) values ($1, $2, $3)", [
    vendorId,
    user.user.id,
    role,
  ]);
  return user;
}

/** A verified researcher who submits a report on `slug`; answers the report id. */
export async function submitReport(app: App, database: Database, slug: string) {
  const researcher = await registerUser(app, { role: "researcher", ip: nextIp() });
  await database.sql.query("update users set email_verified_at = now() where email = $1", [researcher.email]);
  const response = await researcher.caller.post("/api/reports", sampleReport(slug));
  if (response.statusCode !== 201) throw new Error(`report: ${response.statusCode} ${response.body}`);
  return { id: response.json<{ id: string }>().id, researcher };
}

export async function transition(staff: ApiCaller, id: string, body: Record<string, unknown>) {
  const response = await staff.post(`/api/staff/reports/${id}/transitions`, body);
  if (response.statusCode !== 200) throw new Error(`transition: ${response.statusCode} ${response.body}`);
  return response.json<{ status: string }>();
}
