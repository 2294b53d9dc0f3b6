import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Fastify from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { AppError } from "../errors.ts";
import { registerErrorHandlers } from "./error-handler.ts";
import { createErrorReporter, type ErrorReporter } from "./error-reporting.ts";

/** What a Sentry server receives: one parsed envelope per POST, with the path it was sent to. */
interface Received {
  path: string;
  items: unknown[];
  raw: string;
}

/** A stand-in for Sentry's ingestion endpoint: the real SDK sends real envelopes over HTTP to it. */
async function startIngest() {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const items = raw
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as unknown);
      received.push({ path: request.url ?? "", items, raw });
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { received, dsn: `http://publickey@127.0.0.1:${port}/7`, close: () => server.close() };
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function appReportingTo(reporter: ErrorReporter) {
  const app = Fastify();
  cleanups.push(() => app.close());
  registerErrorHandlers(app, reporter);
  app.get("/api/reports/:id", async (request) => {
    const { id } = request.params as { id: string };
    if (id === "missing") throw new AppError("not_found", { message: "Report not found." });
    if (id === "invalid") throw new AppError("validation", { message: "Invalid." });
    throw new Error("the database answered nonsense");
  });
  return app;
}

const events = (received: Received[]) =>
  received.flatMap(({ items }) =>
    items.filter((item): item is { exception: { values: { value: string }[] }; tags: object } =>
      Boolean(item && typeof item === "object" && "exception" in item),
    ),
  );

describe("server error reporting (Sentry SDK)", () => {
  it("sends a 5xx to the DSN's project, with the route's pattern and no credentials", async () => {
    const ingest = await startIngest();
    cleanups.push(ingest.close);
    const reporter = await createErrorReporter({ dsn: ingest.dsn, release: "build-42" });
    const app = await appReportingTo(reporter);

    const response = await app.inject({
      method: "GET",
      url: "/api/reports/1234?token=query-secret",
      headers: { cookie: "pressguard_session=cookie-secret", authorization: "Bearer header-secret" },
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).not.toHaveProperty("stack");
    await reporter.close();

    const [event, ...others] = events(ingest.received);
    expect(others).toEqual([]);
    expect(event).toMatchObject({
      release: "build-42",
      exception: { values: [{ value: "the database answered nonsense" }] },
      tags: { status: "500", method: "GET", route: "/api/reports/:id" },
    });
    expect(ingest.received.every(({ path }) => path.startsWith("/api/7/envelope/"))).toBe(true);
    const everything = ingest.received.map(({ raw }) => raw).join("\n");
    for (const secret of ["query-secret", "cookie-secret", "header-secret", "/api/reports/1234"]) {
      expect(everything).not.toContain(secret);
    }
  });

  it("does not send 4xx answers", async () => {
    const ingest = await startIngest();
    cleanups.push(ingest.close);
    const reporter = await createErrorReporter({ dsn: ingest.dsn });
    const app = await appReportingTo(reporter);

    expect((await app.inject({ method: "GET", url: "/api/reports/missing" })).statusCode).toBe(404);
    expect((await app.inject({ method: "GET", url: "/api/reports/invalid" })).statusCode).toBe(422);
    expect((await app.inject({ method: "GET", url: "/no/such/route" })).statusCode).toBe(404);
    await reporter.close();

    expect(events(ingest.received)).toEqual([]);
  });

  it("loads no SDK and sends nothing without a DSN", async () => {
    const reporter = await createErrorReporter({});
    const app = await appReportingTo(reporter);
    expect((await app.inject({ method: "GET", url: "/api/reports/1" })).statusCode).toBe(500);
    await reporter.close();
  });
});
