import { and, asc, eq, isNotNull, isNull, min, sql } from "drizzle-orm";
import type { Queryable } from "./database.server";
import { seatsByEvent, takenByType, type SeatCount } from "./seats.server";
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

/** A type a visitor may see, where it stands at a moment, and where it would stand with no holds. */
export interface VisibleTypeStock {
  type: TicketTypeRules;
  onSale: TypeOnSale;
  /**
   * None can be bought now only because the rest are held in unfinished checkouts: with those holds
   * gone it would be on sale (the type's "reserved", as the event's seats have it).
   */
  freedByHolds: boolean;
}

/** Types a visitor may see: neither hidden (a code reveals those) nor taken off sale. */
const visible = and(eq(ticketTypes.hidden, false), isNull(ticketTypes.offSaleAt));

/**
 * Every event's types a visitor may see at `now` (not hidden, not off sale), with what is left of
 * each, by event id, given the events' seats at the same `now` (seatsByEvent). Two queries however
 * many events there are, beside the seats'.
 */
export async function visibleTypeStock(
  db: Queryable,
  now: Date,
  /** The seats, or their query still running (the three queries then run at once). */
  seatCounts: Record<string, SeatCount> | Promise<Record<string, SeatCount>>,
): Promise<Record<string, VisibleTypeStock[]>> {
  const [rows, taken, seats] = await Promise.all([
    db
      .select()
      .from(ticketTypes)
      .where(visible)
      .orderBy(asc(ticketTypes.position), asc(ticketTypes.createdAt), asc(ticketTypes.id)),
    takenByType(db, undefined, now),
    seatCounts,
  ]);
  const byEvent: Record<string, VisibleTypeStock[]> = {};
  for (const row of rows) {
    const seat = seats[row.eventId];
    const seatsLeft = seat ? seat.total - seat.sold - seat.held : 0;
    const rules = rulesOf(row);
    const ofType = taken.get(row.id) ?? { sold: 0, held: 0 };
    const standing = typeStanding(rules, ofType, seatsLeft, now);
    const withoutHolds =
      standing.status === "sold-out" && (ofType.held > 0 || (seat?.held ?? 0) > 0)
        ? typeStanding(rules, { sold: ofType.sold, held: 0 }, seatsLeft + (seat?.held ?? 0), now)
        : undefined;
    (byEvent[row.eventId] ??= []).push({
      type: rules,
      onSale: typeOnSale(rules, standing, maxTicketsPerBooking),
      freedByHolds: withoutHolds?.status === "on-sale",
    });
  }
  return byEvent;
}

/**
 * Every event's types a visitor may see at `now` (not hidden, not off sale), with what is left of
 * each, by event id: what the event pages, the lists and the live feed show. Three queries however
 * many events there are.
 */
export async function publicTypesByEvent(db: Queryable, now: Date): Promise<Record<string, TypeOnSale[]>> {
  const stock = await visibleTypeStock(db, now, seatsByEvent(db, now));
  return Object.fromEntries(Object.entries(stock).map(([id, types]) => [id, types.map((type) => type.onSale)]));
}

/**
 * The next moment after `now` that a visible type's sale opens or ends (its `sale_from` or
 * `sale_until`): what a visitor sees of it changes then with nothing announced, so the page cache
 * and the live feed look again. Null when none is ahead.
 */
export async function nextSaleWindowEdge(db: Queryable, now: Date): Promise<Date | null> {
  const [row] = await db
    .select({
      opens: sql<string | null>`min(${ticketTypes.saleFrom}) filter (where ${ticketTypes.saleFrom} > ${now})`,
      ends: sql<string | null>`min(${ticketTypes.saleUntil}) filter (where ${ticketTypes.saleUntil} > ${now})`,
    })
    .from(ticketTypes)
    .where(and(visible, isNull(ticketTypes.closedAt)));
  const times = [row?.opens, row?.ends]
    .filter((at) => at !== null && at !== undefined)
    .map((at) => new Date(at as string | Date).getTime());
  return times.length > 0 ? new Date(Math.min(...times)) : null;
}
