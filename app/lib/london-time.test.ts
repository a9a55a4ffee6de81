import { describe, expect, it } from "vitest";
import { londonDate, londonTime } from "./london-time";

describe("London dates and times", () => {
  it("shows winter times in GMT", () => {
    expect(londonDate("2026-01-15T19:30:00Z")).toBe("15/01/2026");
    expect(londonTime("2026-01-15T19:30:00Z")).toBe("19:30");
  });
  it("shows summer times in BST, an hour ahead of UTC", () => {
    expect(londonTime("2026-07-04T18:00:00Z")).toBe("19:00");
  });
  it("gives the London date for a time that is already tomorrow in London", () => {
    expect(londonDate("2026-06-30T23:30:00Z")).toBe("01/07/2026");
    expect(londonTime("2026-06-30T23:30:00Z")).toBe("00:30");
  });
  it("does not depend on the machine's time zone (run under TZ=America/Los_Angeles too)", () => {
    expect(londonDate(new Date(Date.UTC(2026, 2, 29, 0, 30)))).toBe("29/03/2026");
    expect(londonTime(new Date(Date.UTC(2026, 2, 29, 1, 30)))).toBe("02:30");
  });
});

describe("date-time inputs in London time", () => {
  it("read and write winter (GMT) and summer (BST) times", async () => {
    const { fromLondonInput, londonInputValue } = await import("./london-time");
    expect(fromLondonInput("2026-12-05T19:00")).toBe("2026-12-05T19:00:00.000Z");
    expect(fromLondonInput("2026-07-04T19:00")).toBe("2026-07-04T18:00:00.000Z");
    expect(londonInputValue("2026-07-04T18:00:00Z")).toBe("2026-07-04T19:00");
    expect(londonInputValue("2026-12-05T19:00:00Z")).toBe("2026-12-05T19:00");
  });
  it("refuse what is not a date-time, and a time the clocks skip", async () => {
    const { fromLondonInput } = await import("./london-time");
    expect(fromLondonInput("05/12/2026 19:00")).toBeUndefined();
    expect(fromLondonInput("2027-03-28T01:30")).toBeUndefined();
  });
});

describe("dates in words, as staff read them", () => {
  it("name the weekday, in London's winter and summer time", async () => {
    const { londonDayWords, londonWhen } = await import("./london-time");
    expect(londonWhen("2026-11-26T17:37:32.163Z")).toBe("Thursday 26 November 2026 at 17:37");
    expect(londonWhen("2026-07-04T23:30:00Z")).toBe("Sunday 5 July 2026 at 00:30");
    expect(londonDayWords("2026-03-29T00:30:00Z")).toBe("Sunday 29 March 2026");
  });

  it("are short in a staff table, still with the weekday", async () => {
    const { londonStamp } = await import("./london-time");
    expect(londonStamp("2026-11-27T12:12:00Z")).toBe("Fri 27 Nov 2026, 12:12");
    // Past midnight in London's summer time is the next day.
    expect(londonStamp("2026-07-04T23:30:00Z")).toBe("Sun 5 Jul 2026, 00:30");
  });
});
