import { describe, expect, it } from "vitest";
import { checkInPath, codeMatches, readBookingCode, shortCode } from "./booking-code";

const ref = "3f9a1c2b-7d4e-4a1b-9c3d-5e6f7a8b9c0d";

describe("booking codes", () => {
  it("prints the short code as two groups of four capital hex digits", () => {
    expect(shortCode(ref)).toBe("3F9A-1C2B");
  });

  it("reads a full reference, with or without dashes, in any case", () => {
    expect(readBookingCode(ref)).toEqual({ kind: "reference", bookingRef: ref });
    expect(readBookingCode(` ${ref.toUpperCase().replace(/-/g, "")} `)).toEqual({ kind: "reference", bookingRef: ref });
  });

  it("reads the short code however it is typed", () => {
    for (const typed of ["3F9A-1C2B", "3f9a1c2b", "3F9A 1C2B"]) {
      expect(readBookingCode(typed)).toEqual({ kind: "short", prefix: "3f9a1c2b" });
    }
  });

  it("reads the receipt's QR link, on any host", () => {
    expect(readBookingCode(`https://kilele.example${checkInPath(ref)}`)).toEqual({
      kind: "reference",
      bookingRef: ref,
    });
  });

  it("refuses what is not a reference", () => {
    for (const typed of ["", "hello", "3F9A-1C2", "3f9a1c2b-7d4e", "https://example.org/somewhere"]) {
      expect(readBookingCode(typed)).toBeUndefined();
    }
  });

  it("matches a code against a reference", () => {
    expect(codeMatches(readBookingCode("3F9A-1C2B")!, ref)).toBe(true);
    expect(codeMatches(readBookingCode("3F9A-1C2C")!, ref)).toBe(false);
    expect(codeMatches(readBookingCode(ref)!, ref)).toBe(true);
  });
});
