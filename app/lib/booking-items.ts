import { formatPounds } from "./money";
import { plural } from "./plural";

// A booking's tickets by type (decisions 078 and 082): what the receipt, a refund, the staff pages,
// the door and a person's export say of them. Pure rules, shared by the server and the pages.

/** The tickets of one type in a booking, at the price and size they were bought at. */
export interface BookedItem {
  ticketTypeId: string;
  /** The type's name now (staff may have reworded it since). */
  name: string;
  /** Tickets of the type bought. */
  quantity: number;
  /** Of those, how many were given back (a refund, or the event cancelled). */
  refunded: number;
  /** What one of them cost. */
  pricePence: number;
  /** Places one of them admits at the door: 8 for a table of eight. */
  seatsPerTicket: number;
}

/** The one type every event sold at one price was given (decision 078). */
export const plainTypeName = "Ticket";

/** Tickets of the type still valid: bought and not given back. */
export function ticketsLeft(item: Pick<BookedItem, "quantity" | "refunded">): number {
  return item.quantity - item.refunded;
}

/**
 * Whether these are only tickets of the plain type (named Ticket, one place each), as every
 * booking was before types: the pages and the receipt then say the number alone, as they did.
 */
export function onlyPlainTickets(items: Pick<BookedItem, "name" | "seatsPerTicket">[]): boolean {
  return items.every((item) => item.name === plainTypeName && item.seatsPerTicket === 1);
}

/** "2 × Adult, 1 × Child": the count of each type (types with none are left out). */
export function ticketsInWords(items: { name: string; quantity: number }[]): string {
  return items
    .filter((item) => item.quantity > 0)
    .map((item) => `${item.quantity} × ${item.name}`)
    .join(", ");
}

/** The tickets still valid of each type (none refunded), for saying what a booking holds now. */
export function itemsLeft<T extends Pick<BookedItem, "quantity" | "refunded">>(items: T[]): T[] {
  return items.map((item) => ({ ...item, quantity: ticketsLeft(item), refunded: 0 })).filter((i) => i.quantity > 0);
}

/** Places these tickets admit at the door: each ticket's places, summed. */
export function placesOf(items: Pick<BookedItem, "quantity" | "seatsPerTicket">[]): number {
  return items.reduce((sum, item) => sum + item.quantity * item.seatsPerTicket, 0);
}

/** "2 × Adult £12.50": a line of a receipt, the count, the type and the price of one. */
export function itemLine(item: Pick<BookedItem, "quantity" | "name" | "pricePence">): string {
  return `${item.quantity} × ${item.name} ${formatPounds(item.pricePence)}`;
}

/**
 * The most tickets of a type one refund may give back: those of it still valid, as far as the
 * places not yet used at the door allow (a table of eight needs eight of them). The door counts
 * places, not types, so any type's tickets may be the ones that came in.
 */
export function refundableOfType(item: BookedItem, placesNotIn: number): number {
  return Math.max(0, Math.min(ticketsLeft(item), Math.floor(Math.max(0, placesNotIn) / item.seatsPerTicket)));
}

/**
 * The amount a refund of `quantity` tickets of one type gives back: the price each was bought at;
 * or, when they are all the tickets the booking has left, everything paid and not yet given back
 * (the booking fee too).
 */
export function refundOfTypePence(
  booking: { amountPence: number; refundedPence: number },
  items: BookedItem[],
  ticketTypeId: string,
  quantity: number,
): number {
  const item = items.find((i) => i.ticketTypeId === ticketTypeId);
  if (!item) return 0;
  const leftInAll = items.reduce((sum, i) => sum + ticketsLeft(i), 0);
  return quantity >= leftInAll ? booking.amountPence - booking.refundedPence : item.pricePence * quantity;
}

/** "1 Child ticket", "2 Adult tickets"; "2 tickets" when the type is the plain one (or none is named). */
export function typedTickets(count: number, name?: string | null): string {
  return name && name !== plainTypeName ? plural(count, `${name} ticket`) : plural(count, "ticket");
}

/** How many tickets of a type a booking holds, as the lists and the door show them. */
export interface TypeCount {
  name: string;
  quantity: number;
  seatsPerTicket: number;
}

/**
 * What a ticket holds by type, as the door, the lists and the CSV show it: the tickets still valid
 * of each type; for a ticket refunded in full (no longer valid), what it was bought with.
 */
export function typesHeld(items: BookedItem[], valid: boolean): TypeCount[] {
  const held = valid ? itemsLeft(items) : items;
  return held.map(({ name, quantity, seatsPerTicket }) => ({ name, quantity, seatsPerTicket }));
}
