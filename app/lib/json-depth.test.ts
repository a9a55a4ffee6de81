import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maxJsonDepth, nestsTooDeep } from "./json-depth";

const nested = (levels: number) => "[".repeat(levels) + "]".repeat(levels);

describe("how deep JSON from outside may nest", () => {
  it("allows the most levels, and refuses one more, of arrays or objects", () => {
    expect(nestsTooDeep(nested(maxJsonDepth))).toBe(false);
    expect(nestsTooDeep(nested(maxJsonDepth + 1))).toBe(true);
    expect(nestsTooDeep('{"a":'.repeat(maxJsonDepth + 1) + "1" + "}".repeat(maxJsonDepth + 1))).toBe(true);
  });
  it("refuses the review's body, 20,000 nested arrays, at once", () => {
    expect(nestsTooDeep(nested(20_000))).toBe(true);
  });
  it("does not count brackets inside strings, escaped quotes included", () => {
    const text = JSON.stringify({ words: "[[[[".repeat(100), quoted: '"[{'.repeat(100) });
    expect(nestsTooDeep(text)).toBe(false);
  });
  it("agrees with a count of the parsed value's depth for any JSON", () => {
    const depthOf = (value: unknown): number =>
      typeof value === "object" && value !== null ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0;
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 8 }), (value, max) => {
        expect(nestsTooDeep(JSON.stringify(value), max)).toBe(depthOf(value) > max);
      }),
    );
  });
});
