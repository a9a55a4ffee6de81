import { formatPounds } from "~/lib/money";

// What an event sells (decision 078): the rules for whether a ticket type can be bought now and how
// many are left, shared by the checkout (under the event's lock), the public pages and the live feed.

/** A ticket type as the rules read it (the row of `ticket_types`, times as Dates). */
export interface TicketTypeRules {
  id: string;
  name: string;
  pricePence: number;
  seatsPerTicket: number;
  /** At most this many tickets of the type; null when only the event's seats limit it. */
  cap: number | null;
  saleFrom: Date | null;
  saleUntil: Date | null;
  hidden: boolean;
  offSaleAt: Date | null;
  closedAt: Date | null;
}

/** Tickets of one type taken: sold (valid, not refunded) and held in checkouts that still count. */
export interface TypeTaken {
  sold: number;
  held: number;
}

/**
 * Where a type stands at a moment: `on-sale`, `not-yet` (its sale opens later), `ended` (its sale
 * window is over, or it closed for good on reaching its cap), `off-sale` (staff took it off sale),
 * `sold-out` (none left of it, or no seats left in the event for one more of it).
 */
export type TypeStatus = "on-sale" | "not-yet" | "ended" | "off-sale" | "sold-out";

export interface TypeStanding {
  status: TypeStatus;
  /** Tickets of the type that can still be bought (0 unless on sale). */
  left: number;
}

/**
 * An early-bird price: a type with both an end to its sale and a cap of its own. Once its sold and
 * held tickets reach the cap it closes for good (`closedAt`), so its price never flips back when a
 * hold runs out or a ticket is refunded.
 */
export function closesForGood(type: Pick<TicketTypeRules, "cap" | "saleUntil">): boolean {
  return type.cap !== null && type.saleUntil !== null;
}

/**
 * A type's standing at `now`, given what of it is taken and the event's seats left (after every
 * sale and counted hold). A type is sold out when its own cap is reached or the event has no room
 * for one more of its tickets (a table of eight needs eight seats).
 */
export function typeStanding(type: TicketTypeRules, taken: TypeTaken, eventSeatsLeft: number, now: Date): TypeStanding {
  if (type.offSaleAt) return { status: "off-sale", left: 0 };
  if (type.closedAt) return { status: "ended", left: 0 };
  if (type.saleUntil && type.saleUntil <= now) return { status: "ended", left: 0 };
  if (type.saleFrom && type.saleFrom > now) return { status: "not-yet", left: 0 };
  const ofType = type.cap === null ? Number.POSITIVE_INFINITY : type.cap - taken.sold - taken.held;
  const bySeats = Math.floor(Math.max(0, eventSeatsLeft) / type.seatsPerTicket);
  const left = Math.max(0, Math.min(ofType, bySeats));
  return left > 0 ? { status: "on-sale", left } : { status: "sold-out", left: 0 };
}

/** How few left a type must have before the pages say how many: "Child: 3 left". */
export const fewLeft = 5;

/** A type as the public pages and the live feed show it (no counts beyond what a visitor is told). */
export interface TypeOnSale {
  id: string;
  name: string;
  pricePence: number;
  seatsPerTicket: number;
  status: TypeStatus;
  /** How many are left, only when on sale and `fewLeft` or fewer; null otherwise. */
  fewLeft: number | null;
  /** The most a buyer may choose now: what is left, never more than a booking's limit. */
  maxNow: number;
  saleFrom: string | null;
  saleUntil: string | null;
}

export function typeOnSale(type: TicketTypeRules, standing: TypeStanding, maxPerBooking: number): TypeOnSale {
  return {
    id: type.id,
    name: type.name,
    pricePence: type.pricePence,
    seatsPerTicket: type.seatsPerTicket,
    status: standing.status,
    fewLeft: standing.status === "on-sale" && standing.left <= fewLeft ? standing.left : null,
    maxNow: Math.min(standing.left, maxPerBooking),
    saleFrom: type.saleFrom?.toISOString() ?? null,
    saleUntil: type.saleUntil?.toISOString() ?? null,
  };
}

/** "Adult: sold out", "Child: 3 left"; null when there is nothing to say beyond the price. */
export function typeAvailabilityWords(type: Pick<TypeOnSale, "name" | "status" | "fewLeft">): string | null {
  switch (type.status) {
    case "sold-out":
      return `${type.name}: sold out`;
    case "ended":
      return `${type.name}: no longer on sale`;
    case "not-yet":
      return `${type.name}: not yet on sale`;
    case "off-sale":
      return null;
    case "on-sale":
      return type.fewLeft !== null ? `${type.name}: ${type.fewLeft} left` : null;
  }
}

/** "Adult £12.50": a type's name and price, as the booking page labels its quantity. */
export function typeLabel(type: Pick<TicketTypeRules, "name" | "pricePence">): string {
  return `${type.name} ${formatPounds(type.pricePence)}`;
}

/** The lowest price among the types on sale now (what `ticketCost` says); null when none is. */
export function lowestPriceOnSale(types: Pick<TypeOnSale, "pricePence" | "status">[]): number | null {
  const prices = types.filter((type) => type.status === "on-sale").map((type) => type.pricePence);
  return prices.length > 0 ? Math.min(...prices) : null;
}
