/**
 * Where the site reads the time. Every rule that compares or records times (seat holds, ticket
 * sales closing, e-mail retries, staff sessions, rate limits) takes `now` from the one clock the
 * running site was given, and writes it into the database explicitly. Nothing relies on the
 * database's `now()` or a column default, which may disagree with this clock (another server's
 * time, or a test's fixed time). See docs/decisions/009-one-clock.md.
 */
export interface Clock {
  now(): Date;
}

/** The machine's time: what the running site uses. */
export const systemClock: Clock = { now: () => new Date() };
