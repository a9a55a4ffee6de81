import { describe, expect, it } from "vitest";
import { calendarFileName } from "~/lib/calendar";
import { eventCalendar } from "./calendar.server";
import type { EventView } from "./schema";
import { offersCalendar } from "./status";

const now = new Date("2026-11-22T12:00:00Z");
const charity = { name: "Kilele Village Trust", email: "kilele@example.org" };
const origin = "https://www.kilele.example";

const quiz: EventView = {
  id: "6f1c2a9e-0b7d-4c55-9a57-1f0e2d3c4b5a",
  name: "Kilele Quiz Night",
  description: "Eight rounds of questions, with a fish-and-chip supper.",
  posterImage: "pages/quiz-night",
  eventDate: "2026-12-05T19:00:00.000Z",
  location: "St Mary's Church Hall, Ledbury",
  ticketCost: 12.5,
  ticketCostPence: 1250,
  totalAvailableTickets: 90,
  ticketSaleExpiry: "2026-12-04T12:00:00.000Z",
  isTest: false,
  link: null,
  testimonial: null,
  galleryImages: [],
};

/** The calendar file's lines, unfolded (long lines continue on the next with a space). */
function lines(text: string) {
  return text.replace(/\r\n[ \t]/g, "").split("\r\n");
}

describe("an event's calendar file", () => {
  it("holds the event: its name, its time in UTC, three hours, the place, its page and the charity", () => {
    const calendar = eventCalendar(quiz, { origin, charity, now })!;
    expect(calendar.fileName).toBe("kilele-quiz-night.ics");
    const file = lines(calendar.text);
    expect(file).toContain("BEGIN:VEVENT");
    expect(file).toContain(`UID:event-${quiz.id}@kilele-trust`);
    expect(file).toContain("SUMMARY:Kilele Quiz Night");
    expect(file).toContain("DTSTART:20261205T190000Z");
    expect(file).toContain("DURATION:PT3H");
    expect(file).toContain("LOCATION:St Mary's Church Hall\\, Ledbury");
    expect(file).toContain(`URL:${origin}/fundraising-event/${quiz.id}`);
    expect(file).toContain("STATUS:CONFIRMED");
    expect(file).toContain("DTSTAMP:20261122T120000Z");
    expect(file.find((line) => line.startsWith("ORGANIZER"))).toMatch(/:mailto:kilele@example\.org$/i);
  });

  it("for a cancelled event, says so under the same entry, so a calendar that has it updates it", () => {
    const cancelled = eventCalendar({ ...quiz, cancelledAt: "2026-11-20T09:00:00.000Z" }, { origin, charity, now })!;
    const file = lines(cancelled.text);
    expect(file).toContain(`UID:event-${quiz.id}@kilele-trust`);
    expect(file).toContain("STATUS:CANCELLED");
    expect(file).toContain("SEQUENCE:1");
    expect(file).toContain("SUMMARY:Cancelled: Kilele Quiz Night");
  });

  it("is not made for a test event, which is not real", () => {
    expect(eventCalendar({ ...quiz, isTest: true }, { origin, charity, now })).toBeUndefined();
  });

  it("is offered on the page only for a real event still to come and not cancelled", () => {
    expect(offersCalendar(quiz, now)).toBe(true);
    expect(offersCalendar({ ...quiz, isTest: true }, now)).toBe(false);
    expect(offersCalendar({ ...quiz, cancelledAt: "2026-11-20T09:00:00.000Z" }, now)).toBe(false);
    expect(offersCalendar({ ...quiz, eventDate: "2026-11-22T11:59:00.000Z" }, now)).toBe(false);
  });

  it("is named after the event, in plain letters", () => {
    expect(calendarFileName("Fête de Noël: carols & mince pies!")).toBe("fete-de-noel-carols-mince-pies.ics");
    expect(calendarFileName("!!!")).toBe("event.ics");
  });
});
