import { and, eq, getTableColumns, gt, isNotNull, min, ne, or, sql, sum, type SQLWrapper } from "drizzle-orm";
import { selectBuiltOnce, slot } from "./built-once.server";
import { bookingItems, bookings, events, tickets, ticketTypes } from "~db/schema";
import type { Queryable } from "./database.server";

// The one place seats are counted (docs/decisions/010-one-way-to-do-each-thing.md): booking
// counts them under its lock on the event row before holding more, and the events pages and the
// live feed count them for visitors. Both read the same rule, at the same `now`: a seat is taken
// by a valid ticket (its quantity) or by a hold that still counts (holdCounts).

/**
 * How long after a hold's end its seats stay kept while its payment may still be on its way
 * (decision 030): a card confirmed in the hold's last seconds, a 3-D Secure step, a late webhook.
 * Only a hold with a payment counts in this time, and the expired holds' sweep
 * (settleExpiredHolds) asks the provider about each at its end: an unpaid one is freed at once,
 * a paid one settled; only a payment still in flight, or a provider that cannot be asked, keeps
 * its seats for the whole window.
 */
export const holdSettlingMs = 10 * 60_000;

/** Whether a booking's hold keeps its seats at `now`: the same rule as the SQL below, for one row. */
export function holdCounts(
  booking: { status: string; holdExpiresAt: Date; providerPaymentId: string | null },
  now: Date,
): boolean {
  if (booking.status !== "held") return false;
  if (booking.holdExpiresAt > now) return true;
  return booking.providerPaymentId !== null && booking.holdExpiresAt.getTime() + holdSettlingMs > now.getTime();
}

/**
 * The moment holds are counted at: a time, or the slots of a query built once (selectBuiltOnce),
 * filled from `holdTimeValues(now)`.
 */
export type HoldTime = Date | { now: SQLWrapper; settlingSince: SQLWrapper };

/** The slots of a query built once that counts holds, and their values at `now`. */
export const holdTimeSlots = { now: slot("now"), settlingSince: slot("settlingSince") };
export const holdTimeValues = (now: Date) => ({ now, settlingSince: new Date(now.getTime() - holdSettlingMs) });

const timeOf = (at: HoldTime) => (at instanceof Date ? holdTimeValues(at) : at);

/** Held bookings whose hold keeps its seats at `now` (holdCounts), as SQL. */
export function countedHolds(at: HoldTime) {
  const { now, settlingSince } = timeOf(at);
  return and(
    eq(bookings.status, "held"),
    or(
      gt(bookings.holdExpiresAt, now),
      and(isNotNull(bookings.providerPaymentId), gt(bookings.holdExpiresAt, settlingSince)),
    ),
  );
}

/**
 * When a counted hold may next stop counting, as SQL: its end while it runs (the sweep frees an
 * unpaid one then), the end of its settling window after that. What "Try again after" names.
 */
export function holdMayEnd(at: HoldTime) {
  const { now } = timeOf(at);
  return sql<Date>`case when ${bookings.holdExpiresAt} > ${now} then ${bookings.holdExpiresAt} else ${bookings.holdExpiresAt} + make_interval(secs => ${holdSettlingMs / 1000}) end`;
}

export interface SeatCount {
  total: number;
  sold: number;
  held: number;
  /** When the first of the holds counted in `held` may stop counting (holdMayEnd); null when nothing is held. */
  heldUntil: Date | null;
}

function soldSeats(eventId: SQLWrapper | string) {
  return sql<number>`coalesce((${sql`select ${sum(tickets.quantity)} from ${tickets} where ${and(
    eq(tickets.eventId, eventId),
    eq(tickets.isValid, true),
  )}`}), 0)::int`;
}

function liveHolds(eventId: SQLWrapper | string, now: HoldTime, except?: string) {
  return and(eq(bookings.eventId, eventId), countedHolds(now), except ? ne(bookings.bookingRef, except) : undefined);
}

function heldSeats(eventId: SQLWrapper | string, now: HoldTime, except?: string) {
  return sql<number>`coalesce((${sql`select ${sum(bookings.seats)} from ${bookings} where ${liveHolds(eventId, now, except)}`}), 0)::int`;
}

