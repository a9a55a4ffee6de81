import { describe, expect, it } from "vitest";
import { shouldAutoAdvance, wrapIndex } from "./carousel-state";

describe("the image wheel's position", () => {
  it("moves forward and back one slide", () => {
    expect(wrapIndex(1, 1, 5)).toBe(2);
    expect(wrapIndex(2, -1, 5)).toBe(1);
  });
  it("wraps from the last slide to the first and from the first to the last", () => {
    expect(wrapIndex(4, 1, 5)).toBe(0);
    expect(wrapIndex(0, -1, 5)).toBe(4);
  });
  it("jumps straight to a chosen indicator", () => {
    expect(wrapIndex(3, 0, 5)).toBe(3);
  });
  it("stays on the only slide of a one-image wheel", () => {
    expect(wrapIndex(0, 1, 1)).toBe(0);
    expect(wrapIndex(0, -1, 1)).toBe(0);
  });
});

describe("when the wheel turns by itself", () => {
  const idle = { count: 5, playing: true, hovered: false, focused: false, reducedMotion: false };
  it("turns when nothing holds it", () => expect(shouldAutoAdvance(idle)).toBe(true));
  it("holds still while hovered", () => expect(shouldAutoAdvance({ ...idle, hovered: true })).toBe(false));
  it("holds still while it has keyboard focus", () =>
    expect(shouldAutoAdvance({ ...idle, focused: true })).toBe(false));
  it("holds still when paused", () => expect(shouldAutoAdvance({ ...idle, playing: false })).toBe(false));
  it("never turns when reduced motion is asked for", () =>
    expect(shouldAutoAdvance({ ...idle, reducedMotion: true })).toBe(false));
  it("does not turn with a single image", () => expect(shouldAutoAdvance({ ...idle, count: 1 })).toBe(false));
});
