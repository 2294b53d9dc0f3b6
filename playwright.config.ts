import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";

/**
 * End-to-end tests drive Debian's Chromium against the production build served by the real server
 * (`npm run build` first). The server gets its own throwaway embedded database, seeded on start,
 * unless E2E_BASE_URL points at a server that is already running.
 */
const port = Number(process.env.E2E_PORT ?? 3199);
const baseURL = process.env.E2E_BASE_URL ?? `http://127.0.0.1:${port}`;
const dataDir = process.env.E2E_PGLITE_DIR ?? join(mkdtempSync(join(tmpdir(), "pressguard-e2e-")), "pglite");

export default defineConfig({
  testDir: "e2e",
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  timeout: 30_000,
  reporter: process.env.CI ? [["list"], ["json", { outputFile: "reports/e2e.json" }]] : "list",
  use: {
    baseURL,
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--headless",
        "--disable-gpu",
        "--disable-quic",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  ...(!process.env.E2E_BASE_URL && {
    webServer: {
      command: "node --import tsx apps/server/src/main.ts",
      url: `${baseURL}/healthz`,
      timeout: 180_000,
      reuseExistingServer: false,
      stdout: "ignore",
      stderr: "pipe",
      env: {
        PORT: String(port),
        HOST: "127.0.0.1",
        PGLITE_DIR: dataDir,
        LOG_LEVEL: "warn",
        APP_URL: baseURL,
      },
    },
  }),
});
