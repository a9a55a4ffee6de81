// `npm test`: every test, once. Types and lint, unit and integration tests (Vitest, on PGlite and,
// when TEST_DATABASE_URL is set, PostgreSQL), then the production build and the browser tests
// (Playwright in Chromium). The same unit and integration tests under a clock moved a year each way
// (`npm run test:clock`) run in `.ci/run`, after this, so nothing that depends on today's date
// lands (docs/decisions/060-the-test-suite.md).
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import { chromiumInstallHint, findTestBrowser } from "../tests/support/chromium";

const browser = findTestBrowser();
if (!browser) {
  console.error(`\n${chromiumInstallHint}\n`);
  process.exit(1);
}

const bin = (name: string) => `node_modules/.bin/${name}`;

function run(label: string, command: string, args: string[]): boolean {
  console.log(`\n=== ${label} ===`);
  const started = performance.now();
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, CHROMIUM_PATH: browser } });
  // Each stage's time, to keep the suite within its budget (docs/decisions/029-a-fast-test-suite.md).
  console.log(`=== ${label}: ${Math.round((performance.now() - started) / 1000)} s ===`);
  return result.status === 0;
}

/** Runs stages at once, each into a log of its own; prints each log, in order, once all have ended. */
async function runTogether(stages: [label: string, command: string, args: string[]][]): Promise<boolean[]> {
  const started = performance.now();
  const results = await Promise.all(
    stages.map(([label, command, args], index) => {
      const logFile = `reports/stage-${index}.log`;
      const log = fs.openSync(logFile, "w");
      const child = spawn(command, args, {
        stdio: ["ignore", log, log],
        env: { ...process.env, CHROMIUM_PATH: browser },
      });
      return new Promise<{ label: string; logFile: string; ok: boolean; seconds: number }>((resolve) =>
        child.once("close", (status) => {
          fs.closeSync(log);
          resolve({ label, logFile, ok: status === 0, seconds: (performance.now() - started) / 1000 });
        }),
      );
    }),
  );
  for (const { label, logFile, ok, seconds } of results) {
    console.log(`\n=== ${label} ===`);
    process.stdout.write(fs.readFileSync(logFile, "utf8"));
    console.log(`=== ${label}: ${Math.round(seconds)} s${ok ? "" : " (failed)"} ===`);
  }
  return results.map((result) => result.ok);
}

fs.rmSync("reports", { recursive: true, force: true });
fs.mkdirSync("reports", { recursive: true });
// Lint carries the rules the code relies on (one-way imports, one clock), so it runs with the tests.
// The two side by side: each spends part of its time reading files and starting up.
const checked = (
  await runTogether([
    ["Types (tsc)", "npm", ["run", "typecheck", "--silent"]],
    ["Lint (ESLint, Prettier)", "npm", ["run", "lint", "--silent"]],
  ])
).every(Boolean);
const unit = run("Unit and integration tests (Vitest)", bin("vitest"), [
  "run",
  "--reporter=default",
  "--reporter=json",
  "--outputFile.json=reports/unit.json",
]);
const built = run("Production build", "npm", ["run", "build", "--silent"]);
const e2e = built && run(`Browser tests (Playwright, ${browser})`, bin("playwright"), ["test"]);
// One closing line for both runners.
const unitCounts = readJson<{
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  testResults: { name: string; assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[];
}>("reports/unit.json");
const e2eCounts = readJson<{ stats: { expected: number; unexpected: number; skipped: number; flaky: number } }>(
  "reports/e2e.json",
);
const passed = (unitCounts?.numPassedTests ?? 0) + (e2eCounts?.stats.expected ?? 0);
// A flaky test is a failing test.
const failed =
  (checked ? 0 : 1) +
  (unitCounts?.numFailedTests ?? 0) +
  (e2eCounts?.stats.unexpected ?? 0) +
  (e2eCounts?.stats.flaky ?? 0);
const skipped = (unitCounts?.numPendingTests ?? 0) + (e2eCounts?.stats.skipped ?? 0);
if (!checked) console.error("\nThe type check or lint failed (see above): counted as one failure.");
if (!built) console.error("\nThe production build failed, so the browser tests did not run.");
// The Vitest failures scroll far up before the build and the browser tests; name them again at the end.
const unitFailures = (unitCounts?.testResults ?? []).flatMap((file) =>
  file.assertionResults
    .filter((test) => test.status === "failed")
    .map((test) => `  ✘ ${file.name.replace(`${process.cwd()}/`, "")} › ${test.fullName}\n    ${firstLine(test)}`),
);
if (unitFailures.length > 0) console.log(`\nFailed unit and integration tests:\n${unitFailures.join("\n")}`);
console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(checked && unit && built && e2e ? 0 : 1);

function firstLine(test: { failureMessages: string[] }) {
  return (test.failureMessages[0] ?? "").split("\n").slice(0, 3).join(" / ").slice(0, 400);
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as T;
  } catch {
    return undefined;
  }
}
