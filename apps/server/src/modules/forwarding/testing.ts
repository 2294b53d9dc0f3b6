import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { App } from "../../app.ts";
import type { Database } from "../../db/client.ts";
import { type ApiCaller, createApiCaller, registerUser } from "../../test/api-client.ts";
import { createSessionSecret } from "../../test/staff.ts";
import { sampleValidation as kitSampleValidation, reportTestKit } from "../reports/report-test-kit.ts";

/** Test support for report forwarding: a real webhook receiver; the report steps come from the report kit. */

interface Received {
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

export const sampleValidation = kitSampleValidation({ fixed_version: "2.4.2" });

/**
 * The report kit's steps on an app built by hand (the delivery tests restart theirs); a step
 * throws when it needs a part not given.
 */
function kitOn(parts: { app?: App; database?: Database; staff?: ApiCaller }) {
  const needed = <T>(part: T | undefined, name: string) => {
    if (!part) throw new Error(`this step needs ${name}`);
    return part;
  };
  return reportTestKit(
    () => ({ app: needed(parts.app, "the app"), database: needed(parts.database, "the database") }),
    () => needed(parts.staff, "a staff caller"),
  );
}

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

/** A vendor owner with an active program for `slug`, on `plan`. */
export async function vendorWithProgram(app: App, database: Database, slug: string, plan = "premium") {
  return kitOn({ app, database }).vendorWithProgram(slug, { plan });
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
  const kit = kitOn({ app, database });
  const researcher = await kit.researcherAccount();
  const { id } = await kit.submit(researcher.caller, { product_slug: slug });
  return { id, researcher };
}

export async function transition(staff: ApiCaller, id: string, body: Record<string, unknown>) {
  return kitOn({ staff }).transition(id, body);
}
