import { defineConfig, devices } from "@playwright/test";
import { chromiumArgs, findTestBrowser } from "./tests/support/chromium";
import { useMemoryTmpdir } from "./tests/support/memory-tmpdir";

// Test servers' data folders and the browsers' profiles in memory (decision 039); set before the
// workers start, so they and everything they start inherit it.
useMemoryTmpdir();

// Browser tests run against the production build (`npm run build` first; `npm test` does it).
// Each worker starts a server with its own data folder (tests that count or store get one per test):
// see tests/support/fixtures.ts. Servers start on a copy of a migrated data folder (decision 029).
export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // A budget for a whole scenario (its own server's start, several pages, axe on each), not a wait:
  // on two cores with two workers the longest take 25-35 s. Conditions are still awaited, never times.
  timeout: 60_000,
  expect: { timeout: 7_500 },
  reporter: [["list"], ["json", { outputFile: "reports/e2e.json" }]],
  use: {
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: { executablePath: findTestBrowser(), args: chromiumArgs },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
});
