import type { Clock } from "~/lib/clock";

/** A clock that stands still until a test moves it: for everything the test touches, not just one part. */
export interface TestClock extends Clock {
  set(at: Date | string): void;
  advance(ms: number): void;
}

/** A test clock starting at `start`, by default the real time (so dates relative to today stay realistic). */
export function testClock(start: Date | string = new Date()): TestClock {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    set(at) {
      current = new Date(at).getTime();
    },
    advance(ms) {
      current += ms;
    },
  };
}
