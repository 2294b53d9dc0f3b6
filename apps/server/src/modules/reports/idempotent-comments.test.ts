import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportTestApp, sampleReport } from "./report-test-kit.ts";

const kit = reportTestApp();

const withKey = (key: string) => ({ headers: { "idempotency-key": key } });

/**
 * A response lost after the comment committed — the connection reset, the process killed — is
 * simulated by a trigger that refuses to store an idempotent answer from any transaction other than
 * the one that wrote the comment: the store after the effect (the answer as it is sent) fails, as it
 * would if the database went away then.
 */
const REFUSE_ANSWERS_OUTSIDE_THE_COMMENT = [
  `create function test_refuse_late_answer() returns trigger language plpgsql as $$
  begin
    if old.response_status is null and new.response_status is not null and not exists (
      select 1 from report_comments where xmin::text = (txid_current() % 4294967296)::text
    ) then
      raise exception 'the answer could not be stored after the comment';
    end if;
    return new;
  end $$`,
  `create trigger test_refuse_late_answer before update on idempotency_keys
    for each row execute function test_refuse_late_answer()`,
];

async function commentsSaying(body: string) {
  const { rows } = await kit.harness.database.sql.query<{ n: number }>(
    "select count(*)::int as n from report_comments where body = $1",
    [body],
  );
  return rows[0]!.n;
}

describe("comments with an Idempotency-Key (issue 15)", () => {
  beforeAll(async () => {
    for (const statement of REFUSE_ANSWERS_OUTSIDE_THE_COMMENT)
      await kit.harness.database.sql.query(statement);
  });
  afterAll(async () => {
    await kit.harness.database.sql.query("drop trigger test_refuse_late_answer on idempotency_keys");
  });

  it("stores the answer with the comment: a retry after a lost response replays it and adds nothing", async () => {
    const researcher = await kit.researcherAccount();
    const submitted = await researcher.caller.post("/api/reports", sampleReport());
    expect(submitted.statusCode, submitted.body).toBe(201);
    const id = submitted.json<{ id: string }>().id;
    const body = `Is there an update? ${randomUUID()}`;
    const key = randomUUID();

    const first = await researcher.caller.post(`/api/reports/${id}/comments`, { body }, withKey(key));
    expect(first.statusCode, first.body).toBe(201);
    const retry = await researcher.caller.post(`/api/reports/${id}/comments`, { body }, withKey(key));
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(retry.json()).toEqual(first.json());
    expect(await commentsSaying(body)).toBe(1);
  });
});
