import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiCaller } from "../../test/api-client.ts";
import { createTestApp } from "../../test/app.ts";
import { createUserFromArguments, parseCreateUserArguments } from "./create-user.ts";

describe("user:create", () => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(() => harness.close());

  it("creates a verified staff account that can sign in", async () => {
    const user = await createUserFromArguments(harness.database, [
      "--staff",
      "--email",
      "Triage@Example.test",
      "--name",
      "Triage",
      "--password",
      "staff password 1",
    ]);
    expect(user).toMatchObject({
      email: "triage@example.test",
      is_staff: true,
      email_verified: true,
      roles: [],
    });
    const login = await createApiCaller(harness.app).post("/api/login", {
      email: "triage@example.test",
      password: "staff password 1",
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().is_staff).toBe(true);
  });

  it("refuses an existing e-mail", async () => {
    const argv = [
      "--email",
      "twice@example.test",
      "--name",
      "Twice",
      "--password",
      "password 123",
      "--vendor",
    ];
    expect((await createUserFromArguments(harness.database, argv)).roles).toEqual(["vendor"]);
    await expect(createUserFromArguments(harness.database, argv)).rejects.toThrow(/exists already/);
  });

  it("names what is missing or wrong", () => {
    expect(() =>
      parseCreateUserArguments(["--email", "nope", "--name", "X", "--password", "long enough"]),
    ).toThrow("--email must be a valid e-mail address");
    expect(() => parseCreateUserArguments(["--email", "a@b.test", "--password", "long enough"])).toThrow(
      "--name is required",
    );
    expect(() => parseCreateUserArguments(["--bogus"])).toThrow();
  });
});
