import { describe, expect, it } from "vitest";
import { safeCell, toCsv } from "./csv";

describe("CSV for staff", () => {
  it("neutralises cells a spreadsheet would run as formulas", () => {
    for (const typed of ['=HYPERLINK("http://evil")', "+44 7700", "-2+3", "@SUM(A1)", "\t=1", "\r=1"]) {
      expect(safeCell(typed)).toBe(`'${typed}`);
    }
    expect(safeCell("Amina Mushi")).toBe("Amina Mushi");
    expect(safeCell("a=b")).toBe("a=b");
    expect(safeCell(4)).toBe("4");
    expect(safeCell(null)).toBe("");
  });

  it("quotes commas, quotes and line breaks, and starts with a byte-order mark", () => {
    const csv = toCsv(["Name", "Note"], [["Mushi, Amina", 'said "hi"\nthen left']]);
    expect(csv).toBe('\uFEFFName,Note\r\n"Mushi, Amina","said ""hi""\nthen left"\r\n');
  });
});
