import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerUser } from "../test/api-client.ts";
import { createTestApp } from "../test/app.ts";

const ACCOUNT = {
  vendor_name: "Acme",
  contact_email: "security@acme.example",
  contact_person: "Ann",
  timezone: "Europe/Tallinn",
};

describe("a PUT sent as POST with _method=PUT (spec §7)", () => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(() => harness.close());

  it("saves the vendor account from multipart form data", async () => {
    const { caller } = await registerUser(harness.app, { role: "vendor" });
    const form = new FormData();
    form.set("_method", "PUT");
    for (const [name, value] of Object.entries(ACCOUNT)) form.set(name, value);
    const response = await caller.post("/api/vendor/account", form);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ vendor_name: "Acme", completed: true });
  });

  it("validates the form fields like the PUT, with its messages", async () => {
    const { caller } = await registerUser(harness.app, { role: "vendor" });
    const form = new FormData();
    form.set("_method", "PUT");
    form.set("vendor_name", "Acme");
    const response = await caller.post("/api/vendor/account", form);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toMatchObject({ contact_email: ["Vendor email is required."] });
  });

  it("saves the researcher profile from a URL-encoded form", async () => {
    const { caller } = await registerUser(harness.app, { role: "researcher" });
    const response = await caller.post(
      "/api/researcher/profile",
      new URLSearchParams({ _method: "put", display_name: "Ada Sec", country: "EE" }).toString(),
      { headers: { "content-type": "application/x-www-form-urlencoded" } },
    );
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ display_name: "Ada Sec", country: "EE" });
    expect((await caller.get("/api/researcher/profile")).json()).toMatchObject({ display_name: "Ada Sec" });
  });

  it("keeps the PUT route's access level", async () => {
    const { caller } = await registerUser(harness.app, { role: "researcher" });
    const form = new FormData();
    form.set("_method", "PUT");
    for (const [name, value] of Object.entries(ACCOUNT)) form.set(name, value);
    expect((await caller.post("/api/vendor/account", form)).statusCode).toBe(403);
  });

  it("answers a POST without _method=PUT as an unknown route, and documents only the PUT", async () => {
    const { caller } = await registerUser(harness.app, { role: "vendor" });
    const form = new FormData();
    for (const [name, value] of Object.entries(ACCOUNT)) form.set(name, value);
    const response = await caller.post("/api/vendor/account", form);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      status: "error",
      message: "Route POST /api/vendor/account not found.",
    });
    const { paths } = (await harness.app.inject({ method: "GET", url: "/api/openapi.json" })).json();
    expect(Object.keys(paths["/api/vendor/account"])).toEqual(["get", "put"]);
  });
});
