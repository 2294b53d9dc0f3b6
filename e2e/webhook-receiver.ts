import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** A receiver that checks every signature with the secret the page shows, and keeps each body. */
export async function startWebhookReceiver(secret: () => string) {
  const received: { event: string; valid: boolean; body: string }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(request.headers["x-pressguard-signature"]));
      const expected = createHmac("sha256", secret()).update(`${match?.[1]}.${body}`).digest();
      const valid = Boolean(match) && timingSafeEqual(expected, Buffer.from(match?.[2] ?? "", "hex"));
      received.push({ event: String(request.headers["x-pressguard-event"]), valid, body });
      response.writeHead(valid ? 200 : 401, { "content-type": "text/plain" });
      response.end(valid ? "received" : "bad signature");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/pressguard`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
