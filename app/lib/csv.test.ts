import { describe, expect, it } from "vitest";
import { csvDownload, safeCell, toCsv } from "./csv";

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

  it("is downloaded under a safe file name, never cached", async () => {
    const response = csvDownload("a,b\r\n", 'tickets "quiz"\r\n.csv');
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="tickets--quiz---.csv"');
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(await response.text()).toBe("a,b\r\n");
  });
});
