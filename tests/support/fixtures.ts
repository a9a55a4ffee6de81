import fs from "node:fs/promises";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect as playwrightExpect, type Page } from "@playwright/test";
import { newSiteDataDir, startSiteProcess, type RunningSite } from "./site-process";
import { TestSmtpServer } from "./smtp";
import { newVisitorAddress } from "./visitors";

interface Fixtures {
  /** Console errors a test causes on purpose (a server it stops, a request it fails). */
  allowedConsoleErrors: RegExp[];
  /** Fails the test on any other console error or uncaught exception in the page. */
  failOnConsoleErrors: void;
}

interface WorkerFixtures {
  /** A server of this test file's own, on a fresh data folder. */
  site: RunningSite;
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  site: [
    async ({}, use) => {
      const site = await startSiteProcess();
      await use(site);
      await site.stop();
    },
    { scope: "worker" },
  ],
  baseURL: async ({ site }, use) => use(site.url),
  // Each test is a visitor of its own, from its own address (tests/support/visitors.ts).
  extraHTTPHeaders: async ({}, use) => use({ "X-Forwarded-For": newVisitorAddress() }),
  allowedConsoleErrors: [[], { option: true }],
  failOnConsoleErrors: [
    async ({ page, allowedConsoleErrors }, use) => {
      const problems: string[] = [];
      const allowed = [...expectedConsoleErrors, ...allowedConsoleErrors];
      page.on("console", (message) => {
        if (message.type() === "error" && !allowed.some((pattern) => pattern.test(message.text()))) {
          problems.push(message.text());
        }
      });
      page.on("pageerror", (error) => problems.push(error.message));
      await use();
      expect(problems, "console errors in the page").toEqual([]);
    },
    { auto: true },
  ],
});

// Failed requests the tests cause on purpose show up in the console as errors.
const expectedConsoleErrors = [
  /Failed to load resource: the server responded with a status of (400|404|429|503)/,
  /net::ERR_FAILED/,
  // The trace's snapshots fetch a picture shown from a blob: address (a file just chosen on a
  // form); the page's policy lets images, not fetches, use such an address.
  /^Connecting to 'blob:.*connect-src/,
];

/** Like `test`, but every test gets a server and data folder of its own (for tests that count or store). */
export const testWithOwnSite = test.extend<{ ownSite: RunningSite }>({
  ownSite: async ({}, use) => {
    const dataDir = await newSiteDataDir();
    const site = await startSiteProcess({ DATA_DIR: dataDir });
    await use(site);
    await site.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  },
  baseURL: async ({ ownSite }, use) => use(ownSite.url),
});

/**
 * Playwright's `expect`, but `expect.poll` checks again after 50, 100, 100, 250 ms and then every
 * 250 ms, where Playwright's own checks after 100, 250, 500 ms and then only every second. A mail
 * that arrives 400 ms after the click was seen at 850 ms; now at 500. The condition and the time
 * allowed are the test's, as before; only the wait between two looks is shorter (decision 039).
 * An `intervals` a test gives still wins.
 */
const pollIntervals = [50, 100, 100, 250];
export const expect = new Proxy(playwrightExpect, {
  get(target, property, receiver) {
    if (property !== "poll") return Reflect.get(target, property, receiver) as unknown;
    const poll: typeof target.poll = (generator, options) =>
      target.poll(
        generator,
        typeof options === "string"
          ? { message: options, intervals: pollIntervals }
          : { intervals: pollIntervals, ...options },
      );
    return poll;
  },
});

/**
 * Runs axe on the page and fails on any serious or critical violation. To check a page's frames,
 * axe opens a blank page beside it for every check, which doubles the check's time; a page without
 * frames is checked without (axe's "legacy mode"), with the same rules. That mode would miss
 * violations inside frames, so any page with one is checked the full way
 * (docs/decisions/052-axe-without-a-blank-page.md; tests/e2e/accessibility-check.spec.ts).
 */
export async function expectNoSeriousA11yViolations(page: Page) {
  const withoutFrames = page.frames().length === 1;
  const results = await new AxeBuilder({ page }).setLegacyMode(withoutFrames).analyze();
  const serious = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`),
    "serious or critical accessibility violations",
  ).toEqual([]);
}

/**
 * Where /confirmation shows its outcome. The page streams: for a moment after the outcome arrives,
 * React keeps a hidden copy of it at the end of the body before swapping it in, so text is looked
 * for in the main landmark only.
 */
export function confirmationOutcome(page: Page) {
  return page.getByRole("main");
}

/**
 * For each test of the calling describe block: a mail server on loopback and a site of its own
 * that sends its e-mail there, from `mailFrom`. Read `.site` and `.smtp` inside the tests.
 */
export function useSiteWithMailServer(mailFrom: string) {
  const running = {} as { site: RunningSite; smtp: TestSmtpServer };
  test.beforeEach(async () => {
    running.smtp = await new TestSmtpServer().start();
    running.site = await startSiteProcess({ SMTP_URL: running.smtp.url, MAIL_FROM: mailFrom });
  });
  test.afterEach(async ({ context }) => {
    // The test's pages close first: one still open would see its server go (a route fetched as a
    // link comes into view) and report the failed request as a console error.
    for (const page of context.pages()) await page.close();
    await running.site.stop();
    await running.smtp.stop();
  });
  return running;
}
