import Fastify from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { DATABASE_RETRY_AFTER_SECONDS } from "../db/connection-errors.ts";
import { registerErrorHandlers } from "./error-handler.ts";

const apps: ReturnType<typeof Fastify>[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** An app whose one route fails with `error`, as a route meeting the database would. */
function failingWith(error: Error) {
  const app = Fastify();
  apps.push(app);
  registerErrorHandlers(app);
  app.get("/", async () => {
    throw error;
  });
  return app;
}

function withCode(message: string, code: string) {
  return Object.assign(new Error(message), { code });
}

describe("database faults in the error handler", () => {
  it.each([
    [
      "a restart of PostgreSQL (57P01)",
      withCode("terminating connection due to administrator command", "57P01"),
    ],
    ["a server starting up (57P03)", withCode("the database system is starting up", "57P03")],
    ["a refused connection", withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED")],
    ["a connection that ended", new Error("Connection terminated unexpectedly")],
    [
      "a driver error wrapped by Drizzle",
      new Error("Failed query: select 1", { cause: withCode("terminating connection", "57P01") }),
    ],
  ])("answers %s with 503 and Retry-After", async (_case, error) => {
    const response = await failingWith(error).inject({ method: "GET", url: "/" });
    expect(response.statusCode).toBe(503);
    expect(response.headers["retry-after"]).toBe(String(DATABASE_RETRY_AFTER_SECONDS));
    expect(response.json()).toEqual({ status: "error", message: "The service is temporarily unavailable." });
  });

  it("still answers any other database error with 500", async () => {
    const response = await failingWith(withCode("division by zero", "22012")).inject({
      method: "GET",
      url: "/",
    });
    expect(response.statusCode).toBe(500);
    expect(response.headers["retry-after"]).toBeUndefined();
  });
});
