import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiCaller, uniqueEmail } from "../test/api-client.ts";
import { createTestApp } from "../test/app.ts";
import { UNSTORABLE_TEXT_MESSAGE } from "./error-handler.ts";

/**
 * Issue 15, finding 3: a NUL byte or bytes that are not UTF-8 in a path segment, a query or a body
 * are the caller's mistake, answered 422 with the API's error body, never a 500 or a stored U+FFFD.
 */
let harness: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(() => harness.close());

const refusal = { status: "error", message: UNSTORABLE_TEXT_MESSAGE };

describe("malformed input", () => {
  it.each([
    "/api/v1/products/wordpress/plugin/%00",
    "/api/v1/products/wordpress/plugin/a%00b",
    "/api/v1/vulnerabilities/%00",
    "/api/v1/vulnerabilities?q=%00",
    "/api/v1/vulnerabilities?q=xss%00",
    "/api/v1/vulnerabilities?q%00=x",
    "/api/v1/vulnerabilities?q=%ff",
    "/api/v1/vulnerabilities?q=%C3%28",
    "/api/v1/vulnerabilities?q=%ED%A0%80",
    "/api/v1/vulnerabilities?q=%",
    "/api/v1/osv?ecosystem=WordPress&name=%00",
    "/api/no-such-route/%00",
  ])("answers GET %s with 422", async (url) => {
    const answer = await harness.app.inject({ method: "GET", url });
    expect(answer.statusCode, answer.body).toBe(422);
    expect(answer.json()).toEqual(refusal);
  });

  it("still serves well-formed UTF-8, encoded or not, and a literal + or %25", async () => {
    for (const url of [
      "/api/v1/vulnerabilities?q=caf%C3%A9",
      "/api/v1/vulnerabilities?q=a+b&q2=%2B%25",
      "/api/v1/vulnerabilities?q=%F0%9F%94%92",
    ]) {
      const answer = await harness.app.inject({ method: "GET", url });
      expect(answer.statusCode, `${url} ${answer.body}`).toBe(200);
    }
  });

  const registration = (name: string) => ({
    name,
    email: uniqueEmail(),
    password: "long enough pw",
    role: "researcher",
  });

  it("answers a JSON body with a NUL character in any key or string with 422", async () => {
    const caller = createApiCaller(harness.app);
    for (const body of [
      registration("Eve\u0000"),
      { ...registration("Eve"), extra: { list: ["ok", "\u0000"] } },
      { ...registration("Eve"), "key\u0000": "x" },
    ]) {
      const answer = await caller.post("/api/register", body);
      expect(answer.statusCode, answer.body).toBe(422);
      expect(answer.json()).toEqual(refusal);
    }
  });

  it("answers a JSON body whose bytes are not UTF-8 with 422 instead of storing U+FFFD", async () => {
    const caller = createApiCaller(harness.app);
    const [before, after] = JSON.stringify(registration("Eve__")).split("__") as [string, string];
    const body = Buffer.concat([Buffer.from(before), Buffer.from([0xff, 0xfe]), Buffer.from(after)]);
    const answer = await caller.post("/api/register", body, {
      headers: { "content-type": "application/json; charset=utf-8" },
    });
    expect(answer.statusCode, answer.body).toBe(422);
    expect(answer.json()).toEqual(refusal);
    const stored = await harness.database.sql.query("select 1 from users where name like 'Eve%'");
    expect(stored.rows).toEqual([]);
    // Well-formed UTF-8 JSON still registers.
    expect((await caller.post("/api/register", registration("Ève 🔒"))).statusCode).toBe(202);
  });
});