function firstHoldExpiry(eventId: SQLWrapper | string, now: HoldTime, except?: string) {
  return sql<Date | null>`(${sql`select min(${holdMayEnd(now)}) from ${bookings} where ${liveHolds(eventId, now, except)}`})`.mapWith(
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

const eventSlot = slot("eventId");
/** An event's row and its seats' counts (seatCountOf), for the queries below built once. */
const eventAndSeats = () => ({
  ...getTableColumns(events),
  seatsSold: soldSeats(eventSlot),
  seatsHeld: heldSeats(eventSlot, holdTimeSlots),
  seatsHeldUntil: firstHoldExpiry(eventSlot, holdTimeSlots),
});
const eventWithSeatsReading = selectBuiltOnce((db: Queryable) =>
  db.select(eventAndSeats()).from(events).where(eq(events.id, eventSlot)),
);

/**
 * An event's row and its seats at `now`, in one query built once (decision 099; no lock: a checkout's early answer, never
 * the count it holds seats by, which is read after locking the row).
 */
export async function eventWithSeats(
  db: Queryable,
  eventId: string,
  now: Date,
): Promise<{ event: typeof events.$inferSelect; seats: SeatCount } | undefined> {
  const [row] = await eventWithSeatsReading(db, { eventId, ...holdTimeValues(now) });
  if (!row) return undefined;
  const { seatsSold, seatsHeld, seatsHeldUntil, ...event } = row;
  return { event, seats: seatCountOf(event, { seatsSold, seatsHeld, seatsHeldUntil }) };
}

/** An event's seats from the counts read beside its row. */
function seatCountOf(
  event: { totalAvailableTickets: number },
  counts: { seatsSold: number | null; seatsHeld: number | null; seatsHeldUntil: Date | null },
): SeatCount {
  return {
    total: event.totalAvailableTickets,
    sold: Number(counts.seatsSold ?? 0),
    held: Number(counts.seatsHeld ?? 0),
    heldUntil: counts.seatsHeldUntil ?? null,
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

/**
 * The next moment any hold's count changes by itself (the live feed recounts then): a hold's end,
 * where "reserved until" moves on (or an unpaid hold is freed), or the end of its settling window,
 * where it stops counting; null when none is ahead.
 */
export async function nextHoldExpiry(db: Queryable, now: Date): Promise<Date | null> {
  const [row] = await db
    .select({ at: min(holdMayEnd(now)).mapWith(bookings.holdExpiresAt) })
    .from(bookings)
    .where(countedHolds(now));
  return row?.at ?? null;
}

/** Seats held across every event at `now`, in checkouts not yet paid (the operator's view, /metrics). */
export async function seatsHeldNow(db: Queryable, now: Date): Promise<number> {
  const [row] = await db
    .select({ seats: sql<number>`coalesce(sum(${bookings.seats}), 0)::int`.mapWith(Number) })
    .from(bookings)
    .where(countedHolds(now));
  return row?.seats ?? 0;
}

/**
 * Tickets of each of an event's types (of every event's, without `eventId`) taken at `now`, by type id (types with none taken are
 * absent): sold (in valid tickets, less those refunded) and held (in holds that count, leaving out
 * `except`). The same rules as the event's seats above, per type (decision 078).
 */
export async function takenByType(
  db: Queryable,
  eventId: string | undefined,
  now: Date,
  except?: string,
): Promise<Map<string, { sold: number; held: number }>> {
  const counted = countedHolds(now);
  const rows = await db
    .select({
      typeId: bookingItems.ticketTypeId,
      sold: sql<number>`coalesce(sum(${bookingItems.quantity} - ${bookingItems.refunded}) filter (where ${tickets.isValid}), 0)::int`,
      held: sql<number>`coalesce(sum(${bookingItems.quantity}) filter (where ${counted}${except ? sql` and ${bookings.bookingRef} <> ${except}` : sql``}), 0)::int`,
    })
    .from(bookingItems)
    .innerJoin(bookings, eq(bookings.bookingRef, bookingItems.bookingRef))
    .leftJoin(tickets, eq(tickets.bookingRef, bookingItems.bookingRef))
    .innerJoin(ticketTypes, eq(ticketTypes.id, bookingItems.ticketTypeId))
    .where(
      and(eventId === undefined ? undefined : eq(ticketTypes.eventId, eventId), or(eq(tickets.isValid, true), counted)),
    )
    .groupBy(bookingItems.ticketTypeId);
  return new Map(rows.map((row) => [row.typeId, { sold: Number(row.sold), held: Number(row.held) }]));
}

/** A ticket type as `lockEventStock` reads it, with what is taken of it. */
export interface TypeStock {
  row: Omit<typeof ticketTypes.$inferSelect, "eventId" | "position" | "createdAt" | "updatedAt">;
  taken: { sold: number; held: number };
}

interface TypeJson {
  id: string;
  name: string;
  pricePence: number;
  seatsPerTicket: number;
  cap: number | null;
  saleFrom: string | null;
  saleUntil: string | null;
  hidden: boolean;
  offSaleAt: string | null;
  closedAt: string | null;
  sold: number;
  held: number;
}

const dateOrNull = (value: string | null) => (value === null ? null : new Date(value));

const typesWithTaken = sql<TypeJson[]>`(select coalesce(json_agg(json_build_object(
      'id', tt.id, 'name', tt.name, 'pricePence', tt.price_pence, 'seatsPerTicket', tt.seats_per_ticket,
      'cap', tt.cap, 'saleFrom', tt.sale_from, 'saleUntil', tt.sale_until, 'hidden', tt.hidden,
      'offSaleAt', tt.off_sale_at, 'closedAt', tt.closed_at,
      'sold', (select coalesce(sum(bi.quantity - bi.refunded), 0) from booking_items bi
        join tickets t on t.booking_ref = bi.booking_ref
        where bi.ticket_type_id = tt.id and t.is_valid),
      'held', (select coalesce(sum(bi.quantity), 0) from booking_items bi
        join bookings on bookings.booking_ref = bi.booking_ref
        where bi.ticket_type_id = tt.id and ${countedHolds(holdTimeSlots)})
    ) order by tt.position, tt.created_at, tt.id), '[]'::json) from ticket_types tt where tt.event_id = events.id)`;

const eventLock = selectBuiltOnce((db: Queryable) =>
  db.select({ id: events.id }).from(events).where(eq(events.id, eventSlot)).for("update"),
);

/** What lockEventStock reads once the event's row is locked, built once (decision 099). */
const eventStockReading = selectBuiltOnce((db: Queryable) =>
  db
    .select({ ...eventAndSeats(), types: typesWithTaken })
    .from(events)
    .where(eq(events.id, eventSlot)),
);

/**
 * Locks an event's row, then reads its seats and its types with what is taken of each at `now`
 * (decision 078) in one more statement: what a checkout counts before holding seats, in two round
 * trips to the database, so checkouts of one event queue on its lock for as short a time as
 * possible. The count cannot share the locking statement: under PostgreSQL's read committed, a
 * statement that waited for the lock still reads the counts as they were when it began, without
 * the sale it waited for (two races in the tests fail if they are joined).
 * Undefined when there is no such event.
 */
export async function lockEventStock(
  db: Queryable,
  eventId: string,
  now: Date,
): Promise<{ event: typeof events.$inferSelect; seats: SeatCount; types: TypeStock[] } | undefined> {
  const [lock] = await eventLock(db, { eventId });
  if (!lock) return undefined;
  const [row] = await eventStockReading(db, { eventId, ...holdTimeValues(now) });
  if (!row) return undefined;
  const { seatsSold, seatsHeld, seatsHeldUntil, types: typesJson, ...event } = row;
  const parsed: TypeJson[] = typeof typesJson === "string" ? JSON.parse(typesJson) : typesJson;
  return {
    event,
    seats: seatCountOf(event, { seatsSold, seatsHeld, seatsHeldUntil }),
    types: parsed.map(({ sold, held, ...type }) => ({
      row: {
        ...type,
        saleFrom: dateOrNull(type.saleFrom),
        saleUntil: dateOrNull(type.saleUntil),
        offSaleAt: dateOrNull(type.offSaleAt),
        closedAt: dateOrNull(type.closedAt),
      },
      taken: { sold: Number(sold), held: Number(held) },
    })),
  };
}
