import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "~/infra/db/database.server";
import { createPostgresDatabase, engines, freshDatabase } from "../../tests/support/databases";
import { rateLimits } from "~db/schema";
import { RateLimiter } from "./rate-limit.server";

const start = new Date("2026-11-22T10:00:00Z");
const later = (ms: number) => new Date(start.getTime() + ms);

describe.each(engines)("the rate limiter on %s", (engine) => {
  let database: DatabaseHandle;
  beforeEach(async () => {
    database = await freshDatabase(engine);
  });
  afterEach(() => database.close());

  it("allows the limit in a window, refuses more, and allows again when the window has passed", async () => {
    const limiter = new RateLimiter(database.db, { name: "test", limit: 2, windowMs: 100 });
    expect([
      await limiter.attempt("a", start),
      await limiter.attempt("a", start),
      await limiter.attempt("a", later(50)),
    ]).toEqual([true, true, false]);
    expect(await limiter.peek("a", later(99))).toBe(false);
    expect(await limiter.attempt("b", start)).toBe(true);
    expect(await limiter.peek("a", later(100))).toBe(true);
    expect(await limiter.attempt("a", later(100))).toBe(true);
    expect(await limiter.count("a", later(150))).toEqual({ allowed: true, count: 2, retryAfterSeconds: 1 });
  });

  it("counts 40 attempts made at once exactly: the limit is allowed, no more", async () => {
    const limiter = new RateLimiter(database.db, { name: "test", limit: 10, windowMs: 60_000 });
    const answers = await Promise.all(Array.from({ length: 40 }, () => limiter.attempt("a", start)));
    expect(answers.filter(Boolean)).toHaveLength(10);
  });

  it("keeps limits of different names apart, and gives back an attempt that turned out well", async () => {
    const one = new RateLimiter(database.db, { name: "one", limit: 1, windowMs: 60_000 });
    const two = new RateLimiter(database.db, { name: "two", limit: 1, windowMs: 60_000 });
    expect(await one.attempt("a", start)).toBe(true);
    expect(await two.attempt("a", start)).toBe(true);
    expect(await one.peek("a", start)).toBe(false);
    await one.giveBack("a", start);
    expect(await one.attempt("a", start)).toBe(true);
    expect(await one.attempt("a", start)).toBe(false);
  });

  it("forgets windows that have passed without being asked about their keys again", async () => {
    const limiter = new RateLimiter(database.db, { name: "test", limit: 5, windowMs: 60_000 });
    for (let i = 0; i < 50; i++) await limiter.attempt(`visitor ${i}`, start);
    expect(await database.db.$count(rateLimits)).toBe(50);
    // A minute and a bit later, the next hit deletes the 50 passed windows; only its own row is left.
    await limiter.attempt("someone new", later(61_000));
    expect(await database.db.select({ key: rateLimits.key }).from(rateLimits)).toEqual([{ key: "someone new" }]);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)("rate limits on one PostgreSQL shared by two processes", () => {
  let handles: DatabaseHandle[] = [];
  let drop: () => Promise<void>;
  beforeEach(async () => {
    const created = await createPostgresDatabase();
    drop = created.drop;
    handles = [await openDatabase({ url: created.url }), await openDatabase({ url: created.url })];
  });
  afterEach(async () => {
    for (const handle of handles) await handle.close();
    await drop();
  });

  it("count together: five a window between them, whichever process is asked", async () => {
    const [first, second] = handles.map(
      (handle) => new RateLimiter(handle.db, { name: "volunteer-sign-ups", limit: 5, windowMs: 60_000 }),
    );
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? first! : second!).attempt("203.0.113.7", start)),
    );
    expect(answers.filter(Boolean)).toHaveLength(5);
    expect(await first!.peek("203.0.113.7", start)).toBe(false);
    expect(await second!.attempt("203.0.113.7", later(60_000))).toBe(true);
  });
});
