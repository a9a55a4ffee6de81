import { and, eq, gt, min, ne, sql, sum, type SQL } from "drizzle-orm";
import { bookings, events, tickets } from "../../../db/schema";
import type { Queryable } from "./database.server";

// The one place seats are counted (docs/decisions/010-one-way-to-do-each-thing.md): booking
// counts them under its lock on the event row before holding more, and the events pages and the
// live feed count them for visitors. Both read the same rule, at the same `now`: a seat is taken
// by a valid ticket (its quantity) or by a hold that has not yet run out.

export interface SeatCount {
  total: number;
  sold: number;
  held: number;
  /** When the first of the holds counted in `held` runs out; null when nothing is held. */
  heldUntil: Date | null;
}

function soldSeats(eventId: SQL | string) {
  return sql<number>`coalesce((${sql`select ${sum(tickets.quantity)} from ${tickets} where ${and(
    eq(tickets.eventId, eventId),
    eq(tickets.isValid, true),
  )}`}), 0)::int`;
}

function liveHolds(eventId: SQL | string, now: Date, except?: string) {
  return and(
    eq(bookings.eventId, eventId),
    eq(bookings.status, "held"),
    gt(bookings.holdExpiresAt, now),
    except ? ne(bookings.bookingRef, except) : undefined,
  );
}

function heldSeats(eventId: SQL | string, now: Date, except?: string) {
  return sql<number>`coalesce((${sql`select ${sum(bookings.quantity)} from ${bookings} where ${liveHolds(eventId, now, except)}`}), 0)::int`;
}

function firstHoldExpiry(eventId: SQL | string, now: Date, except?: string) {
  return sql<Date | null>`(${sql`select ${min(bookings.holdExpiresAt)} from ${bookings} where ${liveHolds(eventId, now, except)}`})`.mapWith(
    bookings.holdExpiresAt,
  );
}

/** Seats sold and held for one event at `now`, leaving out the hold `except` (a booking recounting itself). */
export async function seatsOf(db: Queryable, eventId: string, now: Date, except?: string): Promise<SeatCount> {
  const [row] = await db
    .select({
      total: events.totalAvailableTickets,
      sold: soldSeats(eventId),
      held: heldSeats(eventId, now, except),
      heldUntil: firstHoldExpiry(eventId, now, except),
    })
    .from(events)
    .where(eq(events.id, eventId));
  return {
    total: row?.total ?? 0,
    sold: Number(row?.sold ?? 0),
    held: Number(row?.held ?? 0),
    heldUntil: row?.heldUntil ?? null,
  };
}

/** Seats sold and held for every event at `now`, by event id. */
export async function seatsByEvent(db: Queryable, now: Date): Promise<Record<string, SeatCount>> {
  const rows = await db
    .select({
      id: events.id,
      total: events.totalAvailableTickets,
      sold: soldSeats(sql`${events.id}`),
      held: heldSeats(sql`${events.id}`, now),
      heldUntil: firstHoldExpiry(sql`${events.id}`, now),
    })
    .from(events);
  return Object.fromEntries(
    rows.map((row) => [
      row.id,
      { total: row.total, sold: Number(row.sold), held: Number(row.held), heldUntil: row.heldUntil },
    ]),
  );
}

/** When the next unexpired hold on any event runs out (the live feed recounts then); null when none. */
export async function nextHoldExpiry(db: Queryable, now: Date): Promise<Date | null> {
  const [row] = await db
    .select({ at: min(bookings.holdExpiresAt) })
    .from(bookings)
    .where(and(eq(bookings.status, "held"), gt(bookings.holdExpiresAt, now)));
  return row?.at ?? null;
}
