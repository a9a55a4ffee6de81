import { startSiteProcess } from "./site-process";

// A site process whose clock is set with libfaketime ("start at": the clock then runs on), as
// tests/e2e/monthly-gifts.spec.ts moves it, to days counted from today's month, so that a test
// about months never depends on today's date; and the test's own clock, which follows it
// (webhook signatures, the Stripe stand-in's bills).

const faketime = "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1";

const today = new Date();

/** `hour`:00 UTC on `day` of the month `months` after this one. */
export const dayOf = (months: number, day: number, hour: number) =>
  new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + months, day, hour));

let offsetMs = 0;

/** The clock of the site started last, as the test reads it: where it was set to, running on since. */
export const siteClock = { now: () => new Date(Date.now() + offsetMs) };

/** Starts the site (startSiteProcess) with its clock starting at `at` (UTC). */
export function startSiteAt(at: Date, env: Record<string, string>) {
  offsetMs = at.getTime() - Date.now();
  const stamp = at.toISOString().slice(0, 19).replace("T", " ");
  return startSiteProcess({ ...env, LD_PRELOAD: faketime, FAKETIME: `@${stamp}`, TZ: "UTC" });
}
