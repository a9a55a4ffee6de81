import { describe, expect, it } from "vitest";
import { RateLimiter } from "./rate-limit.server";

describe("the rate limiter", () => {
  it("allows the limit in a window, refuses more, and allows again when the window has passed", () => {
    let now = 1_000;
    const limiter = new RateLimiter({ limit: 2, windowMs: 100, now: () => now });
    expect([limiter.attempt("a"), limiter.attempt("a"), limiter.attempt("a")]).toEqual([true, true, false]);
    expect(limiter.attempt("b")).toBe(true);
    now += 100;
    expect(limiter.attempt("a")).toBe(true);
  });
});
