// `npm run bench`: how fast the site is, in numbers, beside nginx serving the same bytes.
// Starts everything it measures on loopback and stops it again (docs/decisions/034-the-benchmark.md):
// the site from the production build (building first if the sources changed since the last build),
// on the embedded database and, when DATABASE_URL or TEST_DATABASE_URL is set, on a new database on
// that PostgreSQL server; Debian's nginx with one worker for the comparison.
//
// Scenarios (all by default; name some to run only those: `npm run bench -- pages rush`):
//   pages   public pages and /robots.txt under load (autocannon: 20 connections, 10 s, gzip/br),
//           the site and nginx one after the other in the same run, and their ratios: of
//           requests per second, and of CPU time per request (which other load moves far less)
//   memory  the site's resident memory after start and after the page benchmark
//   js      the compressed JavaScript a first visit to / downloads
//   start   a restart on an up-to-date build: from `npm start`'s build check to the first page
//   order   one paid order at a time: each step's time and the site's CPU per order (the most paid
//           orders a second one core could settle), on a site of its own (scripts/bench/order.ts)
//   rush    1,000 buyers for 100 seats, 50 at a time, solving the payment check when asked and
//           paying for their holds (scripts/bench/rush.ts); on PostgreSQL with one process, then
//           two (SITE_PROCESSES, decision 047)
//   feed    10,000 subscribers to the live feed: memory per subscriber, sale-to-update times
//           (scripts/bench/feed.ts)
//   lighthouse  Lighthouse 12.8.2's four scores, mobile, for the public and payment pages
//           (scripts/bench/lighthouse.ts)
//   phone   a cheap phone in Chromium: LCP and bytes per page (not in the default set)
//
// BENCH_SITE_NODE_FLAGS are added to the site's node options (for a CPU profile).
// BENCH_ENGINES=postgres (or embedded) runs the order scenario on that database only.
// BENCH_ORDER_STEPS=<file> writes the order scenario's step times, to split a CPU profile of the
// site by step with scripts/bench/profile-steps.ts.
//
// Prints one table per scenario and writes each scenario's result to bench/results/<scenario>.json
// (pages.json, rush.json, ...), replacing that scenario's last result; Lighthouse's full reports go
// to bench/results/lighthouse-reports/. Compare ratios within one run, not absolute figures across runs.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { chromium } from "@playwright/test";
import { chromiumArgs, findChromium } from "../tests/support/chromium";
import { createPostgresDatabase } from "../tests/support/databases";
import { newSiteDataDir, staffAccount, startSiteProcess, type RunningSite } from "../tests/support/site-process";
import { feedScenario } from "./bench/feed";
import { lighthouseScenario } from "./bench/lighthouse";
import { nginxPath, startNginx, type RunningNginx, type SavedPage } from "./bench/nginx";
import { orderScenario } from "./bench/order";
import { rushScenario } from "./bench/rush";
import { signedInCookie } from "./bench/staff-api";

const all = ["pages", "memory", "js", "start", "order", "rush", "feed", "lighthouse"] as const;
const asked = process.argv.slice(2).filter((arg) => !arg.startsWith("-"));
const scenarios = new Set<string>(asked.length > 0 ? asked : all);
const load = {
  connections: Number(process.env.BENCH_CONNECTIONS ?? 20),
  duration: Number(process.env.BENCH_SECONDS ?? 10),
  headers: { "accept-encoding": "gzip, deflate, br" },
};
const postgresBase = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;

interface Figures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** CPU time the server's processes spent per answer: unlike req/s, barely moved by other load on the machine. */
  cpuMsPerRequest: number;
  non2xx: number;
  errors: number;
}

const results: Record<string, unknown> = {
  at: new Date().toISOString(),
  machine: {
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    memoryGB: Math.round(os.totalmem() / 2 ** 30),
    loadAverage: os.loadavg(),
    node: process.version,
    nginx: nginxVersion(),
  },
  load,
};

