import { defineConfig } from "vitest/config";

// Unit and integration tests (next to the code); browser tests are Playwright's, in tests/e2e.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "scripts/**/*.test.ts"],
    globalSetup: ["tests/support/vitest-global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
