import { describe, expect, it } from "vitest";
import { formatPounds, parsePence } from "./money";

describe("money in pence", () => {
  it("formats pence as pounds", () => {
    expect(formatPounds(0)).toBe("£0.00");
    expect(formatPounds(49)).toBe("£0.49");
    expect(formatPounds(1250)).toBe("£12.50");
    expect(formatPounds(1_000_000)).toBe("£10,000.00");
  });
  it("reads pounds without floating-point error", () => {
    expect(parsePence("12.5")).toBe(1250);
    expect(parsePence("£0.29")).toBe(29);
    expect(parsePence(0.29)).toBe(29);
    expect(parsePence(19.99)).toBe(1999);
    expect(parsePence("10")).toBe(1000);
  });
  it("refuses what is not an amount", () => {
    for (const bad of ["", "abc", "-1", "1.234", "1e3", "1,000", ".5", Number.NaN, -2])
      expect(parsePence(bad)).toBeUndefined();
  });
});
