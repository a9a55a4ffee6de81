import { describe, expect, it } from "vitest";
import type { EventView } from "./schema";
import { availabilityOf, fundraisingLists, bookingClosedReason, isCurrent, mockEventList } from "./status";

const now = new Date("2026-11-22T12:00:00Z");
let n = 0;
function event(overrides: Partial<EventView>): EventView {
  n += 1;
  return {
    id: `id-${n}`,
    name: `Event ${n}`,
    description: "d",
    posterImage: "pages/quiz-night",
    eventDate: "2026-12-05T19:00:00.000Z",
    location: "",
    ticketCost: 10,
    ticketCostPence: 1000,
    totalAvailableTickets: 50,
    ticketSaleExpiry: "2026-12-04T12:00:00.000Z",
    isTest: false,
    link: null,
    testimonial: null,
    galleryImages: [],
    ...overrides,
  };
}

describe("an event's status", () => {
  it("is current while its ticket sale has not expired, past from the moment it has", () => {
    expect(isCurrent(event({ ticketSaleExpiry: "2026-11-22T12:00:01.000Z" }), now)).toBe(true);
    expect(isCurrent(event({ ticketSaleExpiry: "2026-11-22T12:00:00.000Z" }), now)).toBe(false);
  });

  it("is sold out when the tickets sold reach the total, never showing fewer than none left", () => {
    expect(availabilityOf(50, 49)).toEqual({ sold: 49, remaining: 1, soldOut: false });
    expect(availabilityOf(50, 50)).toEqual({ sold: 50, remaining: 0, soldOut: true });
    expect(availabilityOf(50, 52)).toEqual({ sold: 52, remaining: 0, soldOut: true });
    expect(availabilityOf(0, 0).soldOut).toBe(true);
  });

  it("is bookable only when current, priced and not sold out, and says why not", () => {
    const open = event({});
    expect(bookingClosedReason(open, availabilityOf(50, 10), now)).toBeNull();
    expect(bookingClosedReason(open, availabilityOf(50, 50), now)).toBe("Sorry, this event is sold out.");
    expect(bookingClosedReason(event({ ticketCostPence: null, ticketCost: null }), availabilityOf(50, 0), now)).toBe(
      "Tickets for this event are not sold on this site.",
    );
    expect(
      bookingClosedReason(event({ ticketSaleExpiry: "2026-11-01T00:00:00.000Z" }), availabilityOf(50, 0), now),
    ).toBe("Ticket sales for this event have closed.");
  });
});

describe("the event lists", () => {
  const soon = event({ name: "Soon", eventDate: "2026-12-01T19:00:00.000Z" });
  const later = event({
    name: "Later",
    eventDate: "2027-02-01T19:00:00.000Z",
    ticketSaleExpiry: "2027-01-30T12:00:00.000Z",
  });
  const test = event({ name: "Test", isTest: true });
  const past1 = event({
    name: "Past 1",
    eventDate: "2026-06-01T19:00:00.000Z",
    ticketSaleExpiry: "2026-05-30T12:00:00.000Z",
  });
  const past2 = event({
    name: "Past 2",
    eventDate: "2025-12-01T19:00:00.000Z",
    ticketSaleExpiry: "2025-11-30T12:00:00.000Z",
  });
  const pastTest = event({ name: "Past test", isTest: true, ticketSaleExpiry: "2026-01-01T00:00:00.000Z" });

  it("split current from past, test events left out: current soonest first, past most recent first", () => {
    const lists = fundraisingLists([past2, soon, test, past1, later, pastTest], now);
    expect(lists.current.map((e) => e.name)).toEqual(["Soon", "Later"]);
    expect(lists.past.map((e) => e.name)).toEqual(["Past 1", "Past 2"]);
  });

  it("keep that order whatever order the database gives, two events at one time by name", () => {
    const sameTime = event({ name: "Another soon", eventDate: soon.eventDate });
    for (const given of [
      [soon, later, past1, past2, sameTime],
      [past2, past1, later, sameTime, soon],
    ]) {
      const lists = fundraisingLists(given, now);
      expect(lists.current.map((e) => e.name)).toEqual(["Another soon", "Soon", "Later"]);
      expect(lists.past.map((e) => e.name)).toEqual(["Past 1", "Past 2"]);
    }
  });

  it("put next month's event before one next March, as a visitor looks for it", () => {
    const nextMonth = event({ name: "Next month", eventDate: "2026-12-20T19:00:00.000Z" });
    const march = event({
      name: "March",
      eventDate: "2027-03-12T19:00:00.000Z",
      ticketSaleExpiry: "2027-03-11T12:00:00.000Z",
    });
    expect(fundraisingLists([march, nextMonth], now).current.map((e) => e.name)).toEqual(["Next month", "March"]);
  });

  it("on the test page, show every event still on sale, test events included, soonest first", () => {
    expect(mockEventList([past1, soon, test, pastTest, later], now).map((e) => e.name)).toEqual([
      "Soon",
      "Test",
      "Later",
    ]);
  });
});
