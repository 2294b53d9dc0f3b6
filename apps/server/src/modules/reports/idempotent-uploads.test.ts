import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportTestApp, sampleReport } from "./report-test-kit.ts";

const kit = reportTestApp();

const BOUNDARY = "----pressguard-idempotent-upload";
const multipart = (filename: string, content: string) =>
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
      `Content-Type: text/plain\r\n\r\n${content}\r\n--${BOUNDARY}--\r\n`,
  );
const headers = (key: string) => ({
  headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}`, "idempotency-key": key },
});

/**
 * As for comments (idempotent-comments.test.ts): the answer stored after the upload committed is
 * refused, as if the response and the database went away then; only an answer stored in the upload's
 * own transaction survives.
 */
const REFUSE_ANSWERS_OUTSIDE_THE_UPLOAD = [
  `create function test_refuse_late_upload_answer() returns trigger language plpgsql as $$
  begin
    if old.response_status is null and new.response_status is not null and not exists (
      select 1 from report_attachments where xmin::text = (txid_current() % 4294967296)::text
    ) then
      raise exception 'the answer could not be stored after the upload';
    end if;
    return new;
  end $$`,
  `create trigger test_refuse_late_upload_answer before update on idempotency_keys
    for each row execute function test_refuse_late_upload_answer()`,
];

describe("attachment uploads with an Idempotency-Key (issue 15)", () => {
  beforeAll(async () => {
    for (const statement of REFUSE_ANSWERS_OUTSIDE_THE_UPLOAD)
      await kit.harness.database.sql.query(statement);
  });
  afterAll(async () => {
    await kit.harness.database.sql.query("drop trigger test_refuse_late_upload_answer on idempotency_keys");
  });

  it("stores the answer with the file: a retry after a lost response replays it and stores one file", async () => {
    const researcher = await kit.researcherAccount();
    const submitted = await researcher.caller.post("/api/reports", sampleReport());
    expect(submitted.statusCode, submitted.body).toBe(201);
    const id = submitted.json<{ id: string }>().id;
    const key = randomUUID();
    const body = multipart("poc.txt", `proof ${randomUUID()}`);

    const first = await researcher.caller.post(`/api/reports/${id}/attachments`, body, headers(key));
    expect(first.statusCode, first.body).toBe(201);
    const retry = await researcher.caller.post(`/api/reports/${id}/attachments`, body, headers(key));
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.headers["idempotent-replayed"]).toBe("true");
    expect(retry.json<{ id: string }>().id).toBe(first.json<{ id: string }>().id);
    const { rows } = await kit.harness.database.sql.query<{ n: number }>(
      "select count(*)::int as n from report_attachments where report_id = $1",
      [id],
    );
    expect(rows[0]!.n).toBe(1);
  });
});
