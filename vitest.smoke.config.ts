import { defineConfig } from "vitest/config";

// The production smoke suite (`npm run test:smoke`): it starts the real server after `npm run build`,
// so it is kept out of `npm test`. A first start imports the bundled data: long hook timeout.
export default defineConfig({
  test: {
    include: ["apps/**/*.smoke.test.ts"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 20 * 60_000,
    pool: "forks",
    fileParallelism: false,
    setupFiles: ["./vitest.setup.ts"],
  },
});
