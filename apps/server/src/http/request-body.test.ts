import type { AddressInfo } from "node:net";
import Fastify from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { registerErrorHandlers } from "./error-handler.ts";

const apps: ReturnType<typeof Fastify>[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function listening() {
  const app = Fastify({ bodyLimit: 1_048_576 });
  apps.push(app);
  registerErrorHandlers(app);
  app.post("/", async () => ({ ok: true }));
  app.post("/small", { bodyLimit: 1024 }, async () => ({ ok: true }));
  await app.listen({ port: 0, host: "127.0.0.1" });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** Issue 38: a 2 MB string or a 12 MB body ended in a reset connection (EPIPE) rather than a 413. */
describe("an oversized request body", () => {
  it.each([
    ["a 2 MB JSON string", JSON.stringify({ title: "a".repeat(2_000_000) }), "/", "1 MB"],
    ["a 12 MB body", "a".repeat(12_000_000), "/", "1 MB"],
    ["a 4 KB body on a route that takes 1 KB", "a".repeat(4096), "/small", "1 KB"],
  ])("%s gets a 413 with a message the client can read, over a real socket", async (_, body, path, limit) => {
    const origin = await listening();
    const answer = await fetch(`${origin}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    expect(answer.status).toBe(413);
    expect(await answer.json()).toEqual({
      status: "error",
      message: `The request body is larger than the ${limit} this address accepts.`,
    });
    // The connection stays usable: the rest of the body was read, not left on the socket.
    expect(
      (
        await fetch(`${origin}/`, {
          method: "POST",
          body: "{}",
          headers: { "content-type": "application/json" },
        })
      ).status,
    ).toBe(200);
  });

  it("sent in chunks without a length, is refused the same way", async () => {
    const origin = await listening();
    let sent = 0;
    const chunks = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 40) controller.enqueue(new Uint8Array(100_000).fill(97));
        else controller.close();
      },
    });
    const answer = await fetch(origin, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: chunks,
      duplex: "half",
    } as RequestInit);
    expect(answer.status).toBe(413);
  });
});
