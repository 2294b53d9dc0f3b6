import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp } from "./test/app.ts";

describe("the API shell", () => {
  let harness: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(() => harness.close());

  it("answers an unknown API path with a JSON 404 in the error format", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/api/nope?x=1" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ status: "error", message: "Route GET /api/nope not found." });
  });

  it("serves the OpenAPI document generated from the route schemas", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    expect(document.paths["/api/public/footer/metrics"].get.responses["200"]).toBeDefined();
  });

  // Issue 38: nine request and answer schemas were free-form `{}` (the report form, transitions,
  // programs and policies, notices, profiles, the vendor account, OSV and CSAF, forwarding bodies).
  it("declares every request body and answer: no top-level schema is a free-form object", async () => {
    const document = (await harness.app.inject({ method: "GET", url: "/api/openapi.json" })).json();
    const schemas: Record<string, { properties?: object; additionalProperties?: unknown; $ref?: string }> =
      document.components.schemas;
    const resolve = (schema: { $ref?: string }) =>
      schema.$ref ? (schemas[schema.$ref.replace("#/components/schemas/", "")] ?? {}) : schema;
    const freeForm: string[] = [];
    for (const [path, operations] of Object.entries<Record<string, Record<string, unknown>>>(
      document.paths,
    )) {
      for (const [method, operation] of Object.entries(operations)) {
        const bodies = Object.values((operation.requestBody as { content?: object })?.content ?? {});
        const answers = Object.values(
          (operation.responses ?? {}) as Record<string, { content?: object }>,
        ).flatMap((answer) => Object.values(answer.content ?? {}));
        for (const { schema } of [...bodies, ...answers] as { schema?: { $ref?: string } }[]) {
          if (!schema) continue;
          const resolved = resolve(schema) as {
            type?: string;
            properties?: object;
            additionalProperties?: unknown;
          };
          const open = resolved.additionalProperties;
          if (
            Object.keys(resolved).length === 0 ||
            (resolved.type === "object" &&
              !resolved.properties &&
              (open === undefined ||
                (typeof open === "object" && open !== null && Object.keys(open).length === 0)))
          )
            freeForm.push(`${method.toUpperCase()} ${path}`);
        }
      }
    }
    expect(freeForm).toEqual([]);
  });

  it("serves the current build for the client's version check", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/builds/latest.json" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.json()).toEqual({ id: expect.any(String), timestamp: expect.any(Number) });
  });

  it("reports its health, including the database", async () => {
    const response = await harness.app.inject({ method: "GET", url: "/healthz" });
    expect(response.json()).toEqual({ status: "ok" });
  });

  it("rejects a malformed JSON body with a 400 in the error format, not a 500", async () => {
    const response = await harness.app.inject({
      method: "POST",
      url: "/api/public/footer/metrics",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json().status).toBe("error");
  });
});
