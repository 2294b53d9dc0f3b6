import { execFile } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * `npm run data:sync` as an operator runs it: a PGlite directory of its own, the feed a stand-in on
 * loopback. It prints each source's counts and exits 0, or says what failed and exits 1.
 */

const FIXTURE = readFileSync(new URL("./fixtures/wordfence-v3-production.json", import.meta.url), "utf8");
const KEV = readFileSync(new URL("./fixtures/kev-catalog.json", import.meta.url), "utf8");
const WPORG_PLUGIN = readFileSync(new URL("./fixtures/wporg-plugin-info.json", import.meta.url), "utf8");
const WPORG_NOT_FOUND = readFileSync(
  new URL("./fixtures/wporg-plugin-not-found.json", import.meta.url),
  "utf8",
);
const CLI = fileURLToPath(new URL("./sync-cli.ts", import.meta.url));

function run(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const { DATABASE_URL: _unused, ...inherited } = process.env;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", CLI],
      {
        env: {
          ...inherited,
          NODE_ENV: "test",
          KEV_URL: "off",
          EPSS_URL: "off",
          WPORG_API_URL: "off",
          ...env,
        },
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe("npm run data:sync", () => {
  let server: Server;
  let url: string;
  let status = 200;
  let directory: string;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), "pressguard-data-sync-"));
    // Reachable by the account the embedded PostgreSQL runs as when the tests run as root.
    chmodSync(directory, 0o755);
    server = createServer((request, response) => {
      const url = new URL(request.url ?? "/", "http://127.0.0.1");
      if (url.pathname === "/kev.json") {
        // The fixture's catalog with the feed's BackWPup CVE listed, and one entry that is not valid.
        const catalog = JSON.parse(KEV);
        catalog.vulnerabilities.push(
          { cveID: "CVE-2023-5775", dateAdded: "2026-01-05", dueDate: "2026-01-26" },
          { cveID: "CVE-2023-5775x", dateAdded: "2026-01-05", dueDate: "2026-01-26" },
        );
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(catalog));
      } else if (url.pathname === "/epss.csv") {
        response
          .writeHead(200, { "content-type": "text/csv" })
          .end(
            "#model_version:v2025.03.14,score_date:2026-03-28T12:55:00Z\ncve,epss,percentile\nCVE-2023-5775,0.00042,0.05\nCVE-2024-10001,0.0012,0.3\n",
          );
      } else if (url.pathname.endsWith("/info/1.2/")) {
        const known = url.searchParams.get("request[slug]") === "backwpup";
        response
          .writeHead(known ? 200 : 404, { "content-type": "application/json" })
          .end(known ? WPORG_PLUGIN : WPORG_NOT_FOUND);
      } else {
        response.writeHead(status, { "content-type": "application/json", etag: '"cli"' });
        response.end(status === 200 ? FIXTURE : "{}");
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    rmSync(directory, { recursive: true, force: true });
  });

  it("syncs every configured source once and prints its counts", { timeout: 120_000 }, async () => {
    const env = {
      EMBEDDED_DB_DIR: join(directory, "postgres"),
      WORDFENCE_API_KEY: "cli-key",
      WORDFENCE_FEED_URL: url,
    };
    const first = await run(env);
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("wordfence: 7 new, 0 changed, 0 unchanged, 0 withdrawn, 1 rejected\n");
    expect(first.stdout).toContain(
      "rejected 6b7c8d9e-0f1a-4b2c-9d3e-4f5a6b7c8d07: software: lists no software",
    );
    expect(first.stdout).not.toContain("cli-key");

    status = 403;
    const refused = await run(env);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("wordfence: failed: The feed refused the API key (HTTP 403).\n");

    const off = await run({ EMBEDDED_DB_DIR: join(directory, "postgres") });
    expect(off).toMatchObject({
      code: 0,
      stdout: "No data source is configured (see the README's data sources).\n",
    });
  });

  it("prints the counts of KEV, EPSS and WordPress.org after the feed's", { timeout: 120_000 }, async () => {
    status = 200;
    const origin = new URL(url).origin;
    const result = await run({
      EMBEDDED_DB_DIR: join(directory, "postgres-all"),
      WORDFENCE_API_KEY: "cli-key",
      WORDFENCE_FEED_URL: url,
      KEV_URL: `${origin}/kev.json`,
      EPSS_URL: `${origin}/epss.csv`,
      WPORG_API_URL: origin,
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n").filter((line) => !line.startsWith("  "));
    expect(lines).toEqual([
      "wordfence: 7 new, 0 changed, 0 unchanged, 0 withdrawn, 1 rejected",
      "kev: 1 new, 0 changed, 0 unchanged, 0 withdrawn, 1 rejected",
      "epss: 2 new, 0 changed, 0 unchanged, 0 withdrawn, 0 rejected",
      expect.stringMatching(/^wporg: 0 new, 1 changed, 0 unchanged, 0 withdrawn, \d+ rejected$/),
      "",
    ]);
    expect(result.stdout).toContain("  rejected CVE-2023-5775X: cveID: not a CVE id\n");
    expect(result.stdout).toContain(
      "  rejected plugin example-gallery: not in the WordPress.org directory\n",
    );
  });
});
