import { describe, expect, it } from "vitest";
import { pageOf, requestedPage, slicePage } from "./pagination";

describe("pages of 50", () => {
  it("reads ?page= as a whole number from 1, anything else as page 1", () => {
    expect(requestedPage("3")).toBe(3);
    for (const value of [null, undefined, "", "0", "-1", "2.5", "two"]) expect(requestedPage(value)).toBe(1);
  });

  it("clamps a page past the end to the last page, and an empty list has one page", () => {
    expect(pageOf([], 120, 9)).toMatchObject({ page: 3, pages: 3, offset: 100, limit: 50 });
    expect(pageOf([], 0, 4)).toMatchObject({ page: 1, pages: 1, offset: 0 });
  });

  it("slices a list in memory", () => {
    const all = Array.from({ length: 51 }, (_, i) => i);
    expect(slicePage(all, 1).rows).toHaveLength(50);
    expect(slicePage(all, 2)).toMatchObject({ rows: [50], page: 2, pages: 2, total: 51 });
  });
});
