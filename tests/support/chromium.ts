import fs from "node:fs";
import { chromium } from "@playwright/test";

export const chromiumInstallHint =
  "No Chromium browser was found for the browser tests. Install Debian's with:\n\n    apt-get install -y chromium\n\n" +
  "(or set CHROMIUM_PATH to a Chromium or Chrome executable).";

/** The browser the tests drive: CHROMIUM_PATH, else Debian's /usr/bin/chromium, else Playwright's own download. */
export function findChromium(): string | undefined {
  const candidates = [
    process.env.CHROMIUM_PATH,
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    safe(() => chromium.executablePath()),
  ];
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
