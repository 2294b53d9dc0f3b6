import { availableParallelism } from "node:os";
import { configDefaults, defineConfig } from "vitest/config";

// Kept apart from vite.config.ts: the React Router plugin must not run under Vitest.
export default defineConfig({
  test: {
    include: ["apps/**/*.test.ts", "apps/**/*.test.tsx", "packages/**/*.test.ts", "scripts/**/*.test.ts"],
    // The production smoke suite needs the build and runs on its own (vitest.smoke.config.ts).
    exclude: [...configDefaults.exclude, "**/*.smoke.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // One fork per worker runs file after file: the app's module graph is loaded once per worker instead
    // of once per file (PostgreSQL: 264 s isolated, 149 s not). Test files share nothing else: each
    // opens its own database copy (db/test-database.ts).
    isolate: false,
    // One worker more than there are cores, where Vitest's default is one fewer: a test spends much of its
    // time waiting on PostgreSQL, so on CI's two cores one worker left a core idle (1 worker: 397 s,
    // 3 workers: 292 s at 188 % CPU, the embedded run of 2026-12-06).
    maxWorkers: availableParallelism() + 1,
    setupFiles: ["./vitest.setup.ts"],
    globalSetup: ["./vitest.global-setup.ts"],
  },
});
