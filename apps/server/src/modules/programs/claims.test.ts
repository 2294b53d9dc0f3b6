import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueEmail } from "../../test/api-client.ts";
import { createStaffCaller } from "../../test/staff.ts";
import {
  createProgramTestApp,
  type Harness,
  type Listed,
  type Me,
  programHelpers,
} from "./program-test-kit.ts";
import { MESSAGES } from "./rules.ts";

/** Activation and lobby claims (spec §7 activate-product, decision 006). */

let harness: Harness;
const { verify, vendor, create, productIdBySlug } = programHelpers(() => harness);

beforeAll(async () => {
  harness = await createProgramTestApp();
});
afterAll(() => harness.close());

describe("activation and lobby claims", () => {
  it("needs a verified e-mail, then activates and counts in the directory and the footer", async () => {
    const unverified = await vendor({ verified: false });
    const created = await create(unverified.caller);
    const refused = await unverified.caller.post(`/api/products/${created.id}/activate-product`, {
      is_lobby_product: false,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(MESSAGES.verifyFirst);

    await verify(unverified.email);
    const footer = async () =>
      (await harness.app.inject({ url: "/api/public/footer/metrics" })).json<{
        active_vdp_directory_count: number;
      }>().active_vdp_directory_count;
    const before = await footer();
    const activated = await unverified.caller.post(`/api/products/${created.id}/activate-product`, {
      is_lobby_product: false,
    });
    expect(activated.json()).toEqual({ status: "success", message: MESSAGES.activated });
    expect(await footer()).toBe(before + 1);
    expect((await unverified.caller.get("/api/user")).json<Me>().vendor.active_count).toBe(1);
    const policy = await harness.app.inject({ url: `/api/v1/products/wordpress/plugin/${created.slug}` });
    expect(policy.json().program).toMatchObject({ fix_deadline_days: 30, plan: "both" });
    const again = await unverified.caller.post(`/api/products/${created.id}/activate-product`, {
      is_lobby_product: false,
    });
    expect(again.json()).toEqual({ status: "success", message: MESSAGES.alreadyActive });
  });

  it("claims a lobby product at once when a verified e-mail's domain matches its URL", async () => {
    const matching = await vendor({
      email: uniqueEmail("owner").replace("@example.test", "@salephpscripts.com"),
    });
    const lobby = await matching.caller.get("/api/products/lobby");
    const rows = lobby.json<{ data: { slug: string; domain_match: boolean; id: number }[] }>().data;
    expect(rows.map((row) => [row.slug, row.domain_match])).toEqual([["web-directory-free", true]]);
    const row = rows[0] ?? { id: 0 };

    const other = await vendor();
    expect((await other.caller.get("/api/products/lobby")).json().data).toEqual([]);
    const searched = await other.caller.get("/api/products/lobby?q=web-directory");
    expect(searched.json<Listed>().data[0]).toMatchObject({
      slug: "web-directory-free",
      domain_match: false,
    });

    const claimed = await matching.caller.post(`/api/products/${row.id}/activate-product`, {
      is_lobby_product: true,
    });
    expect(claimed.json()).toEqual({ status: "success", message: MESSAGES.claimed });
    const mine = await matching.caller.get(`/api/products/${row.id}`);
    expect(mine.json()).toMatchObject({ is_active: true, is_lobby_product: true });

    const late = await other.caller.post(`/api/products/${row.id}/activate-product`, {
      is_lobby_product: true,
    });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(MESSAGES.claimedByOther);
    // Without is_lobby_product, another vendor's product simply does not exist.
    expect(
      (await other.caller.post(`/api/products/${row.id}/activate-product`, { is_lobby_product: false }))
        .statusCode,
    ).toBe(404);
  });

  it("sends a claim whose domain does not match to staff, who approve or reject it", async () => {
    const productId = await productIdBySlug("custom-facebook-feed");
    const first = await vendor();
    const second = await vendor();
    const third = await vendor();
    for (const claimant of [first, second, third]) {
      const answer = await claimant.caller.post(`/api/products/${productId}/activate-product`, {
        is_lobby_product: true,
      });
      expect(answer.json()).toEqual({ status: "pending", message: MESSAGES.claimPending });
    }
    const lobby = await first.caller.get("/api/products/lobby?q=custom-facebook-feed");
    expect(lobby.json<Listed>().data[0]).toMatchObject({ claim_status: "pending" });

    const staff = await createStaffCaller(harness.app, harness.database);
    const queue = await staff.get("/api/staff/product-claims");
    const claims = queue.json<{ data: { id: number; vendor: { id: number } }[] }>().data;
    expect(claims).toHaveLength(3);
    const [firstClaim, secondClaim] = [claims[0] ?? { id: 0 }, claims[1] ?? { id: 0 }];

    const rejected = await staff.post(`/api/staff/product-claims/${firstClaim.id}/reject`, {
      reason: "No proof.",
    });
    expect(rejected.statusCode).toBe(200);
    expect((await staff.post(`/api/staff/product-claims/${firstClaim.id}/approve`)).statusCode).toBe(409);
    expect(
      (await staff.post(`/api/staff/product-claims/${secondClaim.id}/reject`, { reason: " " })).statusCode,
    ).toBe(422);
    expect((await staff.post(`/api/staff/product-claims/${secondClaim.id}/approve`)).statusCode).toBe(200);

    expect((await second.caller.get(`/api/products/${productId}`)).json()).toMatchObject({ is_active: true });
    const decided = await staff.get("/api/staff/product-claims?status=rejected");
    expect(
      decided
        .json<{ data: { reason: string }[] }>()
        .data.map((claim) => claim.reason)
        .sort(),
    ).toEqual(["Another vendor's claim was accepted.", "No proof."]);
    expect((await first.caller.get("/api/products/lobby?q=custom-facebook-feed")).json().data).toEqual([]);
    // Both people who asked hear the decision by e-mail.
    const mail = await harness.database.sql.query<{ to_address: string; subject: string }>(
      "select to_address, subject from mail_outbox where template = 'product_claim_decided' order by id",
    );
    expect(mail.rows).toEqual([
      { to_address: first.email, subject: "Your claim on Smash Balloon Social Post Feed was not approved" },
      { to_address: second.email, subject: "Your claim on Smash Balloon Social Post Feed was approved" },
    ]);
  });
});
