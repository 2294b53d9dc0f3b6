import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import SwaggerParser from "@apidevtools/swagger-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROUTES } from "../../../../e2e/route-table.ts";
import routeTable from "../../../web/app/routes.ts";
import { apiRequestsOf, type OpenApiDocument } from "./api-requests.ts";
import { routePatternsOf, uncoveredPatterns } from "./route-coverage.ts";
import { type ProductionServer, REPOSITORY_ROOT, startProductionServer } from "./server-process.ts";

/**
 * The production smoke suite (QUALITY.md): the real process as `npm start` starts it, after the
 * production build, on a fresh data directory with the bundled data imported. Every page of the route
 * table and every operation of the API answers without a 5xx; the OpenAPI document is valid and lints
 * clean; the README's claims hold. Run by `npm run test:smoke` (vitest.smoke.config.ts) after the build.
 */

const UUID = "4d4b1c0e-7d1a-4c8b-9a35-2f1e0c3b5a77";
/** Routes e2e/route-table.ts leaves to their own journeys; here they only must not fail. */
const MORE_PAGES = [
  "/",
  "/iframe/vendor",
  `/vdp/invitations/${UUID}`,
  `/forwarding/confirm/${UUID}`,
  "/vdp/account/invoices/INV-2026-000001",
  "/staff/vendors",
  `/database/researchers/${UUID}`,
  "/no-such-page",
];

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

describe("the production process started by npm start", () => {
  let server: ProductionServer;
  let csrfCookie = "";

  async function request(path: string, init: RequestInit = {}): Promise<Answer> {
    const response = await fetch(`${server.origin}${path}`, { redirect: "manual", ...init });
    return {
      status: response.status,
      contentType: response.headers.get("content-type") ?? "",
      body: await response.text(),
    };
  }

  async function getJson<T>(path: string): Promise<T> {
    const answer = await request(path);
    expect(answer.status, `GET ${path}`).toBe(200);
    return JSON.parse(answer.body) as T;
  }

  beforeAll(async () => {
    server = await startProductionServer();
    // The anonymous CSRF cookie lets the unsafe requests reach their validation (spec §7).
    const response = await fetch(`${server.origin}/api/csrf-cookie`);
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith("XSRF-TOKEN="));
    csrfCookie = cookie?.split(";")[0]?.slice("XSRF-TOKEN=".length) ?? "";
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("serves on the configured port, as the README says of npm start", async () => {
    expect(server.announcedAddress).toBe(`http://127.0.0.1:${server.port}`);
    expect((await request("/healthz")).status).toBe(200);
  });

  it("has a concrete path for every route of the route table", () => {
    const paths = [...ROUTES.map((route) => route.path), ...MORE_PAGES];
    expect(uncoveredPatterns(routePatternsOf(routeTable), paths)).toEqual([]);
  });

  it("answers every page of the route table without a server error", async () => {
    const failures: string[] = [];
    for (const path of [...ROUTES.map((route) => route.path), ...MORE_PAGES]) {
      const answer = await request(path);
      if (answer.status >= 500) failures.push(`${path} → ${answer.status}`);
    }
    expect(failures).toEqual([]);
  });

  it("serves /api/openapi.json, linked from the README and the /database/api page, valid OpenAPI", async () => {
    const answer = await request("/api/openapi.json");
    expect(answer.status, answer.body.slice(0, 300)).toBe(200);
    await SwaggerParser.validate(JSON.parse(answer.body));
    expect(readFileSync(join(REPOSITORY_ROOT, "README.md"), "utf8")).toContain("/api/openapi.json");
    expect((await request("/database/api")).body).toContain('href="/api/openapi.json"');
  });

  it("names the server it runs on in the OpenAPI document when APP_URL is not set", async () => {
    const document = await getJson<{ servers: { url: string }[] }>("/api/openapi.json");
    expect(document.servers).toEqual([{ url: `http://localhost:${server.port}` }]);
  });

  it("serves an OpenAPI document that Redocly's recommended rules find no error in", async () => {
    const directory = mkdtempSync(join(tmpdir(), "pressguard-openapi-"));
    try {
      const file = join(directory, "openapi.json");
      writeFileSync(file, (await request("/api/openapi.json")).body);
      const redocly = join(REPOSITORY_ROOT, "node_modules", ".bin", "redocly");
      // The exit code is non-zero with any error: the JSON report says which.
      const { stdout } = await promisify(execFile)(redocly, ["lint", file, "--format=json"], {
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        maxBuffer: 64 * 1024 * 1024,
      }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
      const report = JSON.parse(stdout) as {
        problems: { ruleId: string; severity: string; location: { pointer: string }[] }[];
      };
      const errors = report.problems
        .filter((problem) => problem.severity === "error")
        .map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}`);
      expect(errors).toEqual([]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it("answers every API operation without a server error, filled with real ids of the bundled data", async () => {
    const document = await getJson<OpenApiDocument>("/api/openapi.json");
    const vulnerabilities = await getJson<{ data: { id: string; product: { id: number; slug: string } }[] }>(
      "/api/v1/vulnerabilities?per_page=1",
    );
    const vulnerability = vulnerabilities.data[0];
    expect(vulnerability, "the bundled data was imported").toBeDefined();
    const known = {
      platform: "wordpress",
      kind: "plugin",
      slug: vulnerability?.product.slug ?? "",
      product: vulnerability?.product.slug ?? "",
      uuid: UUID,
      token: UUID,
    };
    const requests = apiRequestsOf(document, known).map((item) =>
      // A vulnerability's and a product's own ids where the path names them.
      item.operation.match(/^GET \/api\/v1\/(vulnerabilities|osv)\/\{id\}$/)
        ? { ...item, url: item.url.replace(/[^/]+$/, vulnerability?.id ?? "") }
        : item.operation.match(/^GET \/api\/products\/\{id\}\/(vulnerabilities|contributors)$/)
          ? {
              ...item,
              url: item.url.replace(/\/products\/[^/]+\//, `/products/${vulnerability?.product.id}/`),
            }
          : item,
    );
    expect(requests.length).toBeGreaterThan(50);
    const failures: string[] = [];
    for (const item of requests) {
      const headers: Record<string, string> = {
        "x-xsrf-token": csrfCookie,
        cookie: `XSRF-TOKEN=${csrfCookie}`,
      };
      if (item.body !== undefined) headers["content-type"] = "application/json";
      const answer = await request(item.url, { method: item.method, headers, body: item.body });
      if (answer.status >= 500) failures.push(`${item.method} ${item.url} → ${answer.status} ${answer.body}`);
    }
    expect(failures).toEqual([]);
  });
});
