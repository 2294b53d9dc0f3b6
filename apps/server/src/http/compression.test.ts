import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importVulnerabilities } from "../db/import.ts";
import { SMASH_BALLOON_XSS } from "../db/import-fixtures.ts";
import { createTestApp } from "../test/app.ts";
import { osvExportReady } from "../test/osv-export.ts";
import { writeWebBuild } from "../test/tiny-web-build.ts";
import { acceptedEncoding } from "./compression.ts";

const decode = (encoding: unknown, body: Buffer) =>
  encoding === "br" ? brotliDecompressSync(body) : encoding === "gzip" ? gunzipSync(body) : body;

describe("response compression", () => {
  const buildDir = mkdtempSync(join(tmpdir(), "pressguard-web-build-"));
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    writeWebBuild(buildDir);
    harness = await createTestApp({}, { mode: "production", buildDir });
    await importVulnerabilities(harness.database, [JSON.stringify(SMASH_BALLOON_XSS)]);
  });
  afterAll(async () => {
    await harness.close();
    rmSync(buildDir, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string, headers: Record<string, string> = {}) =>
    harness.app.inject({
      method: "GET",
      url,
      headers: { ...(acceptEncoding !== undefined && { "accept-encoding": acceptEncoding }), ...headers },
    });

  const cases = [
    { what: "a server-rendered page", url: "/vdp/login", type: /^text\/html/ },
    { what: "a stored public page", url: "/database", type: /^text\/html/ },
    { what: "a script of the build", url: "/assets/app-1a2b3c.js", type: /javascript/ },
    { what: "a stylesheet of the build", url: "/assets/app-1a2b3c.css", type: /^text\/css/ },
    { what: "a JSON answer", url: "/api/openapi.json", type: /^application\/json/ },
    { what: "a stored JSON answer", url: `/api/v1/vulnerabilities/${SMASH_BALLOON_XSS.id}`, type: /json/ },
  ];

  it("sends the OSV bulk export as its stored gzip file, never compressed again (decision 027)", async () => {
    await osvExportReady(harness.app, harness.database);
    const plain = await get("/api/v1/osv");
    expect(plain.statusCode).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    for (const accepted of ["gzip", "br, gzip, deflate", "*"]) {
      const compressed = await get("/api/v1/osv", accepted);
      expect(compressed.headers["content-encoding"]).toBe("gzip");
      expect(String(compressed.headers.vary)).toMatch(/accept-encoding/i);
      expect(gunzipSync(compressed.rawPayload).toString()).toBe(plain.body);
    }
    // Brotli only: the file is not recompressed per request; the lines go as they are.
    expect((await get("/api/v1/osv", "br")).headers["content-encoding"]).toBeUndefined();
  });

  for (const { what, url, type } of cases) {
    it(`sends ${what} compressed as the request accepts, and as it is otherwise`, async () => {
      const plain = await get(url);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers["content-type"]).toMatch(type);
      expect(plain.headers["content-encoding"]).toBeUndefined();
      for (const encoding of ["br", "gzip"]) {
        // Twice: the second answer of a stored page or JSON answer comes from the store.
        for (let attempt = 0; attempt < 2; attempt += 1) {
          const compressed = await get(url, `${encoding}, deflate`);
          expect(compressed.statusCode).toBe(200);
          expect(compressed.headers["content-encoding"]).toBe(encoding);
          expect(String(compressed.headers.vary)).toMatch(/accept-encoding/i);
          expect(compressed.headers["content-type"]).toMatch(type);
          expect(decode(encoding, compressed.rawPayload).toString()).toBe(plain.body);
          expect(compressed.rawPayload.length).toBeLessThan(plain.rawPayload.length);
        }
      }
      expect((await get(url, "identity")).headers["content-encoding"]).toBeUndefined();
      expect((await get(url, "br;q=0, gzip;q=0")).headers["content-encoding"]).toBeUndefined();
    });
  }

  it("sends the batch check's answer compressed", async () => {
    const items = Array.from({ length: 30 }, (_, index) => ({
      kind: "plugin",
      slug: "custom-facebook-feed",
      version: `4.0.${index}`,
    }));
    const response = await harness.app.inject({
      method: "POST",
      url: "/api/v1/check",
      payload: { items },
      headers: { "accept-encoding": "gzip" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(response.rawPayload).toString()).results).toHaveLength(30);
  });

  it("leaves tiny answers alone", async () => {
    const response = await get("/healthz", "br, gzip");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-encoding"]).toBeUndefined();
  });

  it("keeps build files cached for a year, and stored answers revalidating with their ETag", async () => {
    const script = await get("/assets/app-1a2b3c.js", "br");
    expect(script.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    for (const url of ["/database", `/api/v1/vulnerabilities/${SMASH_BALLOON_XSS.id}`]) {
      const first = await get(url, "br");
      expect(first.headers.etag).toBeTruthy();
      const revalidated = await get(url, "br", { "if-none-match": String(first.headers.etag) });
      expect(revalidated.statusCode).toBe(304);
      expect(revalidated.body).toBe("");
    }
  });
});

describe("the accepted encoding", () => {
  it("prefers brotli, follows the qualities, and falls back to identity", () => {
    expect(acceptedEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(acceptedEncoding("gzip")).toBe("gzip");
    expect(acceptedEncoding("br;q=0.5, gzip;q=1")).toBe("gzip");
    expect(acceptedEncoding("*")).toBe("br");
    expect(acceptedEncoding("*;q=0, gzip")).toBe("gzip");
    expect(acceptedEncoding("identity")).toBeNull();
    expect(acceptedEncoding("br;q=0, gzip;q=0")).toBeNull();
    expect(acceptedEncoding(undefined)).toBeNull();
  });
});
