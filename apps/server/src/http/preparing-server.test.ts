import { describe, expect, it } from "vitest";
import { PortInUseError, startPreparingServer } from "./preparing-server.ts";

describe("the preparing server (the port while the database is prepared)", () => {
  it("answers every page with 503, Retry-After and the import's progress, and the API with its error body", async () => {
    const server = await startPreparingServer({ host: "127.0.0.1", port: 0 });
    try {
      const base = `http://127.0.0.1:${server.port}`;
      server.update(12_000, 49_432);

      const page = await fetch(`${base}/database?q=xss`, { headers: { accept: "text/html" } });
      expect(page.status).toBe(503);
      expect(page.headers.get("retry-after")).toBe("5");
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const html = await page.text();
      expect(html).toContain("<title>Preparing the database | Pressguard</title>");
      expect(html).toContain("12,000 of 49,432 records imported");
      expect(html).toContain('http-equiv="refresh"');

      const api = await fetch(`${base}/api/user`, { headers: { accept: "text/html, application/json" } });
      expect(api.status).toBe(503);
      expect(await api.json()).toEqual({
        status: "error",
        message: "Pressguard is preparing its database: 12,000 of 49,432 records imported.",
      });
      expect((await fetch(`${base}/healthz`)).status).toBe(503);
    } finally {
      await server.close();
    }
  });

  it("says how far the copy of an earlier install's PGlite data is", async () => {
    const server = await startPreparingServer({ host: "127.0.0.1", port: 0 });
    try {
      server.copying(12, 40);
      const api = await fetch(`http://127.0.0.1:${server.port}/api/user`);
      expect(await api.json()).toEqual({
        status: "error",
        message:
          "Pressguard is preparing its database: 12 of 40 tables copied from the earlier embedded database.",
      });
    } finally {
      await server.close();
    }
  });

  it("frees its port when closed, so the application can listen on it", async () => {
    const server = await startPreparingServer({ host: "127.0.0.1", port: 0 });
    await server.close();
    const again = await startPreparingServer({ host: "127.0.0.1", port: server.port });
    await again.close();
    expect(again.port).toBe(server.port);
  });

  it("says which port is taken instead of failing with a stack trace", async () => {
    const server = await startPreparingServer({ host: "127.0.0.1", port: 0 });
    try {
      const second = startPreparingServer({ host: "127.0.0.1", port: server.port });
      await expect(second).rejects.toThrow(PortInUseError);
      await expect(second).rejects.toThrow(`Port ${server.port} on 127.0.0.1 is already in use`);
    } finally {
      await server.close();
    }
  });
});
