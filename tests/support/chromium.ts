import fs from "node:fs";
import { chromium } from "@playwright/test";

export const chromiumInstallHint =
  "No Chromium browser was found for the browser tests. Install Debian's with:\n\n    apt-get install -y chromium-headless-shell\n\n" +
  "(or chromium, or set CHROMIUM_PATH to a Chromium or Chrome executable).";

/**
 * The browser the tests drive: CHROMIUM_PATH, else Debian's headless Chromium
 * (/usr/bin/chromium-headless-shell, package chromium-headless-shell: Chromium's engine without the
 * browser around it, what Playwright itself runs headless tests in, for half the browser's CPU
 * (docs/decisions/050-the-browser-tests-in-headless-chromium.md)), else Debian's whole Chromium,
 * else Playwright's own download.
 */
export function findTestBrowser(): string | undefined {
  return firstFound([process.env.CHROMIUM_PATH, "/usr/bin/chromium-headless-shell", ...wholeChromium()]);
}

/**
 * The whole browser, as a visitor's phone runs it, for what the benchmark measures (Lighthouse, the
 * phone's timings): CHROMIUM_PATH, else Debian's /usr/bin/chromium, else Playwright's own download.
 */
export function findChromium(): string | undefined {
  return firstFound([process.env.CHROMIUM_PATH, ...wholeChromium()]);
}

function wholeChromium() {
  return ["/usr/bin/chromium", "/usr/bin/chromium-browser", safe(() => chromium.executablePath())];
}

function firstFound(candidates: (string | undefined)[]): string | undefined {
  return candidates.find((candidate): candidate is string => Boolean(candidate && fs.existsSync(candidate)));
}

function safe(get: () => string): string | undefined {
  try {
    return get();
  } catch {
    return undefined;
  }
}

/** Flags for a root user on a closed network: no sandbox, no GPU, no calls home. */
export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
];
