import { describe, expect, it } from "vitest";
import { type Detail, reportTestApp, TEST_PREVIEW_TOKEN_KEY } from "./report-test-kit.ts";

/** Issue 7: the holder of an e-mail link's token, or of the PIN credential, reads and writes comments. */

const kit = reportTestApp({ PREVIEW_TOKEN_KEY: TEST_PREVIEW_TOKEN_KEY });

describe("comments by the holder of a preview link", () => {
  it("lets the researcher's and the vendor's link post shared comments, never staff-only ones, and only on their report", async () => {
    const { id, vendor, researcher } = await kit.awaitingFixOnProgram();
    await kit.staff.post(`/api/reports/${id}/comments`, { body: "Staff only remark.", visibility: "staff" });
    const researcherToken = await kit.linkToken(researcher.email, "report_validated");
    const vendorToken = await kit.linkToken(vendor.contactEmail, "report_vendor_notified");

    const byResearcher = await kit
      .anonymous()
      .post(`/api/reports/${id}/comments?token=${researcherToken}`, { body: "Happy to help test the fix." });
    expect(byResearcher.statusCode, byResearcher.body).toBe(201);
    const researcherView = byResearcher.json<Detail>();
    const researcherName = (
      await kit.harness.database.sql.query<{ name: string }>("select name from users where email = $1", [
        researcher.email,
      ])
    ).rows[0]?.name;
    expect(researcherName).toBeTruthy();
    expect(researcherView.actions).toEqual([]);
    expect(researcherView.comments.map((comment) => comment.body)).toEqual(["Happy to help test the fix."]);
    expect(researcherView.comments[0]?.author?.name).toBe(researcherName);

    const byVendor = await kit
      .anonymous()
      .post(`/api/reports/${id}/comments?token=${vendorToken}`, { body: "We are on it, release next week." });
    expect(byVendor.statusCode, byVendor.body).toBe(201);
    expect(byVendor.json<Detail>().comments.map((comment) => [comment.body, comment.author])).toEqual([
      ["Happy to help test the fix.", { name: researcherName }],
      ["We are on it, release next week.", null],
    ]);

    const staffOnly = await kit
      .anonymous()
      .post(`/api/reports/${id}/comments?token=${vendorToken}`, { body: "Sneaky", visibility: "staff" });
    expect(staffOnly.statusCode).toBe(403);
    expect(
      (await kit.anonymous().post(`/api/reports/${id}/comments`, { body: "No token." })).statusCode,
    ).toBe(401);
    expect(
      (await kit.anonymous().post(`/api/reports/${id}/comments?token=forged.token`, { body: "Forged." }))
        .statusCode,
    ).toBe(404);
    const other = await kit.validated(researcher.caller);
    expect(
      (
        await kit
          .anonymous()
          .post(`/api/reports/${other}/comments?token=${researcherToken}`, { body: "Wrong." })
      ).statusCode,
    ).toBe(404);

    // Both sides read each other through their links, and staff read everything.
    const read = await kit.anonymous().get(`/api/reports/${id}?token=${researcherToken}`);
    expect(read.json<Detail>().comments).toHaveLength(2);
    const staffRead = (await kit.staff.get(`/api/staff/reports/${id}`)).json<Detail>();
    expect(staffRead.comments.map((comment) => comment.body)).toEqual([
      "Staff only remark.",
      "Happy to help test the fix.",
      "We are on it, release next week.",
    ]);
  });
});

describe("comments by the PIN contact", () => {
  it("posts shared comments with the PIN credential, and nothing without it", async () => {
    const { id, pin, researcher } = await kit.pinReport();
    expect(
      (await kit.anonymous().post(`/api/report-previews/${id}/comments`, { body: "No PIN." })).statusCode,
    ).toBe(401);
    const contact = await kit.pinContact(id, pin);
    const posted = await contact.post(`/api/report-previews/${id}/comments`, {
      body: "Which versions did you test?",
    });
    expect(posted.statusCode, posted.body).toBe(201);
    expect(posted.json<Detail>()).toMatchObject({ actions: ["submit_fix"] });
    expect(posted.json<Detail>().comments).toEqual([
      expect.objectContaining({ body: "Which versions did you test?", author: null }),
    ]);
    const staffOnly = await contact.post(`/api/report-previews/${id}/comments`, {
      body: "x",
      visibility: "staff",
    });
    expect(staffOnly.statusCode).toBe(403);
    const empty = await contact.post(`/api/report-previews/${id}/comments`, { body: " " });
    expect(empty.statusCode).toBe(422);
    // The researcher reads it and answers; the contact reads the answer.
    const answered = await researcher.caller.post(`/api/reports/${id}/comments`, {
      body: "1.2.0 and 1.1.9.",
    });
    expect(answered.statusCode).toBe(201);
    const preview = (await contact.get(`/api/report-previews/${id}`)).json<Detail>();
    expect(preview.comments.map((comment) => comment.body)).toEqual([
      "Which versions did you test?",
      "1.2.0 and 1.1.9.",
    ]);
  });
});
