import { and, asc, eq, isNotNull, isNull, min } from "drizzle-orm";
import type { Queryable } from "./database.server";
import { seatsByEvent, takenByType } from "./seats.server";
import { events, ticketTypes } from "~db/schema";
import { typeOnSale, typeStanding, type TicketTypeRules, type TypeOnSale } from "~/lib/ticket-types";

// An event's ticket types as stored (decision 078). The rules are ticket-types.ts.

export type TicketTypeRow = typeof ticketTypes.$inferSelect;

/** The most tickets one booking may hold, of every type together (the specification's 1 to 29). */
export const maxTicketsPerBooking = 29;

/** An event's types, in the order staff set. */
export async function typesOfEvent(db: Queryable, eventId: string): Promise<TicketTypeRow[]> {
  return db
    .select()
    .from(ticketTypes)
    .where(eq(ticketTypes.eventId, eventId))
    .orderBy(asc(ticketTypes.position), asc(ticketTypes.createdAt), asc(ticketTypes.id));
}

/**
 * Gives each event sold on this site at one price (`ticket_cost_pence` set) its one type: a ticket
 * named Ticket, for one seat, at that price. Returns the new types' ids by event id.
 */
export async function addDefaultTypes(
  db: Queryable,
  rows: { id: string; ticketCostPence: number | null }[],
  now: Date,
): Promise<Map<string, string>> {
  const sold = rows.filter((row) => row.ticketCostPence !== null);
  if (sold.length === 0) return new Map();
  const added = await db
    .insert(ticketTypes)
    .values(
      sold.map((row) => ({
        eventId: row.id,
        name: "Ticket",
        pricePence: row.ticketCostPence!,
        seatsPerTicket: 1,
        position: 0,
        createdAt: now,
        updatedAt: now,
      })),
    )
    .returning({ id: ticketTypes.id, eventId: ticketTypes.eventId });
  return new Map(added.map((type) => [type.eventId, type.id]));
}

/**
 * Keeps the event's `ticket_cost_pence` the lowest price of its types that are neither hidden nor off
 * sale, so what reads it (the staff lists, the calendar) reads a price; left alone when the event is
 * not sold on this site (null) or has no such type.
 */
export async function syncEventPrice(db: Queryable, eventId: string): Promise<void> {
  const [row] = await db
    .select({ lowest: min(ticketTypes.pricePence) })
    .from(ticketTypes)
    .where(and(eq(ticketTypes.eventId, eventId), eq(ticketTypes.hidden, false), isNull(ticketTypes.offSaleAt)));
  if (row?.lowest === null || row?.lowest === undefined) return;
  await db
    .update(events)
    .set({ ticketCostPence: row.lowest })
    .where(and(eq(events.id, eventId), isNotNull(events.ticketCostPence)));
}

/** A stored type as the rules read it. */
export function rulesOf(row: TicketTypeRow): TicketTypeRules {
  return {
    id: row.id,
    name: row.name,
    pricePence: row.pricePence,
    seatsPerTicket: row.seatsPerTicket,
    cap: row.cap,
    saleFrom: row.saleFrom,
    saleUntil: row.saleUntil,
    hidden: row.hidden,
    offSaleAt: row.offSaleAt,
    closedAt: row.closedAt,
  };
}

/**
 * Every event's types a visitor may see at `now` (not hidden, not off sale), with what is left of
 * each, by event id: what the event pages, the lists and the live feed show. Three queries however
 * many events there are.
 */
export async function publicTypesByEvent(db: Queryable, now: Date): Promise<Record<string, TypeOnSale[]>> {
  const [rows, taken, seats] = await Promise.all([
    db
      .select()
      .from(ticketTypes)
      .where(and(eq(ticketTypes.hidden, false), isNull(ticketTypes.offSaleAt)))
      .orderBy(asc(ticketTypes.position), asc(ticketTypes.createdAt), asc(ticketTypes.id)),
    takenByType(db, undefined, now),
    seatsByEvent(db, now),
  ]);
  const byEvent: Record<string, TypeOnSale[]> = {};
  for (const row of rows) {
    const seat = seats[row.eventId];
    const seatsLeft = seat ? seat.total - seat.sold - seat.held : 0;
    const standing = typeStanding(rulesOf(row), taken.get(row.id) ?? { sold: 0, held: 0 }, seatsLeft, now);
    (byEvent[row.eventId] ??= []).push(typeOnSale(rulesOf(row), standing, maxTicketsPerBooking));
  }
  return byEvent;
}
