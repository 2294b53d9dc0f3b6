import { describe, expect, it } from "vitest";
import { homePathFor, programsPathFor } from "./session-user.ts";
import { SessionUser } from "./session-user-schema.ts";

const user = (fields: Record<string, unknown>) => SessionUser.parse(fields);

describe("homePathFor (spec §2, root redirect)", () => {
  it("sends an anonymous visitor to the vendor login", () => {
    expect(homePathFor(null)).toBe("/vdp/login");
  });

  it("sends a vendor with an active program to all programs, otherwise to pending ones", () => {
    expect(homePathFor(user({ roles: ["vendor"], vendor: { active_count: 1 } }))).toBe("/vdp/programs/all");
    expect(homePathFor(user({ roles: ["vendor"], vendor: { active_count: 0 } }))).toBe(
      "/vdp/programs/pending",
    );
    expect(homePathFor(user({ roles: ["vendor"] }))).toBe("/vdp/programs/pending");
  });

  it("treats a user who is researcher and vendor as a vendor", () => {
    expect(
      homePathFor(
        user({ roles: ["researcher", "vendor"], vendor: { active_count: 3 }, researcher: { uuid: "r-1" } }),
      ),
    ).toBe("/vdp/programs/all");
  });

  it("sends a researcher to their reports in review", () => {
    expect(homePathFor(user({ roles: ["researcher"], researcher: { uuid: "9f1c" } }))).toBe(
      "/researchers/9f1c/in-review",
    );
  });

  it("sends an account not set up yet to its set-up page first (issue 19)", () => {
    const vendor = { active_count: 0, account_completed: false };
    expect(homePathFor(user({ roles: ["vendor"], vendor: { ...vendor, role: "owner" } }))).toBe(
      "/vdp/create-account",
    );
    expect(homePathFor(user({ roles: ["vendor"], vendor: { ...vendor, role: "member" } }))).toBe(
      "/vdp/programs/pending",
    );
    expect(
      homePathFor(user({ roles: ["researcher"], researcher: { uuid: "9f1c", profile_completed: false } })),
    ).toBe("/researchers/create");
    expect(
      homePathFor(user({ roles: ["researcher"], researcher: { uuid: "9f1c", profile_completed: true } })),
    ).toBe("/researchers/9f1c/in-review");
  });

  it("sends a user with neither role (a site owner) to their watchlists", () => {
    expect(homePathFor(user({ roles: [] }))).toBe("/watchlists");
  });

  it("sends staff without a role to the triage queue", () => {
    expect(homePathFor(user({ roles: [], is_staff: true }))).toBe("/staff/reports");
  });
});

describe("programsPathFor (spec §2, vendor menu)", () => {
  it("opens all programs when any is active, else pending", () => {
    expect(programsPathFor(2)).toBe("/vdp/programs/all");
    expect(programsPathFor(0)).toBe("/vdp/programs/pending");
    expect(programsPathFor(undefined)).toBe("/vdp/programs/pending");
  });
});

describe("SessionUser", () => {
  it("keeps fields it does not name", () => {
    expect(user({ roles: [], email: "a@b.test" })).toMatchObject({ email: "a@b.test" });
  });

  it("rejects a body without roles", () => {
    expect(SessionUser.safeParse({ name: "x" }).success).toBe(false);
  });
});
