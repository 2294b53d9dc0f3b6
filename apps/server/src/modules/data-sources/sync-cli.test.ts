import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
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
    server = createServer((_request, response) => {
      response.writeHead(status, { "content-type": "application/json", etag: '"cli"' });
      response.end(status === 200 ? FIXTURE : "{}");
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
      PGLITE_DIR: join(directory, "pglite"),
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

    const off = await run({ PGLITE_DIR: join(directory, "pglite") });
    expect(off).toMatchObject({
      code: 0,
      stdout: "No data source is configured (see the README's data sources).\n",
    });
  });
});
