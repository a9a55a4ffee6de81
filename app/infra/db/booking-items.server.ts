import { asc, eq, inArray, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { BookedItem } from "~/lib/booking-items";
import { bookingItems, ticketTypes } from "~db/schema";
import type { Queryable } from "./database.server";

// A booking's tickets by type as stored (decision 078), with each type's name, for whatever follows
// a sale: the receipt, refunds, the staff pages, the door, the CSV and a person's export.

async function itemsWhere(db: Queryable, where: SQL): Promise<Map<string, BookedItem[]>> {
  const rows = await db
    .select({
      bookingRef: bookingItems.bookingRef,
      ticketTypeId: bookingItems.ticketTypeId,
      name: ticketTypes.name,
      quantity: bookingItems.quantity,
      refunded: bookingItems.refunded,
      pricePence: bookingItems.pricePence,
      seatsPerTicket: bookingItems.seatsPerTicket,
    })
    .from(bookingItems)
    .innerJoin(ticketTypes, eq(ticketTypes.id, bookingItems.ticketTypeId))
    .where(where)
    .orderBy(asc(ticketTypes.position), asc(ticketTypes.createdAt), asc(ticketTypes.id));
  const byBooking = new Map<string, BookedItem[]>();
  for (const { bookingRef, ...item } of rows) {
    const list = byBooking.get(bookingRef);
    if (list) list.push(item);
    else byBooking.set(bookingRef, [item]);
  }
  return byBooking;
}

/** The tickets by type of each of these bookings, in the order staff set the types, by booking reference. */
export async function itemsOfBookings(db: Queryable, bookingRefs: string[]): Promise<Map<string, BookedItem[]>> {
  if (bookingRefs.length === 0) return new Map();
  return itemsWhere(db, inArray(bookingItems.bookingRef, bookingRefs));
}

/** One booking's tickets by type, in the order staff set the types. */
export async function itemsOfBooking(db: Queryable, bookingRef: string): Promise<BookedItem[]> {
  return (await itemsWhere(db, eq(bookingItems.bookingRef, bookingRef))).get(bookingRef) ?? [];
}

/** The tickets by type of every booking of an event (one query, whatever its size), by booking reference. */
export async function itemsOfEvent(db: Queryable, eventId: string): Promise<Map<string, BookedItem[]>> {
  return itemsWhere(db, eq(ticketTypes.eventId, eventId));
}

/**
 * One booking's tickets by type as a JSON array (BookedItem's fields, in the same order), for a
 * column of a query that reads the booking itself: its reference column is `bookingRef`. One round
 * trip for the booking and what follows it, where a checkout is settled (decision 088).
 */
export function itemsJsonOf(bookingRef: AnyColumn): SQL<BookedItem[]> {
  return sql<BookedItem[]>`(select coalesce(json_agg(json_build_object(
      'ticketTypeId', ${bookingItems.ticketTypeId}, 'name', ${ticketTypes.name},
      'quantity', ${bookingItems.quantity}, 'refunded', ${bookingItems.refunded},
      'pricePence', ${bookingItems.pricePence}, 'seatsPerTicket', ${bookingItems.seatsPerTicket})
      order by ${ticketTypes.position}, ${ticketTypes.createdAt}, ${ticketTypes.id}), '[]'::json)
    from ${bookingItems} inner join ${ticketTypes} on ${ticketTypes.id} = ${bookingItems.ticketTypeId}
    where ${bookingItems.bookingRef} = ${bookingRef})`;
}
