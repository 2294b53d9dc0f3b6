import { describe, expect, it } from "vitest";
import { API_KEY_SCOPE_MESSAGE } from "../../http/access.ts";
import { type ApiCaller, createApiCaller, uniqueEmail } from "../../test/api-client.ts";
import { createStaffCaller } from "../../test/staff.ts";
import { reportTestApp, sampleReport } from "./report-test-kit.ts";

/**
 * Issue 38: the report routes also answer callers who are not signed in (an e-mailed link's token, a
 * signed-out reporter), so a key of any scope once acted there as its owner: a site owner's
 * monitoring key read, commented on and filed reports.
 */
const kit = reportTestApp();
const UNKNOWN_REPORT = "00000000-0000-4000-8000-000000000000";
const BOUNDARY = "----key-scopes-boundary";

async function keyOf(owner: ApiCaller, scopes: string[]) {
  const created = await owner.post("/api/api-keys", { name: "script", scopes, expires_in_days: 30 });
  expect(created.statusCode, created.body).toBe(201);
  const script = createApiCaller(kit.harness.app);
  script.setBearer(created.json<{ key: string }>().key);
  return script;
}

async function attach(caller: ApiCaller, reportId: string) {
  const attached = await caller.post(
    `/api/reports/${reportId}/attachments`,
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="poc.txt"\r\nContent-Type: text/plain\r\n\r\nproof\r\n--${BOUNDARY}--\r\n`,
    { headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` } },
  );
  expect(attached.statusCode, attached.body).toBe(201);
  return attached.json<{ id: string }>().id;
}

const refusedByScope = (answer: { statusCode: number; json(): unknown }) => {
  expect(answer.statusCode).toBe(403);
  expect(answer.json()).toEqual({ status: "error", message: API_KEY_SCOPE_MESSAGE });
};

describe("an API key on the report routes (issue 38)", () => {
  it("a watchlists key neither reads, comments on nor downloads its owner's report, and an unknown id is refused alike", async () => {
    const researcher = await kit.researcherAccount();
    const { id } = await kit.submit(researcher.caller);
    const attachmentId = await attach(researcher.caller, id);
    const monitor = await keyOf(researcher.caller, ["watchlists"]);

    refusedByScope(await monitor.get(`/api/reports/${id}`));
    refusedByScope(await monitor.get(`/api/reports/${UNKNOWN_REPORT}`));
    refusedByScope(await monitor.post(`/api/reports/${id}/comments`, { body: "From a monitoring script." }));
    refusedByScope(await monitor.post(`/api/reports/${UNKNOWN_REPORT}/comments`, { body: "Anyone there?" }));
    refusedByScope(await monitor.get(`/api/reports/${id}/attachments/${attachmentId}`));

    // The owner's researcher key does all of it.
    const own = await keyOf(researcher.caller, ["researcher"]);
    expect((await own.get(`/api/reports/${id}`)).statusCode).toBe(200);
    expect((await own.get(`/api/reports/${id}/attachments/${attachmentId}`)).statusCode).toBe(200);
    expect((await own.get(`/api/reports/${UNKNOWN_REPORT}`)).statusCode).toBe(404);
    const comments = (await researcher.caller.get(`/api/reports/${id}`)).json<{ comments: unknown[] }>();
    expect(comments.comments).toEqual([]);
  });

  it("files no report with a key without the researcher scope: neither as its owner nor signed out", async () => {
    const researcher = await kit.researcherAccount();
    const vendor = await kit.vendorWithProgram(`key-scopes-${Math.random().toString(36).slice(2, 8)}`);
    const staff = await createStaffCaller(kit.harness.app, kit.harness.database);
    const keys = [
      await keyOf(researcher.caller, ["watchlists"]),
      await keyOf(researcher.caller, ["read"]),
      await keyOf(vendor.caller, ["vendor", "read"]),
      await keyOf(staff, ["watchlists", "read"]),
    ];
    const reportCount = async () =>
      (await kit.harness.database.sql.query<{ count: number }>("select count(*)::int as count from reports"))
        .rows[0]?.count;
    const before = await reportCount();
    for (const key of keys)
      refusedByScope(await key.post("/api/reports", sampleReport({ email: uniqueEmail("key-report") })));
    expect(await reportCount()).toBe(before);

    const filed = await (await keyOf(researcher.caller, ["researcher"])).post("/api/reports", sampleReport());
    expect(filed.statusCode, filed.body).toBe(201);
  });

  it("a vendor key of an account that also reports does not read that account's own reports", async () => {
    const vendor = await kit.vendorWithProgram(`key-scopes-${Math.random().toString(36).slice(2, 8)}`);
    // Filing signed in makes the vendor's account a researcher too.
    const { id } = await kit.submit(vendor.caller);
    expect((await (await keyOf(vendor.caller, ["researcher"])).get(`/api/reports/${id}`)).statusCode).toBe(
      200,
    );
    expect((await (await keyOf(vendor.caller, ["vendor"])).get(`/api/reports/${id}`)).statusCode).toBe(404);
  });
});
