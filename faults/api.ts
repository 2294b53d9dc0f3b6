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
