import { pluralWord } from "~/lib/plural";
import { reservedMessage, soldOutMessage } from "~/lib/seat-holds";
import type { Availability, EventView } from "./schema";

/** Tickets are on sale until ticketSaleExpiry; after that the event is past. */
export function isCurrent(event: Pick<EventView, "ticketSaleExpiry">, now: Date): boolean {
  return new Date(event.ticketSaleExpiry).getTime() > now.getTime();
}

/**
 * An event's availability from its seat counts (PRODUCT.md, sold out versus reserved): sold out when
 * the tickets sold reach the total; when the seats left are all held in unfinished checkouts it is
 * not sold out but reserved, until the first hold may stop counting (`heldUntil`: its end, or its
 * settling window's end, decision 030).
 */
export function availabilityOf(total: number, sold: number, held = 0, heldUntil: Date | null = null): Availability {
  const remaining = Math.max(0, total - sold - held);
  const soldOut = sold >= total;
  return {
    sold,
    remaining,
    soldOut,
    ...(remaining === 0 && !soldOut && heldUntil && { reservedUntil: heldUntil.toISOString() }),
  };
}

/** What a page says in place of Book when the seats left are all reserved; null when they are not. */
export function reservedNotice(availability: Availability | undefined): string | null {
  return availability?.reservedUntil ? reservedMessage(availability.reservedUntil) : null;
}

/** What the public pages say of an event staff cancelled. */
export const cancelledMessage = "Cancelled: this event will not take place, and tickets are no longer on sale.";

/** Why a visitor may not start booking this event, in words for them; null when they may. */
export function bookingClosedReason(
  event: Pick<EventView, "ticketSaleExpiry" | "ticketCostPence" | "cancelledAt">,
  availability: Availability | undefined,
  now: Date,
): string | null {
  if (event.cancelledAt) return cancelledMessage;
  if (!isCurrent(event, now)) return "Ticket sales for this event have closed.";
  if (event.ticketCostPence === null) return "Tickets for this event are not sold on this site.";
  return availabilityReason(availability);
}

/** Why nobody can book just now by the seat counts alone (sold out, or all reserved); null when they can. */
export function availabilityReason(availability: Availability | undefined): string | null {
  if (availability?.soldOut) return soldOutMessage;
  return reservedNotice(availability);
}

/** Whether an event's page offers "Add to calendar": a real event, not cancelled, still to come. */
export function offersCalendar(event: Pick<EventView, "eventDate" | "isTest" | "cancelledAt">, now: Date): boolean {
  return !event.isTest && !event.cancelledAt && new Date(event.eventDate).getTime() > now.getTime();
}

/** Events still to come: the soonest first, what a visitor is looking for (PRODUCT.md, event order). */
export function bySoonestFirst(a: Pick<EventView, "eventDate" | "name">, b: Pick<EventView, "eventDate" | "name">) {
  return a.eventDate.localeCompare(b.eventDate) || a.name.localeCompare(b.name);
}

/** Events that have been: the most recent first. */
export function byMostRecentFirst(a: Pick<EventView, "eventDate" | "name">, b: Pick<EventView, "eventDate" | "name">) {
  return b.eventDate.localeCompare(a.eventDate) || a.name.localeCompare(b.name);
}

/**
 * The public lists (the Fundraising page, the home page): current and past, test events left out;
 * current events soonest first, past events most recent first.
 */
export function fundraisingLists(events: EventView[], now: Date) {
  const real = events.filter((event) => !event.isTest);
  return {
    current: real.filter((event) => isCurrent(event, now)).sort(bySoonestFirst),
    past: real.filter((event) => !isCurrent(event, now)).sort(byMostRecentFirst),
  };
}

/** The test page's list: every event still on sale, test events included, soonest first. */
export function mockEventList(events: EventView[], now: Date) {
  return events.filter((event) => isCurrent(event, now)).sort(bySoonestFirst);
}

/**
 * The heading above the events on sale: the specification's "Latest fundraising event", in the
 * plural when more than one is listed.
 */
export function latestEventsTitle(count: number): string {
  return pluralWord(Math.max(count, 1), "Latest fundraising event");
}

/**
 * What the test events say about money (PRODUCT.md, "/mock-event's notice follows the payment
 * mode"): real money only where real card payments are configured; on a demonstration site only
 * test cards are taken, as its banner says.
 */
export function testEventNotice(realPayments: boolean, where: "list" | "event"): string {
  const start =
    where === "list"
      ? "These events are for testing the booking system. The event is not real"
      : "This is a test event: it is not real";
  return realPayments
    ? `${start}, but real money will be charged${where === "list" ? " for any ticket you buy here" : ""}.`
    : `${start}, and no real money is charged: this site takes only test cards.`;
}
