import { randomUUID } from "node:crypto";

/** What the fault tests do through the API: a signed-in researcher and a report's body. */

import { withAdminClient } from "../apps/server/src/db/test-database.ts";

export const withDatabase = withAdminClient;

/** Registers a researcher on the server at `base`, verifies their address, answers their token. */
export async function researcherToken(base: string, databaseUrl: string): Promise<string> {
  const email = `fault-${randomUUID()}@example.test`;
  const response = await fetch(`${base}/api/register`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({
      name: "Fault Suite",
      email,
      password: "correct horse battery",
      role: "researcher",
      token: true,
    }),
  });
  // Registration signs nobody in (decision 020): the address is confirmed here, then the token comes
  // from a token-mode sign-in.
  if (response.status !== 202) throw new Error(`register: ${response.status} ${await response.text()}`);
  await withDatabase(databaseUrl, (client) =>
    client.query("update users set email_verified_at = now() where email = $1", [email]),
  );
  const login = await fetch(`${base}/api/login`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ email, password: "correct horse battery", token: true }),
  });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`);
  const { token } = (await login.json()) as { token: string };
  return token;
}

export const reportBody = (title: string, productIndex = 0) => ({
  kind: "plugin",
  product_slug: `fault-suite-${productIndex}`,
  product_name: "Fault Suite Plugin",
  affected_version_prefix: "<=",
  affected_version: "1.0.0",
  vulnerability_type: 2,
  owasp_category: 43,
  required_privilege: 3,
  title,
  description: "Submitted by the fault suite while something fails.",
  steps_to_reproduce: "1. Make something fail. 2. Submit reports meanwhile.",
  proof_of_concept: "Every report is stored once, whatever the failure cuts.",
});

export const jsonHeaders = (token: string, extra: Record<string, string> = {}) => ({
  "content-type": "application/json",
  accept: "application/json",
  authorization: `Bearer ${token}`,
  ...extra,
});

/** What a run of submissions under a fault counted. */
export interface SubmissionFigures {
  acknowledged: number;
  failed: number;
  retries: number;
  unavailable503: number;
  inProgress409: number;
}

/**
 * `count` signed-in report submissions titled `${titlePrefix}${index}`, `concurrency` at a time, the
 * n-th to server `bases[n % bases.length]`, as the web client sends them: each with an
 * Idempotency-Key, retried with it every 200 ms on a network error, a 503 (which must carry
 * Retry-After) or a 409 (its first attempt still holding the key), for up to `giveUpMs`.
 * `onAcknowledged(n)` is called with the running count of 201s (the tests start their fault there).
 */
export async function submitUnderFault(options: {
  bases: string[];
  token: string;
  titlePrefix: string;
  count: number;
  concurrency: number;
  giveUpMs: number;
  serverEnded: (base: string) => boolean;
  onAcknowledged?: (acknowledged: number) => void;
}): Promise<{ figures: SubmissionFigures; failures: string[] }> {
  const figures: SubmissionFigures = {
    acknowledged: 0,
    failed: 0,
    retries: 0,
    unavailable503: 0,
    inProgress409: 0,
  };
  const failures: string[] = [];
  async function submit(index: number) {
    const base = options.bases[index % options.bases.length]!;
    const key = randomUUID();
    const body = JSON.stringify(reportBody(`${options.titlePrefix}${index}`, index % 20));
    const startedAt = Date.now();
    for (;;) {
      let status: number | string;
      try {
        const response = await fetch(`${base}/api/reports`, {
          method: "POST",
          headers: jsonHeaders(options.token, { "idempotency-key": key }),
          body,
        });
        status = response.status;
        const text = await response.text();
        if (status === 201) {
          figures.acknowledged += 1;
          options.onAcknowledged?.(figures.acknowledged);
          return;
        }
        if (status === 503) {
          figures.unavailable503 += 1;
          if (!/^\d+$/.test(response.headers.get("retry-after") ?? "")) {
            failures.push(`#${index}: a 503 without Retry-After`);
          }
        }
        if (status === 409) figures.inProgress409 += 1;
        if (status !== 409 && status !== 503) {
          failures.push(`#${index}: ${status} ${text.slice(0, 200)}`);
          figures.failed += 1;
          return;
        }
      } catch (error) {
        status = String((error as Error).cause ?? error);
      }
      if (options.serverEnded(base) || Date.now() - startedAt > options.giveUpMs) {
        failures.push(`#${index}: gave up after ${status}`);
        figures.failed += 1;
        return;
      }
      figures.retries += 1;
      await new Promise((done) => setTimeout(done, 200));
    }
  }
  let next = 0;
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (next < options.count) await submit(next++);
    }),
  );
  return { figures, failures };
}
