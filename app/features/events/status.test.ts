import { describe, expect, it } from "vitest";
import type { EventView } from "./schema";
import type { TypeStatus } from "~/lib/ticket-types";
import {
  availabilityOf,
  availabilityReason,
  typeWords,
  fundraisingLists,
  bookingClosedReason,
  isCurrent,
  latestEventsTitle,
  mockEventList,
  reservedNotice,
  testEventNotice,
} from "./status";

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

  it("is not sold out while the seats left are held in unfinished checkouts, but reserved until the first hold runs out", () => {
    const firstHold = new Date("2026-11-22T12:10:30Z");
    expect(availabilityOf(50, 45, 5, firstHold)).toEqual({
      sold: 45,
      remaining: 0,
      soldOut: false,
      reservedUntil: "2026-11-22T12:10:30.000Z",
    });
    // Seats still free, or every seat sold: not reserved, whatever is held.
    expect(availabilityOf(50, 45, 4, firstHold)).toEqual({ sold: 45, remaining: 1, soldOut: false });
    expect(availabilityOf(50, 50, 0, null)).toEqual({ sold: 50, remaining: 0, soldOut: true });
    expect(availabilityOf(2, 0, 2, firstHold)).toMatchObject({
      soldOut: false,
      reservedUntil: firstHold.toISOString(),
    });
  });

  it("by its types: bookable while one is on sale, reserved when holds stand in the way, waiting, else sold out", () => {
    const type = (
      name: string,
      status: TypeStatus,
      maxNow = 0,
      freedByHolds = false,
      saleFrom: string | null = null,
    ) => ({
      onSale: { id: name, name, pricePence: 500, status, maxNow, saleFrom },
      freedByHolds,
    });
    const hold = new Date("2026-11-22T12:10:30Z");
    const listed = (types: ReturnType<typeof type>[]) => availabilityOf(50, 10, 2, hold, types);
    expect(listed([type("Adult", "sold-out"), type("Child", "on-sale", 3)])).toEqual({
      sold: 10,
      remaining: 38,
      soldOut: false,
      types: [
        { id: "Adult", name: "Adult", pricePence: 500, status: "sold-out", left: 0 },
        { id: "Child", name: "Child", pricePence: 500, status: "on-sale", left: 3 },
      ],
    });
    expect(listed([type("Adult", "sold-out"), type("Child", "sold-out", 0, true)])).toMatchObject({
      soldOut: false,
      reservedUntil: hold.toISOString(),
      types: [{ status: "sold-out" }, { status: "reserved" }],
    });
    expect(
      listed([type("Adult", "ended"), type("Child", "not-yet", 0, false, "2026-12-01T09:00:00.000Z")]),
    ).toMatchObject({ soldOut: false, onSaleFrom: "2026-12-01T09:00:00.000Z" });
    expect(listed([type("Adult", "ended"), type("Child", "sold-out")])).toMatchObject({ soldOut: true });
    // One type: nothing listed, and the event stands as its type does.
    expect(availabilityOf(50, 10, 0, null, [type("Ticket", "sold-out")])).toEqual({
      sold: 10,
      remaining: 40,
      soldOut: true,
    });
    // Every seat sold: sold out, whatever the types.
    expect(
      availabilityOf(50, 50, 0, null, [type("Ticket", "not-yet", 0, false, "2026-12-01T09:00:00.000Z")]),
    ).toMatchObject({ soldOut: true });
  });

  it("says of a type what is left only when few are, and why none can be bought", () => {
    expect(typeWords({ name: "Adult", status: "on-sale", left: 29 })).toBeNull();
    expect(typeWords({ name: "Child", status: "on-sale", left: 3 })).toBe("Child: 3 left");
    expect(typeWords({ name: "Adult", status: "sold-out", left: 0 })).toBe("Adult: sold out");
    expect(typeWords({ name: "Adult", status: "reserved", left: 0 })).toBe("Adult: all reserved just now");
    expect(typeWords({ name: "Early bird", status: "ended", left: 0 })).toBe("Early bird: no longer on sale");
    expect(availabilityReason({ sold: 0, remaining: 5, soldOut: false, onSaleFrom: "2026-07-01T08:00:00Z" })).toBe(
      "Tickets go on sale on 01/07/2026 at 09:00.",
    );
  });

  it("says when to try again in London time, rounded up to the minute, instead of sold out", () => {
    const open = event({});
    // 12:10:30 GMT in November; 11:59:00 UTC in July is 12:59 BST.
    expect(bookingClosedReason(open, availabilityOf(50, 45, 5, new Date("2026-11-22T12:10:30Z")), now)).toBe(
      "All remaining tickets are reserved. Try again after 12:11.",
    );
    expect(reservedNotice(availabilityOf(3, 1, 2, new Date("2026-07-01T11:59:00Z")))).toBe(
      "All remaining tickets are reserved. Try again after 12:59.",
    );
    expect(reservedNotice(availabilityOf(3, 1, 1, new Date("2026-07-01T11:59:00Z")))).toBeNull();
    expect(reservedNotice(undefined)).toBeNull();
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

describe("the words around the events", () => {
  it("heads the events on sale in the singular for one (or none, above More events coming soon.) and the plural for more", () => {
    expect(latestEventsTitle(0)).toBe("Latest fundraising event");
    expect(latestEventsTitle(1)).toBe("Latest fundraising event");
    expect(latestEventsTitle(4)).toBe("Latest fundraising events");
  });

  it("says real money is charged for a test event only where real card payments are configured", () => {
    expect(testEventNotice(true, "list")).toBe(
      "These events are for testing the booking system. The event is not real, but real money will be charged for any ticket you buy here.",
    );
    expect(testEventNotice(true, "event")).toBe(
      "This is a test event: it is not real, but real money will be charged.",
    );
    for (const where of ["list", "event"] as const) {
      expect(testEventNotice(false, where)).toMatch(/and no real money is charged: this site takes only test cards\.$/);
      expect(testEventNotice(false, where)).not.toContain("real money will be charged");
    }
  });
});
