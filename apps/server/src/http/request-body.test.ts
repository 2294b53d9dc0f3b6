import { createServer, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import Fastify from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { registerErrorHandlers } from "./error-handler.ts";
import { type BodyRead, readBodyUpTo } from "./request-body.ts";

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

/** The web routes' form bodies (web.ts): read whole up to the limit, the rest discarded past it. */
describe("readBodyUpTo", () => {
  async function reading(limit: number) {
    const reads: Promise<BodyRead>[] = [];
    const server = createServer((request, response) => {
      const read = readBodyUpTo(request, limit);
      reads.push(read);
      void read.then((result) => response.end(result.ok ? "ok" : result.reason));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, reads };
  }
  const chunked = (count: number, size: number) => {
    let sent = 0;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < count) controller.enqueue(new Uint8Array(size).fill(97));
        else controller.close();
      },
    });
  };
  const post = (origin: string, body: ReadableStream<Uint8Array>) =>
    fetch(origin, { method: "POST", body, duplex: "half" } as RequestInit);

  it("reads a body under the limit whole, sent in chunks without a length", async () => {
    const { origin, reads } = await reading(10_000);
    expect(await (await post(origin, chunked(5, 1000))).text()).toBe("ok");
    const read = await reads[0];
    expect(read?.ok && read.body.length).toBe(5000);
  });

  it("refuses a body over the limit without a length, and reads the rest so the client gets the answer", async () => {
    const { origin, reads } = await reading(10_000);
    expect(await (await post(origin, chunked(30, 1000))).text()).toBe("too_large");
    expect(await reads[0]).toEqual({ ok: false, reason: "too_large", whole: true });
  });

  it("says aborted when the client breaks off", async () => {
    const { origin, reads } = await reading(10_000);
    const socket = connect(Number(new URL(origin).port), "127.0.0.1");
    socket.write("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\naaaa");
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    await expect.poll(() => reads.length).toBe(1);
    expect(await reads[0]).toEqual({ ok: false, reason: "aborted" });
  });
});

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});
