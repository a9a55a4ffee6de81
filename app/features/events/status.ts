import { pluralWord } from "~/lib/plural";
import { reservedMessage, soldOutMessage } from "~/lib/seat-holds";
import { londonDate, londonTime } from "~/lib/london-time";
import { fewLeft, typeAvailabilityWords, type TypeOnSale } from "~/lib/ticket-types";
import type { Availability, EventView, TypeAvailability } from "./schema";

/** Tickets are on sale until ticketSaleExpiry; after that the event is past. */
export function isCurrent(event: Pick<EventView, "ticketSaleExpiry">, now: Date): boolean {
  return new Date(event.ticketSaleExpiry).getTime() > now.getTime();
}

/** A ticket type a visitor may see, as availabilityOf reads it (VisibleTypeStock). */
export interface TypeReading {
  onSale: Pick<TypeOnSale, "id" | "name" | "pricePence" | "status" | "maxNow" | "saleFrom">;
  /** None can be bought only because the rest are held in unfinished checkouts. */
  freedByHolds: boolean;
}

/**
 * An event's availability from its seat counts and the types visitors may see (PRODUCT.md, sold out
 * versus reserved; decision 081). By the seats: sold out when the seats sold reach the total; when
 * the seats left are all held in unfinished checkouts it is not sold out but reserved, until the
 * first hold may stop counting (`heldUntil`: its end, or its settling window's end, decision 030).
 * By the types, when it has any: bookable while one of them is on sale; otherwise reserved if a hold
 * running out would put one back on sale, waiting if one goes on sale later (`onSaleFrom`), and sold
 * out only when none of these is true. The types are listed when there is more than one to choose.
 */
export function availabilityOf(
  total: number,
  sold: number,
  held = 0,
  heldUntil: Date | null = null,
  types: TypeReading[] = [],
): Availability {
  const remaining = Math.max(0, total - sold - held);
  const listed = types.length > 1 ? { types: types.map(typeAvailability) } : {};
  if (sold >= total) return { sold, remaining, soldOut: true, ...listed };
  if (types.length === 0 || types.some((type) => type.onSale.status === "on-sale")) {
    return {
      sold,
      remaining,
      soldOut: false,
      ...(remaining === 0 && heldUntil && { reservedUntil: heldUntil.toISOString() }),
      ...listed,
    };
  }
  if (heldUntil && types.some((type) => type.freedByHolds)) {
    return { sold, remaining, soldOut: false, reservedUntil: heldUntil.toISOString(), ...listed };
  }
  const opening = types
    .filter((type) => type.onSale.status === "not-yet" && type.onSale.saleFrom)
    .map((type) => type.onSale.saleFrom!)
    .sort()[0];
  if (opening) return { sold, remaining, soldOut: false, onSaleFrom: opening, ...listed };
  return { sold, remaining, soldOut: true, ...listed };
}

/** A type as the live feed carries it. */
function typeAvailability({ onSale, freedByHolds }: TypeReading): TypeAvailability {
  return {
    id: onSale.id,
    name: onSale.name,
    pricePence: onSale.pricePence,
    status: freedByHolds ? "reserved" : onSale.status,
    left: onSale.maxNow,
  };
}

/** What the pages say of a type beside its price: "Adult: sold out", "Child: 3 left"; null when nothing. */
export function typeWords(type: Pick<TypeAvailability, "name" | "status" | "left">): string | null {
  if (type.status === "reserved") return `${type.name}: all reserved just now`;
  return typeAvailabilityWords({
    name: type.name,
    status: type.status,
    fewLeft: type.status === "on-sale" && type.left <= fewLeft ? type.left : null,
  });
}

/** "Tickets go on sale on 01/12/2026 at 09:00." */
export function onSaleFromMessage(at: string): string {
  return `Tickets go on sale on ${londonDate(at)} at ${londonTime(at)}.`;
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

/** Why nobody can book just now by the live counts (sold out, all reserved, not yet on sale); null when they can. */
export function availabilityReason(availability: Availability | undefined): string | null {
  if (availability?.soldOut) return soldOutMessage;
  if (availability?.onSaleFrom) return onSaleFromMessage(availability.onSaleFrom);
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
