import { defineConfig } from "vitest/config";

// The two-instance suite (`npm run test:multi`, decision 022): two production servers (`npm start`) on
// one PostgreSQL database behind Debian's nginx, loopback only, bounded (< 2 min). Apart from
// `npm test`: it needs nginx, PostgreSQL and the production build.
export default defineConfig({
  test: {
    root: new URL("..", import.meta.url).pathname,
    include: ["multi/**/*.test.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 240_000,
    pool: "forks",
    fileParallelism: false,
    setupFiles: ["./vitest.setup.ts"],
  },
});
