// `npm run bench`: how fast the site is, in numbers. Builds nothing: run `npm run build` first.
// 1. What a first visit downloads: JavaScript and CSS, compressed.
// 2. Server rendering: latency and throughput per page under concurrent requests (loopback).
// 3. A cheap phone: Chromium with 4x CPU slow-down on a slow 4G link, per page: LCP and bytes moved.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { chromium } from "@playwright/test";
import { chromiumArgs, findChromium } from "../tests/support/chromium";
import { startSiteProcess } from "../tests/support/site-process";

const pages = ["/", "/about", "/contact", "/volunteering", "/project/clean-water-borehole", "/payment?amount=25.00"];
const requestsPerPage = Number(process.env.BENCH_REQUESTS ?? 300);
const concurrency = 10;

function kb(bytes: number) {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

function bundleSizes() {
  const dir = "build/client/assets";
  if (!fs.existsSync(dir)) throw new Error("No build: run `npm run build` first.");
  let js = 0;
  let css = 0;
  for (const file of fs.readdirSync(dir)) {
    const body = fs.readFileSync(path.join(dir, file));
    const size = zlib.brotliCompressSync(body).length;
    if (file.endsWith(".js")) js += size;
    if (file.endsWith(".css")) css += size;
  }
  console.log(`All JavaScript (brotli): ${kb(js)}; CSS (brotli): ${kb(css)}`);
}

async function serverThroughput(url: string) {
  console.log(`\nServer rendering, ${requestsPerPage} requests per page, ${concurrency} at a time:`);
  for (const page of pages) {
    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < requestsPerPage) {
          next += 1;
          const t = performance.now();
          const response = await fetch(url + page, { headers: { "Accept-Encoding": "br" } });
          await response.arrayBuffer();
          if (response.status !== 200) throw new Error(`${page} answered ${response.status}`);
          latencies.push(performance.now() - t);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1);
    console.log(
      `  ${page.padEnd(32)} ${(latencies.length / seconds).toFixed(0).padStart(5)} req/s   p50 ${p(0.5)} ms   p95 ${p(0.95)} ms`,
    );
  }
}

async function cheapPhone(url: string) {
  const executablePath = findChromium();
  if (!executablePath) {
    console.log("\nNo Chromium: skipping the phone measurements.");
    return;
  }
  console.log("\nCheap phone (4x CPU slow-down, 1.6 Mbit/s, 150 ms RTT), first visit:");
  const browser = await chromium.launch({ executablePath, args: chromiumArgs });
  for (const page of pages) {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
    });
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
    await tab.goto(url + page, { waitUntil: "load" });
    const lcp = await tab.evaluate(
      () =>
        new Promise<number>((resolve) => {
          new PerformanceObserver((list) => {
            const entries = list.getEntries();
            resolve(entries[entries.length - 1]!.startTime);
          }).observe({ type: "largest-contentful-paint", buffered: true });
        }),
    );
    const cls = await tab.evaluate(
      () =>
        new Promise<number>((resolve) => {
          let total = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
              if (!entry.hadRecentInput) total += entry.value;
            }
          }).observe({ type: "layout-shift", buffered: true });
          requestAnimationFrame(() => requestAnimationFrame(() => resolve(total)));
        }),
    );
    console.log(
      `  ${page.padEnd(32)} LCP ${lcp.toFixed(0).padStart(5)} ms   CLS ${cls.toFixed(3)}   ${kb(bytes).padStart(9)} transferred`,
    );
    await context.close();
  }
  await browser.close();
}

bundleSizes();
const site = await startSiteProcess();
try {
  await serverThroughput(site.url);
  await cheapPhone(site.url);
} finally {
  await site.stop();
}
