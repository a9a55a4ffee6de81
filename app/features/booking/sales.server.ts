import { and, asc, desc, eq, lt, ne } from "drizzle-orm";
import type { Queryable } from "~/infra/db/database.server";
import { isUuid } from "~/lib/ids";
import { londonDay, londonTime } from "~/lib/london-time";
import { londonMidnight } from "~/lib/london-week";
import { bookingItems, bookings, checkIns, events, tickets, ticketTypes } from "~db/schema";

// An event's sales for its staff page's charts (decision 094), as pretix and Hi.Events show them:
// tickets and seats sold per London day, counted on the day they were paid, as they stand now (a
// booking refunded since counts only what it kept, as "Sold" does); the running total of seats
// against the seats available; the same for a past event to compare with, by days before each
// event; per ticket type; and on the night, the check-ins as they came against the places sold.

const dayMs = 24 * 60 * 60_000;

/** Whole London days from `day` to `eventDay` (both YYYY-MM-DD), negative before it: −3 is three days before. */
export function daysBefore(day: string, eventDay: string): number {
  return Math.round((Date.parse(`${day}T12:00:00Z`) - Date.parse(`${eventDay}T12:00:00Z`)) / dayMs);
}

export interface SalesDay {
  /** The London day, YYYY-MM-DD. */
  day: string;
  /** Days before the event: 0 its day, −1 the day before. */
  before: number;
  tickets: number;
  seats: number;
  /** Running totals to the end of this day. */
  ticketsSoFar: number;
  seatsSoFar: number;
  /** Tickets of each of the event's types sold this day, in `types`' order. */
  byType: number[];
}

export interface SalesType {
  id: string;
  name: string;
  seatsPerTicket: number;
  tickets: number;
  seats: number;
}

export interface EventSales {
  eventId: string;
  name: string;
  eventDate: string;
  /** The event's cap, in seats. */
  seatsAvailable: number;
  /** Only days something was sold, oldest first. */
  days: SalesDay[];
  types: SalesType[];
  tickets: number;
  seats: number;
  /** Days before the event of today, or 0 once it has passed: how far the curve can run. */
  upTo: number;
}

/** An event's sales per day, as they stand at `now` (undefined when there is no such event). */
export async function eventSales(
  { db }: { db: Queryable },
  eventId: string,
  now: Date,
): Promise<EventSales | undefined> {
  if (!isUuid(eventId)) return undefined;
  const [event] = await db.select().from(events).where(eq(events.id, eventId));
  if (!event) return undefined;
  const eventDay = londonDay(event.eventDate);
  const [sold, items, types] = await Promise.all([
    // A valid ticket is what is sold (the seats counted as "Sold"): its places now, and when it was paid.
    db
      .select({ bookingRef: tickets.bookingRef, seats: tickets.quantity, paidAt: tickets.dateSold })
      .from(tickets)
      .where(and(eq(tickets.eventId, eventId), eq(tickets.isValid, true)))
      .orderBy(asc(tickets.dateSold)),
    db
      .select({
        bookingRef: bookingItems.bookingRef,
        typeId: bookingItems.ticketTypeId,
        quantity: bookingItems.quantity,
        refunded: bookingItems.refunded,
        seatsPerTicket: bookingItems.seatsPerTicket,
      })
      .from(bookingItems)
      .innerJoin(bookings, eq(bookings.bookingRef, bookingItems.bookingRef))
      .innerJoin(tickets, and(eq(tickets.bookingRef, bookings.bookingRef), eq(tickets.isValid, true)))
      .where(eq(bookings.eventId, eventId)),
    db
      .select({ id: ticketTypes.id, name: ticketTypes.name, seatsPerTicket: ticketTypes.seatsPerTicket })
      .from(ticketTypes)
      .where(eq(ticketTypes.eventId, eventId))
      .orderBy(asc(ticketTypes.position), asc(ticketTypes.createdAt), asc(ticketTypes.id)),
  ]);
  const typeIndex = new Map(types.map((type, index) => [type.id, index]));
  const itemsOf = new Map<string, { index: number; kept: number; seatsPerTicket: number }[]>();
  for (const item of items) {
    const list = itemsOf.get(item.bookingRef) ?? [];
    list.push({
      index: typeIndex.get(item.typeId) ?? -1,
      kept: item.quantity - item.refunded,
      seatsPerTicket: item.seatsPerTicket,
    });
    itemsOf.set(item.bookingRef, list);
  }
  const byDay = new Map<string, SalesDay>();
  const perType = types.map((type) => ({ ...type, tickets: 0, seats: 0 }));
  for (const ticket of sold) {
    const day = londonDay(ticket.paidAt);
    const row = byDay.get(day) ?? {
      day,
      before: daysBefore(day, eventDay),
      tickets: 0,
      seats: 0,
      ticketsSoFar: 0,
      seatsSoFar: 0,
      byType: types.map(() => 0),
    };
    const kept = itemsOf.get(ticket.bookingRef) ?? [];
    for (const item of kept) {
      row.tickets += item.kept;
      if (item.index >= 0) {
        row.byType[item.index]! += item.kept;
        perType[item.index]!.tickets += item.kept;
        perType[item.index]!.seats += item.kept * item.seatsPerTicket;
      }
    }
    row.seats += ticket.seats;
    byDay.set(day, row);
  }
  const days = [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day));
  let ticketsSoFar = 0;
  let seatsSoFar = 0;
  for (const row of days) {
    ticketsSoFar += row.tickets;
    seatsSoFar += row.seats;
    row.ticketsSoFar = ticketsSoFar;
    row.seatsSoFar = seatsSoFar;
  }
  return {
    eventId: event.id,
    name: event.name,
    eventDate: event.eventDate.toISOString(),
    seatsAvailable: event.totalAvailableTickets,
    days,
    types: perType,
    tickets: ticketsSoFar,
    seats: seatsSoFar,
    upTo: Math.min(0, daysBefore(londonDay(now), eventDay)),
  };
}

