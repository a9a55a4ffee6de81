// The `lighthouse` scenario of `npm run bench`: Lighthouse 12.8.2's four scores for the public pages
// and the pages that take money, as a phone sees them (Lighthouse's default settings: a mid-range
// phone's screen, a 4x slower CPU and a slow 4G network, simulated), in Debian's Chromium.
// Issue 15's goals: performance at least 98, accessibility, best practices and SEO 100.
//
// The performance score moves with the machine's load (the simulation starts from timings taken on
// this machine), so each page is measured more than once (BENCH_LIGHTHOUSE_RUNS, 3 unless set)
// and the table gives the median run with the lowest and highest performance score beside it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import lighthouse from "lighthouse";
import { chromiumArgs, findChromium } from "../../tests/support/chromium";

const categories = ["performance", "accessibility", "best-practices", "seo"] as const;
type Category = (typeof categories)[number];

export interface LighthousePage {
  /** How the table names the page. */
  name: string;
  path: string;
}

export interface LighthouseRun {
  scores: Record<Category, number>;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** What the page's scripts took on the wire, as Lighthouse counted it (headers included). */
  scriptBytes: number;
  /** Audits that cost a category points: their ids and scores, for the next engineer to look at. */
  failing: { id: string; category: Category; score: number; title: string }[];
  loadAverage: number[];
}

/**
 * Runs Lighthouse on each page `runs` times, the pages in turn (so a burst of load elsewhere falls
 * on one run of each, not all runs of one page), and prints a table of the median runs.
 * Chromium is started for each run, so that no run finds another's cache.
 */
export async function lighthouseScenario(
  origin: string,
  pages: LighthousePage[],
  table: (title: string, header: string[], rows: (string | number)[][]) => void,
  /** Where each run's full report is written (Lighthouse's JSON, for its viewer), one file per page and run. */
  reportDir: string,
  runs = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3),
) {
  fs.mkdirSync(reportDir, { recursive: true });
  const executablePath = findChromium();
  if (!executablePath) {
    console.log("\nNo Chromium: skipping Lighthouse.");
    return undefined;
  }
  const results = new Map<string, LighthouseRun[]>(pages.map((page) => [page.path, []]));
  for (let run = 0; run < runs; run += 1) {
    for (const page of pages) {
      const report = path.join(
        reportDir,
        `${page.name.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "") || "home"}-${run + 1}.json`,
      );
      const result = await auditWithRetries(executablePath, origin + page.path, report);
      if (result) results.get(page.path)!.push(result);
    }
  }

  const rows = pages.flatMap((page) => {
    const all = results.get(page.path)!;
    if (all.length === 0) return [];
    const byPerformance = [...all].sort((a, b) => a.scores.performance - b.scores.performance);
    const median = byPerformance[Math.floor((byPerformance.length - 1) / 2)]!;
    return [{ ...page, median, runs: all }];
  });
  table(
    `Lighthouse 12.8.2, mobile (simulated slow 4G, 4x CPU): median of ${runs} runs per page, load average ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(" ")}`,
    ["page", "perf", "perf min-max", "a11y", "best pr.", "SEO", "LCP ms", "TBT ms", "CLS", "script KB"],
    rows.map(({ name, median, runs: all }) => {
      const performance = all.map((r) => r.scores.performance);
      return [
        name,
        median.scores.performance,
        `${Math.min(...performance)}-${Math.max(...performance)}`,
        median.scores.accessibility,
        median.scores["best-practices"],
        median.scores.seo,
        Math.round(median.lcpMs),
        Math.round(median.tbtMs),
        median.cls.toFixed(3),
        (median.scriptBytes / 1024).toFixed(1),
      ];
    }),
  );
  for (const { name, runs: all } of rows) {
    const failing = new Map<string, string>();
    for (const run of all) {
      for (const audit of run.failing) failing.set(audit.id, `${audit.category}: ${audit.id} (${audit.title})`);
    }
    if (failing.size > 0) console.log(`  ${name}: ${[...failing.values()].join("; ")}`);
  }
  return rows;
}

/**
 * A run, tried again up to twice when Lighthouse fails to record it: on a loaded machine it now and
 * then loses the trace (NO_NAVSTART) or a protocol answer. A run that fails three times is left out.
 */
async function auditWithRetries(executablePath: string, url: string, report: string) {
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    try {
      return await audit(executablePath, url, report);
    } catch (error) {
      console.log(`  Lighthouse, ${url}, attempt ${attempt}: ${(error as Error).message.split("\n")[0]}`);
    }
  }
  return undefined;
}

async function audit(executablePath: string, url: string, report: string): Promise<LighthouseRun> {
  // Lighthouse drives Chromium through its debugging port; Playwright starts and stops it.
  const port = 42_000 + Math.floor(Math.random() * 900) + 50;
  const browser = await chromium.launch({ executablePath, args: [...chromiumArgs, `--remote-debugging-port=${port}`] });
  try {
    const result = await lighthouse(url, {
      port,
      output: "json",
      logLevel: "error",
      onlyCategories: [...categories],
      // Each run has a new browser with an empty profile: nothing to clear, and clearing asked
      // Chromium for storage quotas it sometimes could not give ("Quota information is not available").
      disableStorageReset: true,
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const lhr = result.lhr;
    fs.writeFileSync(report, String(result.report));
    if (lhr.runtimeError) throw new Error(`Lighthouse could not audit ${url}: ${lhr.runtimeError.message}`);
    const scores = Object.fromEntries(
      categories.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]),
    ) as Record<Category, number>;
    const failing = categories.flatMap((category) =>
      (lhr.categories[category]?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0)
        .map((ref) => ({ ref, audit: lhr.audits[ref.id]! }))
        .filter(({ audit }) => audit.score !== null && audit.score < (category === "performance" ? 0.9 : 1))
        .map(({ ref, audit }) => ({ id: ref.id, category, score: audit.score!, title: audit.title })),
    );
    const summary = lhr.audits["resource-summary"]?.details as
      { items?: { resourceType: string; transferSize: number }[] } | undefined;
    return {
      scores,
      lcpMs: lhr.audits["largest-contentful-paint"]?.numericValue ?? NaN,
      tbtMs: lhr.audits["total-blocking-time"]?.numericValue ?? NaN,
      cls: lhr.audits["cumulative-layout-shift"]?.numericValue ?? NaN,
      scriptBytes: summary?.items?.find((item) => item.resourceType === "script")?.transferSize ?? NaN,
      failing,
      loadAverage: os.loadavg(),
    };
  } finally {
    await browser.close();
  }
}
