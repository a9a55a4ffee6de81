import { describe, expect, it } from "vitest";
import { bookingFeePence, bookingTotalPence, quantityForOverview } from "./pricing";

describe("booking prices in pence", () => {
  it("add the £0.49 fee once per booking, not per ticket", () => {
    expect(bookingFeePence).toBe(49);
    expect(bookingTotalPence(1250, 1)).toBe(1299);
    expect(bookingTotalPence(1250, 3)).toBe(3799);
    expect(bookingTotalPence(0, 2)).toBe(49);
  });
  it("stay exact where floating point would not (19.99 × 3 + 0.49)", () => {
    expect(bookingTotalPence(1999, 3)).toBe(6046);
  });
  it("refuse amounts that are not whole pence or quantities below one", () => {
    expect(() => bookingTotalPence(12.5, 1)).toThrow();
    expect(() => bookingTotalPence(1250, 0)).toThrow();
  });
  it("count an invalid quantity as one ticket in the overview", () => {
    expect(quantityForOverview("3")).toBe(3);
    expect(quantityForOverview("29")).toBe(29);
    for (const typed of ["", "0", "30", "2x", "-1", "1.5", "abc"]) expect(quantityForOverview(typed)).toBe(1);
  });
});