export interface PastEvent {
  id: string;
  name: string;
  eventDate: string;
}

/** Events before today to compare with, most recent first, leaving out `eventId` itself. */
export async function pastEvents({ db }: { db: Queryable }, eventId: string, now: Date): Promise<PastEvent[]> {
  const rows = await db
    .select({ id: events.id, name: events.name, eventDate: events.eventDate })
    .from(events)
    .where(and(lt(events.eventDate, londonMidnight(londonDay(now))), ne(events.id, eventId)))
    .orderBy(desc(events.eventDate), asc(events.name))
    .limit(100);
  return rows.map((row) => ({ ...row, eventDate: row.eventDate.toISOString() }));
}

export interface CheckInSlot {
  /** The quarter hour, London time: "19:00". */
  from: string;
  to: string;
  /** People let in during it, and up to its end. */
  people: number;
  soFar: number;
}

export interface EveningCheckIns {
  /** Places sold (valid tickets' places): what could come through the door. */
  places: number;
  /** Each check-in as it was scanned, oldest first, with the running total. */
  points: { at: string; soFar: number }[];
  /** Quarter hours from the first check-in's to the last's, empty ones included. */
  slots: CheckInSlot[];
  total: number;
}

const quarterMs = 15 * 60_000;

/**
 * An event's check-ins as they came (`check_ins.scanned_at`, the outcome `checked-in` only: a
 * conflict or a refunded ticket let no one in), by quarter hour, against the places sold.
 */
export async function eveningCheckIns({ db }: { db: Queryable }, eventId: string): Promise<EveningCheckIns> {
  const [rows, placeRows] = await Promise.all([
    db
      .select({ at: checkIns.scannedAt, count: checkIns.count })
      .from(checkIns)
      .where(and(eq(checkIns.eventId, eventId), eq(checkIns.outcome, "checked-in")))
      .orderBy(asc(checkIns.scannedAt), asc(checkIns.id)),
    db
      .select({ seats: tickets.quantity })
      .from(tickets)
      .where(and(eq(tickets.eventId, eventId), eq(tickets.isValid, true))),
  ]);
  const places = placeRows.reduce((sum, row) => sum + row.seats, 0);
  let soFar = 0;
  const points = rows.map((row) => ({ at: row.at.toISOString(), soFar: (soFar += row.count) }));
  const slots: CheckInSlot[] = [];
  if (rows.length > 0) {
    // London's offset is whole hours, so quarter hours in UTC are quarter hours in London.
    const first = Math.floor(rows[0]!.at.getTime() / quarterMs) * quarterMs;
    const last = Math.floor(rows.at(-1)!.at.getTime() / quarterMs) * quarterMs;
    let running = 0;
    let index = 0;
    for (let start = first; start <= last; start += quarterMs) {
      let people = 0;
      while (index < rows.length && rows[index]!.at.getTime() < start + quarterMs) people += rows[index++]!.count;
      running += people;
      slots.push({ from: timeOf(start), to: timeOf(start + quarterMs), people, soFar: running });
    }
  }
  return { places, points, slots, total: soFar };
}

function timeOf(ms: number): string {
  return londonTime(new Date(ms));
}
