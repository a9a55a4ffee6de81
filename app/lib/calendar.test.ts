import { describe, expect, it } from "vitest";
import { calendarFile } from "./calendar";

// The calendar file as a calendar app reads it (RFC 5545): lines end CRLF, no line is longer than
// 75 bytes, and text is escaped.

const entry = {
  uid: "booking-1@kilele-trust",
  title: "Kilele Quiz Night",
  start: new Date("2026-12-05T19:00:00Z"),
  madeAt: new Date("2026-11-22T12:00:00Z"),
};

/** The file's lines, unfolded (a line that goes on starts the next with a space). */
const unfolded = (text: string) => text.replace(/\r\n /g, "").split("\r\n");

describe("a calendar file", () => {
  it("is one event between the calendar's lines, each ending CRLF, with its times in UTC", () => {
    const text = calendarFile(entry)!;
    expect(text.startsWith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n")).toBe(true);
    expect(text.endsWith("END:VEVENT\r\nEND:VCALENDAR\r\n")).toBe(true);
    expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    const lines = unfolded(text);
    expect(lines).toContain("DTSTART:20261205T190000Z");
    expect(lines).toContain("DTSTAMP:20261122T120000Z");
    expect(lines).toContain("DURATION:PT3H");
    expect(lines).toContain("SEQUENCE:0");
  });

  it("escapes commas, semicolons, backslashes and line ends in text, and names the organiser", () => {
    const lines = unfolded(
      calendarFile({
        ...entry,
        location: "Hall; Church Lane, Ledbury",
        description: "Doors at 7\nBring a pen \\ pencil",
        organizer: { name: 'The "Kilele" Trust', email: "office@example.org" },
      })!,
    );
    expect(lines).toContain("LOCATION:Hall\\; Church Lane\\, Ledbury");
    expect(lines).toContain("DESCRIPTION:Doors at 7\\nBring a pen \\\\ pencil");
    expect(lines).toContain('ORGANIZER;CN="The Kilele Trust":MAILTO:office@example.org');
  });

  it("folds a long line at 75 bytes, never inside a character", () => {
    const title = "Ngoma na Nyimbo – an evening of Tanzanian drumming, songs and stories, über alles 🥁🥁🥁";
    const text = calendarFile({ ...entry, title })!;
    for (const line of text.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(text).not.toContain("\uFFFD");
    expect(unfolded(text)).toContain(`SUMMARY:${title.replace(/,/g, "\\,")}`);
  });

  it("says a cancelled event is cancelled, as a later version of the same entry", () => {
    const lines = unfolded(calendarFile({ ...entry, cancelled: true })!);
    expect(lines).toContain("SUMMARY:Cancelled: Kilele Quiz Night");
    expect(lines).toContain("STATUS:CANCELLED");
    expect(lines).toContain("SEQUENCE:1");
  });

  it("is not made for a time that is not one", () => {
    expect(calendarFile({ ...entry, start: new Date("not a date") })).toBeUndefined();
  });
});
