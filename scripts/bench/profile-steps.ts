// Where the site's CPU goes in each step of a paid order: a CPU profile of the site, split by the
// order benchmark's steps (start, payment, confirmation page).
//
//   BENCH_ORDER_STEPS=/tmp/steps.json BENCH_SITE_NODE_FLAGS="--cpu-prof --cpu-prof-dir=/tmp/profiles" \
//     BENCH_ENGINES=postgres npm run bench -- order
//   npx tsx scripts/bench/profile-steps.ts /tmp/profiles /tmp/steps.json [filter]
//
// Of the profiles in the folder, the one read is the process busiest during the steps: the site
// that answered the orders (another is the benchmark's own site on the embedded database). Each step is counted from its
// request until the pause after its answer ends, so what the answer set going (the outbox, the
// live feed's recount) is counted in its step. For each step: the mean profiled time, by package,
// then the functions that take most of it with what they call (their inclusive time), those
// matching `filter` (a regular expression) when one is given. A profiler's own cost makes every
// figure larger than the benchmark's unprofiled CPU; the shares are what to read.
import fs from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const [profileDir, stepsFile, filter] = process.argv.slice(2);
if (!profileDir || !stepsFile) {
  console.error("Usage: tsx scripts/bench/profile-steps.ts <folder of .cpuprofile files> <steps.json> [filter]");
  process.exit(2);
}
const windows = JSON.parse(fs.readFileSync(stepsFile, "utf8")) as { step: string; fromUs: number; toUs: number }[];

/** Calls `visit` for each sample of the profile taken during a step, with its step and time. */
function inSteps(profile: Profile, visit: (id: number, step: string, us: number) => void) {
  const idle = new Set(profile.nodes.filter((node) => node.callFrame.functionName === "(idle)").map((node) => node.id));
  // Samples and windows are both in time order: walk them together.
  let at = profile.startTime;
  let next = 0;
  profile.samples.forEach((id, index) => {
    at += profile.timeDeltas[index] ?? 0;
    while (next < windows.length && windows[next]!.toUs < at) next += 1;
    const window = windows[next];
    if (window && at >= window.fromUs && !idle.has(id)) visit(id, window.step, profile.timeDeltas[index] ?? 0);
  });
}

const busiest = fs
  .readdirSync(profileDir)
  .filter((name) => name.endsWith(".cpuprofile"))
  .map((name) => {
    const read = JSON.parse(fs.readFileSync(`${profileDir}/${name}`, "utf8")) as Profile;
    let busy = 0;
    inSteps(read, (_id, _step, us) => (busy += us));
    return { read, busy };
  })
  .sort((a, b) => b.busy - a.busy)[0];
if (!busiest) throw new Error(`No .cpuprofile in ${profileDir}`);
const profile = busiest.read;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

const packageOf = ({ callFrame: { url, functionName } }: ProfileNode) => {
  if (functionName === "(garbage collector)") return "garbage collector";
  if (!url) return `native ${functionName}`;
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dependency) return dependency[1]!;
  if (url.startsWith("node:")) return `node:${url.slice(5).split("/")[0]}`;
  return url.includes("build/server") ? "the site" : url;
};
const nameOf = ({ callFrame: { url, functionName, lineNumber } }: ProfileNode) =>
  `${functionName || "(anonymous)"} ${url.replace(/.*node_modules\//, "").replace(/.*build\/server\//, "")}:${lineNumber}`;
const wanted = filter ? new RegExp(filter) : undefined;

const steps = [...new Set(windows.map((window) => window.step))];
const totals = new Map(
  steps.map((step) => [step, { busy: 0, packages: new Map<string, number>(), functions: new Map<string, number>() }]),
);
const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);

inSteps(profile, (id, step, us) => {
  const total = totals.get(step)!;
  total.busy += us;
  add(total.packages, packageOf(byId.get(id)!), us);
  // Inclusive: each function on the sample's stack once.
  const seen = new Set<string>();
  for (let on: number | undefined = id; on !== undefined; on = parentOf.get(on)) {
    const name = nameOf(byId.get(on)!);
    if (seen.has(name)) continue;
    seen.add(name);
    add(total.functions, name, us);
  }
});

const ms = (us: number, count: number) => (us / count / 1000).toFixed(2).padStart(7);
for (const step of steps) {
  const count = windows.filter((window) => window.step === step).length;
  const total = totals.get(step)!;
  console.log(`\n${step}: ${count} steps, ${ms(total.busy, count).trim()} ms profiled CPU each`);
  console.log("  by package (ms a step):");
  for (const [name, us] of [...total.packages].sort((a, b) => b[1] - a[1]).slice(0, 12))
    console.log(`  ${ms(us, count)}  ${name}`);
  console.log("  functions with what they call (ms a step):");
  const functions = [...total.functions].filter(([name]) => !wanted || wanted.test(name));
  for (const [name, us] of functions.sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`  ${ms(us, count)}  ${name}`);
}
