// `npm run test:clock`: the unit and integration tests again with the machine's clock a year
// ahead and a year behind (faketime), so a test or a rule that depends on today's date fails
// here rather than on some future morning. With TEST_DATABASE_URL the PostgreSQL server keeps
// the real time: the site must agree with itself even when its database's clock does not, and
// the data layer's tests run on PostgreSQL alone (decision 046).
// `.ci/run` runs it after `npm test` (docs/decisions/060-the-test-suite.md); docs/decisions/009-one-clock.md
// says why it exists.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";

const offsets = ["+400d", "-400d"];

/**
 * Test files the clock check leaves out, each because nothing it runs can depend on the date
 * (docs/testing.md, "The clock check"). Kept short: a file goes here only with its reason.
 */
const notDated = [
  // npm run backup and npm run restore, run as processes: the drill gives the file's name, the
  // embedded database's lock and a killed backup's leftovers are named by process ids, and nothing
  // it looks at is a date. The rules the commands run are backup.server.test.ts's and
  // automatic-backups.server.test.ts's, which run here. Its eight processes cost about 40 s a run.
  "scripts/backup.test.ts",
  // Lint-like: they read the source as text (imports, the layers' rule on sample code), run none of it.
  "scripts/import-cycles.test.ts",
  "scripts/eslint/layers.test.ts",
];

if (spawnSync("faketime", ["-f", "+0d", "true"]).status !== 0) {
  console.error("\nfaketime is not installed: apt-get install -y faketime\n");
  process.exit(1);
}

fs.mkdirSync("reports", { recursive: true });
let passed = 0;
let failed = 0;
let skipped = 0;
const failures: string[] = [];

// Both runs at once, each with one Vitest worker: two test files at a time in all, as one run of
// `npm test` has, but the runs' start-up, global set-up and slowest files overlap instead of
// following one another (docs/decisions/060-the-test-suite.md). Each run's output
// goes to its own log, printed whole when the run ends, so the two never interleave.
console.log(
  `\n=== Unit and integration tests with the clock moved ${offsets.join(" and ")} (faketime), side by side ===`,
);
const started = performance.now();
const runs = await Promise.all(offsets.map((offset) => runAt(offset)));
console.log(`=== The clock moved: ${Math.round((performance.now() - started) / 1000)} s for both ===`);

for (const { offset, status, report } of runs) {
  const counts = readJson<{
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    testResults: { name: string; assertionResults: { fullName: string; status: string }[] }[];
  }>(report);
  if (!counts) {
    failed += 1;
    failures.push(`  ✘ the run at ${offset} produced no report (exit ${status})`);
    continue;
  }
  passed += counts.numPassedTests;
  failed += counts.numFailedTests;
  skipped += counts.numPendingTests;
  if (status !== 0 && counts.numFailedTests === 0) {
    failed += 1;
    failures.push(`  ✘ the run at ${offset} exited with ${status}`);
  }
  for (const file of counts.testResults) {
    for (const test of file.assertionResults.filter((t) => t.status === "failed")) {
      failures.push(`  ✘ ${offset} ${file.name.replace(`${process.cwd()}/`, "")} › ${test.fullName}`);
    }
  }
}
if (failures.length > 0) console.log(`\nFailed with the clock moved:\n${failures.join("\n")}`);
console.log(`\nclock: ${passed} passed, ${failed} failed, ${skipped} skipped`);

process.exit(failed === 0 ? 0 : 1);

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as T;
  } catch {
    return undefined;
  }
}

/** One whole Vitest run under faketime at `offset`; resolves when it ends, having printed its log. */
function runAt(offset: string): Promise<{ offset: string; status: number | null; report: string }> {
  const report = `reports/unit-clock${offset}.json`;
  const log = `reports/unit-clock${offset}.log`;
  const output = fs.openSync(log, "w");
  const runStarted = performance.now();
  const child = spawn(
    "faketime",
    [
      "-f",
      offset,
      "node_modules/.bin/vitest",
      "run",
      "--maxWorkers=1",
      "--reporter=dot",
      "--reporter=json",
      `--outputFile.json=${report}`,
      ...notDated.map((file) => `--exclude=${file}`),
      // Files or filters, for a run of part of the suite: `npm run test:clock -- app/lib`.
      ...process.argv.slice(2),
    ],
    {
      stdio: ["ignore", output, output],
      // The data layer on PostgreSQL alone when it is there: faketime moves PGlite's clock with the
      // process's, so only a server on the real time can show a query trusting the database's
      // now() over the site's clock, and every other date rule runs the same on both engines
      // (docs/decisions/046-the-clock-check-on-postgresql.md).
      env: process.env.TEST_DATABASE_URL ? { ...process.env, TEST_ENGINES: "postgres" } : process.env,
    },
  );
  return new Promise((resolve) => {
    child.once("close", (status) => {
      fs.closeSync(output);
      console.log(`\n--- The clock moved ${offset} (${log}) ---`);
      process.stdout.write(fs.readFileSync(log, "utf8"));
      console.log(`--- The clock moved ${offset}: ${Math.round((performance.now() - runStarted) / 1000)} s ---`);
      resolve({ offset, status, report });
    });
  });
}
