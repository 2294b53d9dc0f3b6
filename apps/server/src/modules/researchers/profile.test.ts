import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDataVersion } from "../../db/data-version.ts";
import { createApiCaller, registerUser } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";

type Harness = Awaited<ReturnType<typeof createTestApp>>;
let harness: Harness;

beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(() => harness.close());

const researcher = () => registerUser(harness.app, { role: "researcher", name: "Registered Name" });

const PROFILE = {
  display_name: "Ada Sec",
  country: "EE",
  website: "https://ada.example",
  github: "https://github.com/ada-sec",
  x: "@ada_sec",
  mastodon: "https://infosec.exchange/@ada",
  linkedin: "ada-lovelace",
  bio: "I break **WordPress** plugins.",
};

describe("the researcher profile", () => {
  it("starts from the registration name and is not complete until saved", async () => {
    const { caller } = await researcher();
    const profile = await caller.get("/api/researcher/profile");
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toMatchObject({
      display_name: "Registered Name",
      country: null,
      github: null,
      bio: null,
      completed: false,
    });
    expect((await caller.get("/api/user")).json().researcher).toEqual({
      uuid: profile.json().uuid,
      profile_completed: false,
    });
  });

  it("answers 422 with the schema's message per field", async () => {
    const { caller } = await researcher();
    const empty = await caller.put("/api/researcher/profile", {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toEqual({ display_name: ["Display name is required."] });
    const bad = await caller.put("/api/researcher/profile", {
      display_name: "A",
      country: "XX",
      website: "ada.example",
      github: "-nope-",
      x: "far_too_long_for_x_handles",
      mastodon: "ada",
      linkedin: "https://example.com/in/ada",
      bio: "b".repeat(2001),
    });
    expect(bad.statusCode).toBe(422);
    const errors = bad.json<{ errors: Record<string, string[]> }>().errors;
    expect(Object.keys(errors).sort()).toEqual(
      ["bio", "country", "display_name", "github", "linkedin", "mastodon", "website", "x"].sort(),
    );
    expect(errors.display_name).toEqual(["Display name must be between 2 and 60 characters."]);
    expect((await caller.get("/api/researcher/profile")).json().completed).toBe(false);
  });

  it("answers 422, never 500, for text the database cannot store", async () => {
    const { caller } = await researcher();
    const response = await caller.put("/api/researcher/profile", {
      display_name: "Ada\u0000",
      bio: "x\u0000",
    });
    expect(response.statusCode).toBe(422);
  });

  it("saves the profile, completes it, and shows it publicly with the social links", async () => {
    const { caller } = await researcher();
    const before = await readDataVersion(harness.database.sql);
    const saved = await caller.put("/api/researcher/profile", PROFILE);
    expect(saved.statusCode).toBe(200);
    const body = saved.json();
    expect(body).toMatchObject({
      display_name: "Ada Sec",
      country: "EE",
      website: "https://ada.example",
      github: "ada-sec",
      x: "ada_sec",
      mastodon: "@ada@infosec.exchange",
      linkedin: "ada-lovelace",
      bio: "I break **WordPress** plugins.",
      completed: true,
    });
    expect(Number(await readDataVersion(harness.database.sql))).toBeGreaterThan(Number(before));
    expect(
      (await caller.get("/api/user")).json<{ researcher: { profile_completed: boolean } }>().researcher
        .profile_completed,
    ).toBe(true);

    const anonymous = createApiCaller(harness.app);
    const publicProfile = (await anonymous.get(`/api/v1/researchers/${body.uuid}`)).json();
    expect(publicProfile).toMatchObject({
      display_name: "Ada Sec",
      country: "EE",
      website: "https://ada.example",
      bio: "I break **WordPress** plugins.",
      social: [
        { network: "github", handle: "ada-sec", url: "https://github.com/ada-sec" },
        { network: "x", handle: "ada_sec", url: "https://x.com/ada_sec" },
        { network: "mastodon", handle: "@ada@infosec.exchange", url: "https://infosec.exchange/@ada" },
        { network: "linkedin", handle: "ada-lovelace", url: "https://www.linkedin.com/in/ada-lovelace" },
      ],
    });

    // Clearing a handle removes it; the profile stays complete.
    const cleared = await caller.put("/api/researcher/profile", { ...PROFILE, github: "", x: null });
    expect(cleared.json()).toMatchObject({ github: null, x: null, completed: true });
    const after = (await anonymous.get(`/api/v1/researchers/${body.uuid}`)).json<{
      social: { network: string }[];
    }>();
    expect(after.social.map((link) => link.network)).toEqual(["mastodon", "linkedin"]);
  });

  it("changes only the caller's own profile", async () => {
    const first = await researcher();
    const second = await researcher();
    const secondBefore = (await second.caller.get("/api/researcher/profile")).json();
    await first.caller.put("/api/researcher/profile", { ...PROFILE, display_name: "First Only" });
    const secondAfter = (await second.caller.get("/api/researcher/profile")).json();
    expect(secondAfter).toEqual(secondBefore);
    expect(secondAfter.display_name).toBe("Registered Name");
  });

  it("is refused to a vendor without the researcher role and to anonymous callers", async () => {
    const { caller } = await registerUser(harness.app, { role: "vendor" });
    expect((await caller.get("/api/researcher/profile")).statusCode).toBe(403);
    expect((await caller.put("/api/researcher/profile", PROFILE)).statusCode).toBe(403);
    expect((await createApiCaller(harness.app).get("/api/researcher/profile")).statusCode).toBe(401);
  });
});
