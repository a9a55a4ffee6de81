import { reservedMessage, soldOutMessage } from "~/lib/seat-holds";
import type { Availability, EventView } from "./schema";

/** Tickets are on sale until ticketSaleExpiry; after that the event is past. */
export function isCurrent(event: Pick<EventView, "ticketSaleExpiry">, now: Date): boolean {
  return new Date(event.ticketSaleExpiry).getTime() > now.getTime();
}

/**
 * An event's availability from its seat counts (PRODUCT.md, sold out versus reserved): sold out when
 * the tickets sold reach the total; when the seats left are all held in unfinished checkouts it is
 * not sold out but reserved, until the first hold (`heldUntil`) runs out.
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

function byEventDateNewestFirst(a: EventView, b: EventView) {
  return b.eventDate.localeCompare(a.eventDate) || a.name.localeCompare(b.name);
}

/** The Fundraising page's two lists: current and past, test events left out, newest event date first. */
export function fundraisingLists(events: EventView[], now: Date) {
  const real = events.filter((event) => !event.isTest).sort(byEventDateNewestFirst);
  return {
    current: real.filter((event) => isCurrent(event, now)),
    past: real.filter((event) => !isCurrent(event, now)),
  };
}

/** The test page's list: every event still on sale, test events included. */
export function mockEventList(events: EventView[], now: Date) {
  return events.filter((event) => isCurrent(event, now)).sort(byEventDateNewestFirst);
}
