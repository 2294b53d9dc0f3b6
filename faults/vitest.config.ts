import { defineConfig } from "vitest/config";

// The fault suite (`npm run test:faults`, QUALITY.md "faults"): bounded, loopback only, on a throwaway
// PostgreSQL cluster of its own that it restarts and removes. Apart from `npm test`: it needs
// PostgreSQL's programs and kills processes.
export default defineConfig({
  test: {
    root: new URL("..", import.meta.url).pathname,
    include: ["faults/**/*.test.ts"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: "forks",
    fileParallelism: false,
    setupFiles: ["./vitest.setup.ts"],
  },
});
