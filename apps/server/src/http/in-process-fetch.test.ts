import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "../test/app.ts";
import { inProcessFetch } from "./in-process-fetch.ts";

/**
 * The `fetch` a page action's server-side call is answered by (issue 36): the app's own answer, in
 * process — status, headers (every Set-Cookie), body — as the same request over a socket would get.
 */
describe("in-process fetch", () => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  let apiFetch: typeof fetch;

  beforeAll(async () => {
    harness = await createTestApp();
    apiFetch = inProcessFetch(harness.app);
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("posts a JSON body and answers the route's status, headers and body", async () => {
    const body = JSON.stringify({ items: [{ kind: "plugin", slug: "akismet", version: "1.0" }] });
    const response = await apiFetch("http://pressguard.internal/api/v1/check", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    const injected = await harness.app.inject({
      method: "POST",
      url: "/api/v1/check",
      headers: { "content-type": "application/json" },
      payload: body,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    expect(await response.json()).toStrictEqual(injected.json());
  });

  it("keeps every Set-Cookie of the answer, and an error's status and JSON body", async () => {
    const csrf = await apiFetch("http://pressguard.internal/api/csrf-cookie");
    expect(csrf.headers.getSetCookie().length).toBeGreaterThan(0);
    const missing = await apiFetch("http://pressguard.internal/api/no-such-route?x=1");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ status: "error" });
    const refused = await apiFetch("http://pressguard.internal/api/v1/check", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ items: "nope" }),
    });
    expect(refused.status).toBe(422);
  });

  it("fails as fetch fails when the caller gives up (its timeout)", async () => {
    const controller = new AbortController();
    controller.abort(new Error("gave up"));
    await expect(
      apiFetch("http://pressguard.internal/api/csrf-cookie", { signal: controller.signal }),
    ).rejects.toThrow("gave up");
  });
});