function nginxVersion(): string {
  try {
    // nginx -v prints on stderr.
    return execFileSync("sh", ["-c", `${nginxPath} -v 2>&1`], { encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

// Everything started is stopped, however the run ends.
const running: { stop(): Promise<unknown> }[] = [];
async function stopAll() {
  while (running.length > 0)
    await running
      .pop()!
      .stop()
      .catch(() => undefined);
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void stopAll().then(() => process.exit(130)));
}

const fixed = (n: number, digits = 0) => n.toLocaleString("en-GB", { maximumFractionDigits: digits });

function table(title: string, header: string[], rows: (string | number)[][]) {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  console.log(`\n${title}`);
  cells.forEach((row, n) => {
    console.log(
      "  " + row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  "),
    );
    if (n === 0) console.log("  " + widths.map((w) => "-".repeat(w)).join("  "));
  });
}

/** Resident memory of a process, in MB (Linux). */
function residentMB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** A process and its children (nginx's worker), by their ids. */
function processTree(pid: number): number[] {
  const children = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
  return [pid, ...children.flatMap(processTree)];
}

const msPerTick = 1000 / Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim() || 100);

/** CPU time (user and system) a process and its children have used so far, in ms (Linux). */
function cpuMs(pid: number): number {
  return processTree(pid).reduce((sum, id) => {
    const fields = fs.readFileSync(`/proc/${id}/stat`, "utf8").split(") ")[1]!.split(" ");
    // After the command's closing parenthesis: utime and stime are the 12th and 13th fields.
    return sum + (Number(fields[11]) + Number(fields[12])) * msPerTick;
  }, 0);
}

async function hammer(url: string, pid: number): Promise<Figures> {
  const cpuBefore = cpuMs(pid);
  const result = await autocannon({ url, ...load });
  const answers = result.requests.total;
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMsPerRequest: answers > 0 ? Math.round(((cpuMs(pid) - cpuBefore) / answers) * 1000) / 1000 : NaN,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** A few hundred requests first, so the first measured second is not the process's warm-up. */
async function warm(url: string, requests = 200) {
  for (let i = 0; i < requests; i += 1) await (await fetch(url, { headers: load.headers })).arrayBuffer();
}

async function startSite(
  engine: "embedded" | "postgres",
  /** SITE_PROCESSES (decision 047), on PostgreSQL only. */
  processes = 1,
): Promise<RunningSite & { database: string }> {
  // As `npm start` runs it (package.json): glibc's malloc arenas limited.
  let env: Record<string, string> = { SAMPLE_EVENTS: "true", MALLOC_ARENA_MAX: "2" };
  let database = "embedded (PGlite)";
  if (engine === "postgres") {
    process.env.TEST_DATABASE_URL ??= postgresBase;
    const created = await createPostgresDatabase({ migrated: true });
    running.push({ stop: created.drop });
    env = { ...env, DATABASE_URL: created.url, SITE_PROCESSES: String(processes) };
    database = processes > 1 ? `PostgreSQL, ${processes} processes` : "PostgreSQL";
  }
  // To see where the site's time goes under a scenario, e.g. BENCH_SITE_NODE_FLAGS="--cpu-prof
  // --cpu-prof-dir=/tmp/profiles" (a profile is written when the site stops).
  const site = await startSiteProcess(env, process.env.BENCH_SITE_NODE_FLAGS?.split(" ").filter(Boolean) ?? []);
  running.push(site);
  return { ...site, database };
}

/** The public pages: the four fixed ones and the first event's page, found on /fundraising. */
async function publicPages(site: RunningSite): Promise<string[]> {
  const html = await (await fetch(site.url + "/fundraising")).text();
  const event = /href="(\/fundraising-event\/[0-9a-f-]{36})"/.exec(html)?.[1];
  if (!event) throw new Error("No event on /fundraising: the benchmark needs the sample events.");
  return ["/", "/about", "/fundraising", event, "/volunteering"];
}

async function save(site: RunningSite, paths: string[]): Promise<SavedPage[]> {
  return Promise.all(
    paths.map(async (page) => {
      const response = await fetch(site.url + page);
      if (!response.ok) throw new Error(`${page} answered ${response.status}`);
      return { path: page, body: Buffer.from(await response.arrayBuffer()) };
    }),
  );
}

async function pagesScenario(site: RunningSite, nginx: RunningNginx, paths: string[]) {
  const rows: Record<string, unknown>[] = [];
  for (const page of paths) {
    await warm(site.url + page);
    const ours = await hammer(site.url + page, site.process.pid!);
    const theirs = await hammer(nginx.url + page, nginx.pid);
    rows.push({
      page,
      site: ours,
      nginx: theirs,
      ratio: ours.requestsPerSecond / theirs.requestsPerSecond,
      cpuRatio: theirs.cpuMsPerRequest / ours.cpuMsPerRequest,
    });
  }
  table(
    `Pages: ${load.connections} connections, ${load.duration} s each, Accept-Encoding: gzip, deflate, br`,
    [
      "page",
      "site req/s",
      "p50 ms",
      "p99 ms",
      "CPU ms/req",
      "nginx req/s",
      "p50 ms",
      "p99 ms",
      "CPU ms/req",
      "site/nginx req/s",
      "nginx/site CPU",
    ],
    rows.map((row) => {
      const s = row.site as Figures;
      const n = row.nginx as Figures;
      const page = String(row.page);
      return [
        page.length > 30 ? page.slice(0, 29) + "…" : page,
        fixed(s.requestsPerSecond),
        s.p50,
        s.p99,
        fixed(s.cpuMsPerRequest, 2),
        fixed(n.requestsPerSecond),
        n.p50,
        n.p99,
        fixed(n.cpuMsPerRequest, 3),
        fixed(Number(row.ratio), 3),
        fixed(Number(row.cpuRatio), 3),
      ];
    }),
  );
  for (const row of rows) {
    const s = row.site as Figures;
    if (s.non2xx > 0 || s.errors > 0) console.log(`  ${row.page}: ${s.non2xx} answers not 2xx, ${s.errors} errors`);
  }
  return rows;
}

/** The bytes a response's body took on the wire, compressed as the server chose. */
function wireBytes(url: string): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: load.headers }, (response) => {
        let bytes = 0;
        response.on("data", (chunk: Buffer) => (bytes += chunk.length));
        response.on("end", () => resolve({ bytes, encoding: String(response.headers["content-encoding"] ?? "none") }));
        response.on("error", reject);
      })
      .on("error", reject);
  });
}

