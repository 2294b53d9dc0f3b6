import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerUser } from "../../test/api-client.ts";

import {
  createProgramTestApp,
  type Harness,
  type Me,
  program,
  programHelpers,
} from "../programs/program-test-kit.ts";

/** The vendor account (spec §3, decision 006). */

let harness: Harness;
const { vendor } = programHelpers(() => harness);

beforeAll(async () => {
  harness = await createProgramTestApp();
});
afterAll(() => harness.close());

describe("the vendor account", () => {
  it("reads, validates with the §5 messages, and completes the account on first save", async () => {
    const { caller } = await vendor();
    expect((await caller.get("/api/vendor/account")).json()).toMatchObject({
      completed: false,
      role: "owner",
    });
    const empty = await caller.put("/api/vendor/account", {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toEqual({
      vendor_name: ["Vendor name is required."],
      contact_email: ["Vendor email is required."],
      contact_person: ["Person of contact is required."],
      timezone: ["Timezone is required."],
    });
    const badUrl = await caller.put("/api/vendor/account", {
      vendor_name: "Acme",
      url: "acme.example",
      contact_email: "nope",
      contact_person: "Ann",
      timezone: "Mars/Olympus",
    });
    expect(badUrl.json().errors).toEqual({
      url: ["The URL must be a valid URL including the http(s):// protocol."],
      contact_email: ["Must be a valid email address."],
      timezone: ["Timezone must be a valid time zone."],
    });
    const saved = await caller.put("/api/vendor/account", {
      vendor_name: "Acme",
      url: "",
      contact_email: "security@acme.example",
      contact_person: "Ann",
      timezone: "Europe/Tallinn",
      country: "EE",
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ vendor_name: "Acme", url: null, country: "EE", completed: true });
    expect((await caller.get("/api/user")).json().vendor).toMatchObject({
      name: "Acme",
      account_completed: true,
    });
  });

  it("answers 422, never 500, for text the database cannot store", async () => {
    const { caller } = await vendor();
    const response = await caller.put("/api/vendor/account", {
      vendor_name: "Acme\u0000",
      contact_email: "security@acme.example",
      contact_person: "Ann\u0000",
      timezone: "UTC",
    });
    expect(response.statusCode).toBe(422);
    expect((await caller.post("/api/products", program({ name: "Nul\u0000name" }))).statusCode).toBe(422);
  });

  it("lets members read but not change the account", async () => {
    const owner = await vendor();
    const member = await registerUser(harness.app, { role: "researcher" });
    const vendorId = (await owner.caller.get("/api/user")).json<Me>().vendor.id;
    await harness.database.sql.query(
      "insert into vendor_members (vendor_id, user_id, role) values ($1, $2, 'member')",
      [vendorId, member.user.id],
    );
    expect((await member.caller.get("/api/vendor/account")).json()).toMatchObject({ role: "member" });
    const refused = await member.caller.put("/api/vendor/account", {
      vendor_name: "Taken over",
      contact_email: "x@example.test",
      contact_person: "X",
      timezone: "UTC",
    });
    expect(refused.statusCode).toBe(403);
  });
});
