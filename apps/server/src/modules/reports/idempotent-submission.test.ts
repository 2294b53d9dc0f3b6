import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { IDEMPOTENCY_MESSAGES } from "../../http/idempotency.ts";
import { registerUser } from "../../test/api-client.ts";
import { reportTestApp, sampleReport } from "./report-test-kit.ts";

const kit = reportTestApp();

const withKey = (key: string) => ({ headers: { "idempotency-key": key } });

async function reportsTitled(title: string) {
  const { rows } = await kit.harness.database.sql.query<{ id: string }>(
    "select id::text from reports where title = $1",
    [title],
  );
  return rows.map((row) => row.id);
}

describe("report submission with an Idempotency-Key (issue 15)", () => {
  it("answers a retry with the same key with the stored answer and files the report once", async () => {
    const researcher = await kit.researcherAccount();
    const title = `Idempotent ${randomUUID()}`;
    const key = randomUUID();
    const body = sampleReport({ title });
    const first = await researcher.caller.post("/api/reports", body, withKey(key));
    expect(first.statusCode, first.body).toBe(201);
    const retry = await researcher.caller.post("/api/reports", body, withKey(key));
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(retry.json()).toEqual(first.json());
    expect(await reportsTitled(title)).toEqual([first.json<{ id: string }>().id]);
  });

  it("keeps keys apart by caller: one key sent by two researchers files two reports", async () => {
    const [one, two] = [await kit.researcherAccount(), await kit.researcherAccount()];
    const title = `Two callers ${randomUUID()}`;
    const key = randomUUID();
    const body = sampleReport({ title });
    for (const [caller, sentKey] of [
      [one.caller, key],
      [two.caller, key],
      [one.caller, randomUUID()],
      [one.caller, key],
    ] as const)
      expect((await caller.post("/api/reports", body, withKey(sentKey))).statusCode).toBe(201);
    expect(await reportsTitled(title)).toHaveLength(3);
  });

  it("refuses a key reused for a different report with 422, and a duplicate sent at once files one report", async () => {
    const researcher = await kit.researcherAccount();
    const title = `Reused ${randomUUID()}`;
    const key = randomUUID();
    const body = sampleReport({ title });
    expect((await researcher.caller.post("/api/reports", body, withKey(key))).statusCode).toBe(201);
    const other = await researcher.caller.post(
      "/api/reports",
      { ...body, title: `${title} (another)` },
      withKey(key),
    );
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ message: IDEMPOTENCY_MESSAGES.reused });

    const concurrentTitle = `Concurrent ${randomUUID()}`;
    const concurrentKey = randomUUID();
    const concurrentBody = sampleReport({ title: concurrentTitle });
    const answers = await Promise.all(
      [1, 2, 3].map(() => researcher.caller.post("/api/reports", concurrentBody, withKey(concurrentKey))),
    );
    for (const answer of answers) {
      expect([201, 409], answer.body).toContain(answer.statusCode);
      if (answer.statusCode === 409)
        expect(answer.json()).toMatchObject({ message: IDEMPOTENCY_MESSAGES.inProgress });
    }
    expect(await reportsTitled(concurrentTitle)).toHaveLength(1);
  });

  it("frees the key of a refused request, so that the same key may be sent again", async () => {
    const unverified = await registerUser(kit.harness.app, { role: "researcher" });
    const title = `Freed ${randomUUID()}`;
    const key = randomUUID();
    const body = sampleReport({ title });
    const refused = await unverified.caller.post("/api/reports", body, withKey(key));
    expect(refused.statusCode).toBe(403);
    await kit.harness.database.sql.query("update users set email_verified_at = now() where email = $1", [
      unverified.email,
    ]);
    const accepted = await unverified.caller.post("/api/reports", body, withKey(key));
    expect(accepted.statusCode, accepted.body).toBe(201);
    expect(accepted.headers["idempotent-replayed"]).toBeUndefined();
    expect(await reportsTitled(title)).toHaveLength(1);
  });

  it("scopes a signed-out reporter's key to their client, and refuses a malformed key with 400", async () => {
    const reporter = kit.anonymous();
    const title = `Signed out ${randomUUID()}`;
    const key = randomUUID();
    const body = sampleReport({ title, email: `idem-${randomUUID()}@example.test` });
    const first = await reporter.post("/api/reports", body, withKey(key));
    expect(first.statusCode, first.body).toBe(201);
    const retry = await reporter.post("/api/reports", body, withKey(key));
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.json<{ id: string }>().id).toBe(first.json<{ id: string }>().id);
    expect(await reportsTitled(title)).toHaveLength(1);

    const malformed = await reporter.post("/api/reports", body, withKey("two words"));
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ message: IDEMPOTENCY_MESSAGES.invalid });
  });
});
