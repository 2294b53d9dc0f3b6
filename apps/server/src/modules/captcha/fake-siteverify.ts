import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** What the fake answers for a token: the token names the case. */
const ANSWERS: Record<string, (response: ServerResponse) => void> = {
  good: json({ success: true, score: 0.9, action: "submit", hostname: "localhost" }),
  "low-score": json({ success: true, score: 0.1, action: "submit", hostname: "localhost" }),
  "wrong-action": json({ success: true, score: 0.9, action: "login", hostname: "localhost" }),
  "v2-token": json({ success: true, hostname: "localhost" }),
  invalid: json({ success: false, "error-codes": ["invalid-input-response"] }),
  duplicate: json({ success: false, "error-codes": ["timeout-or-duplicate"] }),
  "bad-secret": json({ success: false, "error-codes": ["invalid-input-secret"] }),
  "not-json": (response) => response.writeHead(200, { "content-type": "text/html" }).end("<html>"),
  "server-error": (response) => response.writeHead(500).end("oops"),
  hang: () => {},
};

function json(body: unknown) {
  return (response: ServerResponse) =>
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
}

async function formOf(request: IncomingMessage): Promise<URLSearchParams> {
  let body = "";
  for await (const chunk of request) body += chunk;
  return new URLSearchParams(body);
}

/**
 * A stand-in for Google's siteverify on 127.0.0.1 (tests never reach Google). It answers by the
 * token's name (`good`, `low-score`, `hang`…) and records what it was asked.
 */
export async function startFakeSiteverify(secret: string) {
  const asked: { secret: string | null; response: string | null }[] = [];
  const server = createServer(async (request, response) => {
    const form = await formOf(request);
    asked.push({ secret: form.get("secret"), response: form.get("response") });
    if (request.method !== "POST" || form.get("secret") !== secret)
      return json({ success: false, "error-codes": ["invalid-input-secret"] })(response);
    const answer = ANSWERS[form.get("response") ?? ""] ?? ANSWERS.invalid;
    answer?.(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/recaptcha/api/siteverify`,
    asked,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
