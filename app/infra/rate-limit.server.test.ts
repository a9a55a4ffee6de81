import { describe, expect, it } from "vitest";
import { RateLimiter } from "./rate-limit.server";

describe("the rate limiter", () => {
  it("allows the limit in a window, refuses more, and allows again when the window has passed", () => {
    let now = new Date("2026-11-22T10:00:00Z");
    const limiter = new RateLimiter({ limit: 2, windowMs: 100 });
    expect([limiter.attempt("a", now), limiter.attempt("a", now), limiter.attempt("a", now)]).toEqual([
      true,
      true,
      false,
    ]);
    expect(limiter.peek("a", now)).toBe(false);
    expect(limiter.attempt("b", now)).toBe(true);
    now = new Date(now.getTime() + 100);
    expect(limiter.peek("a", now)).toBe(true);
    expect(limiter.attempt("a", now)).toBe(true);
  });
});