async function jsScenario(site: RunningSite) {
  const html = await (await fetch(site.url + "/")).text();
  // What a browser fetches: the scripts the page loads and imports from its module script, the
  // entry module that script imports as soon as it runs (`"module": "/assets/entry.client-….js"`),
  // and everything those import in turn (the modules' own static imports, followed). Not every
  // address in the page: React Router's manifest names its own file (`"url": "/assets/manifest-….js"`),
  // which a first visit never downloads (routes are discovered through /__manifest as links appear),
  // and a module's dynamic imports are fetched only when used.
  const scripts = [
    ...new Set(
      [
        ...html.matchAll(/<link rel="modulepreload" href="(\/[^"]+)"/g),
        ...html.matchAll(/<script[^>]* src="(\/[^"]+)"/g),
        ...html.matchAll(/^import [^"\n]*"(\/assets\/[^"]+\.js)";$/gm),
        ...html.matchAll(/"entry":\s*{\s*"module":\s*"(\/assets\/[^"]+\.js)"/g),
      ].map((match) => match[1]!),
    ),
  ];
  for (let i = 0; i < scripts.length; i += 1) {
    const code = await (await fetch(site.url + scripts[i]!)).text();
    for (const [, specifier] of code.matchAll(
      /(?:\bimport|\bexport)\s*(?:[\w$*{},\s]*?\bfrom\s*)?["']([^"']+\.js)["']/g,
    )) {
      const file = new URL(specifier!, site.url + scripts[i]!).pathname;
      if (!scripts.includes(file)) scripts.push(file);
    }
  }
  const files = await Promise.all(scripts.map(async (file) => ({ file, ...(await wireBytes(site.url + file)) })));
  const total = files.reduce((sum, file) => sum + file.bytes, 0);
  table(
    "First visit to /: the JavaScript its HTML asks for, as sent",
    ["file", "bytes", "encoding"],
    [...files.map((file) => [file.file, fixed(file.bytes), file.encoding]), ["total", fixed(total), ""]],
  );
  return { files, totalBytes: total };
}

/** A restart on an up-to-date build, as `npm start` does it: the build check, then the server, until `/` answers. */
async function startScenario() {
  const dataDir = await newSiteDataDir();
  try {
    // The first start on a new folder makes the sample events; the one measured is the next.
    await (await startSiteProcess({ DATA_DIR: dataDir, SAMPLE_EVENTS: "true" }, [])).stop();
    const started = performance.now();
    execFileSync(process.execPath, ["scripts/build-if-changed.mjs"], { stdio: "ignore" });
    const checked = performance.now();
    const site = await startSiteProcess({ DATA_DIR: dataDir, SAMPLE_EVENTS: "true" }, []);
    const listening = performance.now();
    const status = (await fetch(site.url + "/")).status;
    const answered = performance.now();
    await site.stop();
    const result = {
      buildCheckMs: Math.round(checked - started),
      listeningMs: Math.round(listening - started),
      firstPageMs: Math.round(answered - started),
      firstPageStatus: status,
    };
    table(
      "A restart on an up-to-date build (embedded database), from the build check",
      ["step", "ms"],
      [
        ["build checked", result.buildCheckMs],
        ["listening", result.listeningMs],
        [`first answer from / (${status})`, result.firstPageMs],
      ],
    );
    return result;
  } finally {
    await fs.promises.rm(dataDir, { recursive: true, force: true });
  }
}

async function phoneScenario(site: RunningSite, paths: string[]) {
  const executablePath = findChromium();
  if (!executablePath) return console.log("\nNo Chromium: skipping the phone measurements.");
  const browser = await chromium.launch({ executablePath, args: chromiumArgs });
  const rows: (string | number)[][] = [];
  try {
    for (const page of paths) {
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
      const tab = await context.newPage();
      const cdp = await context.newCDPSession(tab);
      await cdp.send("Network.enable");
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
      await cdp.send("Network.emulateNetworkConditions", {
        offline: false,
        latency: 150,
        downloadThroughput: (1.6 * 1024 * 1024) / 8,
        uploadThroughput: (750 * 1024) / 8,
      });
      let bytes = 0;
      cdp.on("Network.loadingFinished", (event) => (bytes += event.encodedDataLength));
      await tab.goto(site.url + page, { waitUntil: "load" });
      const times = await tab.evaluate(async () => {
        const lcp = await new Promise<number>((resolve) => {
          new PerformanceObserver((list) => resolve(list.getEntries().at(-1)!.startTime)).observe({
            type: "largest-contentful-paint",
            buffered: true,
          });
        });
        const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN;
        const scripts = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter((entry) =>
          /\.js$/.test(new URL(entry.name).pathname),
        );
        return {
          fcp,
          lcp,
          scriptsLoaded: Math.max(0, ...scripts.map((entry) => entry.responseEnd)),
        };
      });
      rows.push([page, Math.round(times.fcp), Math.round(times.lcp), Math.round(times.scriptsLoaded), fixed(bytes)]);
      await context.close();
    }
  } finally {
    await browser.close();
  }
  table(
    "A cheap phone (4x CPU slow-down, 1.6 Mbit/s, 150 ms), first visit",
    ["page", "FCP ms", "LCP ms", "last script loaded ms", "bytes"],
    rows,
  );
  return rows;
}

try {
  // The production build, made again first if the sources changed since it was made.
  execFileSync(process.execPath, ["scripts/build-if-changed.mjs"], { stdio: "inherit" });
  const site = await startSite("embedded");
  const memory: Record<string, number> = { afterStartMB: residentMB(site.process.pid!) };
  const paths = await publicPages(site);
  results.pages = paths;
  if (scenarios.has("pages")) {
    const nginx = await startNginx(await save(site, [...paths, "/robots.txt"]));
    running.push(nginx);
    results.pagesUnderLoad = await pagesScenario(site, nginx, [...paths, "/robots.txt"]);
    memory.afterPagesMB = residentMB(site.process.pid!);
    memory.nginxMB = residentMB(nginx.pid);
  }
  if (scenarios.has("memory")) {
    results.memory = memory;
    table(
      "Memory: the site's resident set (embedded database)",
      ["when", "MB"],
      Object.entries(memory).map(([when, mb]) => [when, mb]),
    );
  }
  if (scenarios.has("js")) results.firstVisitJs = await jsScenario(site);
  if (scenarios.has("phone")) results.phone = await phoneScenario(site, paths);
  if (scenarios.has("lighthouse")) {
    const event = paths[3]!;
    // The last run's reports only, like the results beside them.
    const lighthouseReports = path.join("bench", "results", "lighthouse-reports");
    fs.rmSync(lighthouseReports, { recursive: true, force: true });
    results.lighthouse = await lighthouseScenario(
      site.url,
      [
        { name: "/", path: "/" },
        { name: "/fundraising", path: "/fundraising" },
        { name: "an event page", path: event },
        { name: "/book-event/:id", path: event.replace("/fundraising-event/", "/book-event/") },
        { name: "/volunteering", path: "/volunteering" },
        { name: "/payment", path: "/payment" },
        // The card form, as a donor who chose an amount sees it (the offline test provider's).
        { name: "/payment?amount=10.00", path: "/payment?amount=10.00" },
      ],
      table,
      lighthouseReports,
    );
  }
  if (scenarios.has("start")) results.start = await startScenario();
  if (scenarios.has("order")) {
    // A site of its own for each database: its 55 starts would count towards the rush's spike.
    const costs = [];
    const engines = postgresBase ? (["embedded", "postgres"] as const) : (["embedded"] as const);
    // BENCH_ENGINES=postgres (or embedded) measures one database only, to compare a change quickly.
    for (const engine of engines.filter((one) => (process.env.BENCH_ENGINES ?? one).split(",").includes(one))) {
      const fresh = await startSite(engine);
      costs.push(
        await orderScenario(
          { url: fresh.url, database: fresh.database, cpuMs: () => cpuMs(fresh.process.pid!) },
          { cookie: await signedInCookie(fresh.url, staffAccount), table },
        ),
      );
      await fresh.stop();
    }
    results.order = costs;
  }
  if (scenarios.has("rush")) {
    const rushOf = (running: RunningSite & { database: string }) =>
      rushScenario(
        { url: running.url, database: running.database, cpuMs: () => cpuMs(running.process.pid!) },
        { staff: staffAccount, table },
      );
    const rushes = [await rushOf(site)];
    if (postgresBase) {
      rushes.push(await rushOf(await startSite("postgres")));
      // The same rush with the site in two processes (SITE_PROCESSES=2, decision 047).
      rushes.push(await rushOf(await startSite("postgres", 2)));
    } else
      console.log("\nDATABASE_URL and TEST_DATABASE_URL are unset: the ticket rush ran on the embedded database only.");
    results.rush = rushes;
  }
  if (scenarios.has("feed"))
    results.feed = await feedScenario(startSite, postgresBase ? ["embedded", "postgres"] : ["embedded"]);
} finally {
  await stopAll();
}

// Each scenario's latest result under a stable name, with the run's time, machine and load.
const resultKeys: Record<string, string> = {
  pages: "pagesUnderLoad",
  memory: "memory",
  js: "firstVisitJs",
  phone: "phone",
  lighthouse: "lighthouse",
  start: "start",
  order: "order",
  rush: "rush",
  feed: "feed",
};
fs.mkdirSync(path.join("bench", "results"), { recursive: true });
console.log("");
for (const [scenario, key] of Object.entries(resultKeys)) {
  if (!scenarios.has(scenario) || results[key] === undefined) continue;
  const { at, machine, pages } = results;
  const out = path.join("bench", "results", `${scenario}.json`);
  fs.writeFileSync(out, JSON.stringify({ at, machine, load, pages, [key]: results[key] }, null, 2) + "\n");
  console.log(`Written to ${out}`);
}
