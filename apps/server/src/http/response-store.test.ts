import type { FastifyRequest } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bumpDataVersion, readDataVersion, watchDataVersion } from "../db/data-version.ts";
import { importVulnerabilities } from "../db/import.ts";
import { SMASH_BALLOON_XSS } from "../db/import-fixtures.ts";
import { createTestApp } from "../test/app.ts";
import { createResponseStore } from "./http-cache.ts";

describe("the data version", () => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(() => harness.close());

  it("starts at 0, is bumped by writes, and is seen by a watcher after a refresh", async () => {
    const watcher = await watchDataVersion(harness.database, 60_000);
    try {
      const before = Number(await readDataVersion(harness.database.sql));
      await bumpDataVersion(harness.database.sql);
      expect(watcher.current()).toBe(String(before));
      expect(await watcher.refresh()).toBe(String(before + 1));
      await importVulnerabilities(harness.database, [JSON.stringify(SMASH_BALLOON_XSS)]);
      expect(Number(await watcher.refresh())).toBe(before + 2);
    } finally {
      watcher.stop();
    }
  });
});

describe("public answers kept in memory", () => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp();
    await importVulnerabilities(harness.database, [JSON.stringify(SMASH_BALLOON_XSS)]);
  });
  afterAll(() => harness.close());

  const url = `/api/v1/vulnerabilities/${SMASH_BALLOON_XSS.id}`;

  it("answers a repeated read from memory until the data version changes", async () => {
    // The watcher polls every 2 s: wait for it to see the import of beforeAll.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const first = await harness.app.inject({ method: "GET", url });
    expect(first.statusCode).toBe(200);

    // Changed behind the application's back: the stored answer is still served…
    await harness.database.sql.query("update vulnerabilities set title = 'Changed' where id = $1", [
      SMASH_BALLOON_XSS.id,
    ]);
    const second = await harness.app.inject({ method: "GET", url });
    expect(second.body).toBe(first.body);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers["content-type"]).toBe(first.headers["content-type"]);

    // …and revalidates with a 304.
    const revalidated = await harness.app.inject({
      method: "GET",
      url,
      headers: { "if-none-match": first.headers.etag as string },
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe("");

    // A write that bumps the data version is seen by every instance within one poll.
    await bumpDataVersion(harness.database.sql);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const fresh = await harness.app.inject({ method: "GET", url });
    expect(fresh.json().title).toBe("Changed");
    expect(fresh.headers.etag).not.toBe(first.headers.etag);
  }, 15_000);

  it("never keeps a failure", async () => {
    const missing = "/api/v1/vulnerabilities/00000000-0000-4000-8000-000000000000";
    expect((await harness.app.inject({ method: "GET", url: missing })).statusCode).toBe(404);
    await importVulnerabilities(harness.database, [
      JSON.stringify({ ...SMASH_BALLOON_XSS, id: "00000000-0000-4000-8000-000000000000", cve: null }),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect((await harness.app.inject({ method: "GET", url: missing })).statusCode).toBe(200);
  }, 15_000);
});

describe("the response store's entries", () => {
  it("never keeps a bodiless answer (a HEAD's), which it would serve to every later GET", () => {
    const store = createResponseStore(() => "1");
    const request = { url: "/database/about-data?x=1" } as FastifyRequest;
    store.set(request, { payload: "", etag: '"e"', contentType: "text/html" });
    expect(store.get(request)).toBeUndefined();
    store.set(request, { payload: "<html></html>", etag: '"e"', contentType: "text/html" });
    expect(store.get(request)?.payload.toString()).toBe("<html></html>");
  });

  it("answers a HEAD of a cold API read with the GET's length, then serves the GET whole", async () => {
    const harness = await createTestApp();
    try {
      await importVulnerabilities(harness.database, [JSON.stringify(SMASH_BALLOON_XSS)]);
      const url = `/api/v1/vulnerabilities/${SMASH_BALLOON_XSS.id}?head=1`;
      const head = await harness.app.inject({ method: "HEAD", url });
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe("");
      const get = await harness.app.inject({ method: "GET", url });
      expect(get.json().id).toBe(SMASH_BALLOON_XSS.id);
      expect(Number(head.headers["content-length"])).toBe(Buffer.byteLength(get.body));
    } finally {
      await harness.close();
    }
  });
});
