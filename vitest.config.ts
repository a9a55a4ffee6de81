import { defineConfig } from "vitest/config";

// Unit and integration tests (next to the code); browser tests are Playwright's, in tests/e2e.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    include: ["app/**/*.test.{ts,tsx}", "server/**/*.test.ts", "scripts/**/*.test.ts"],
    globalSetup: ["tests/support/vitest-global-setup.ts"],
    setupFiles: ["tests/support/vitest-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Two test files at a time on the two-core machines: Vitest's default (cores - 1) ran one, and a
    // file spends much of its time waiting on PostgreSQL or its own database's start.
    // docs/decisions/029-a-fast-test-suite.md.
    maxWorkers: 2,
    // WebAssembly (the embedded database, opened afresh for most tests) compiled by V8's baseline
    // compiler alone: a test file's process lives for seconds, too short to earn back the
    // optimizing compiler's work. Vitest's run took a third less time and a fifth less CPU
    // (docs/decisions/049-test-processes-compile-webassembly-once.md).
    // A deprecation fails the test that reaches it: it is a break waiting in the next major version
    // of a package (pg's queued statements on one connection, for one).
    execArgv: ["--liftoff-only", "--throw-deprecation"],
  },
});
