import { and, asc, count, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import { itemsOfBookings, itemsOfEvent } from "~/infra/db/booking-items.server";
import { answersOfBookings, answersOfEvent } from "~/infra/db/questions.server";
import type { ShownAnswer } from "~/lib/questions";
import type { Queryable } from "~/infra/db/database.server";
import { typesHeld, type BookedItem, type TypeCount } from "~/lib/booking-items";
import { shortCode } from "~/lib/booking-code";
import { isUuid } from "~/lib/ids";
import { pageOf, type Paged } from "~/lib/pagination";
import { bookings, tickets } from "~db/schema";
import { likeLiteral, searchText } from "~/lib/search-fold";

// An event's tickets as staff see them on its page, in the CSV and on the printed door list, each
// with its tickets by type (decision 082).

export interface StaffTicket {
  bookingRef: string;
  code: string;
  name: string;
  email: string;
  /** Places it admits at the door (a table of eight admits eight). */
  quantity: number;
  dateSold: string;
  checkedIn: number;
  refunded: boolean;
  /** Its tickets of each type still valid (decision 082); for one refunded in full, what it was bought with. */
  types: TypeCount[];
  /** Its answers to the event's questions (decision 083), question by question. */
  answers: ShownAnswer[];
}

/**
 * What a search box's words match: part of the buyer's name or e-mail address, or the start of a
 * booking reference or short code (with or without its dashes).
 */
function matching(search: string): SQL | undefined {
  const words = searchText(search);
  if (!words) return undefined;
  const escaped = likeLiteral(words);
  const hex = words.replace(/[\s-]/g, "").toLowerCase();
  return or(
    ilike(tickets.ticketHolderName, `%${escaped}%`),
    ilike(tickets.email, `%${escaped}%`),
    /^[0-9a-f]{4,32}$/.test(hex) ? sql`replace(${tickets.bookingRef}::text, '-', '') like ${`${hex}%`}` : undefined,
  );
}

function view(
  row: { ticket: typeof tickets.$inferSelect; status: string | null },
  items: Map<string, BookedItem[]>,
  answers: Map<string, ShownAnswer[]>,
): StaffTicket {
  return {
    bookingRef: row.ticket.bookingRef,
    code: shortCode(row.ticket.bookingRef),
    name: row.ticket.ticketHolderName,
    email: row.ticket.email,
    quantity: row.ticket.quantity,
    dateSold: row.ticket.dateSold.toISOString(),
    checkedIn: row.ticket.checkedInCount,
    refunded: !row.ticket.isValid || row.status === "refunded" || row.status === "refund_pending",
    types: typesHeld(items.get(row.ticket.bookingRef) ?? [], row.ticket.isValid),
    answers: answers.get(row.ticket.bookingRef) ?? [],
  };
}

/** One page of an event's tickets, oldest sale first, narrowed by a search. */
export async function ticketsPage(
  { db }: { db: Queryable },
  eventId: string,
  { search = "", page = 1 }: { search?: string; page?: number },
): Promise<Paged<StaffTicket>> {
  if (!isUuid(eventId)) return pageOf([], 0, page);
  const where = and(eq(tickets.eventId, eventId), matching(search));
  const [{ total } = { total: 0 }] = await db.select({ total: count() }).from(tickets).where(where);
  const { offset, limit } = pageOf([], total, page);
  const rows = await db
    .select({ ticket: tickets, status: bookings.status })
    .from(tickets)
    .leftJoin(bookings, eq(bookings.bookingRef, tickets.bookingRef))
    .where(where)
    .orderBy(asc(tickets.dateSold), asc(tickets.bookingRef))
    .limit(limit)
    .offset(offset);
  const refs = rows.map((row) => row.ticket.bookingRef);
  const [items, answers] = await Promise.all([itemsOfBookings(db, refs), answersOfBookings(db, refs)]);
  return pageOf(
    rows.map((row) => view(row, items, answers)),
    total,
    page,
  );
}

/** Every ticket of an event, in the order given: for the CSV (by sale) and the door list (by name). */
export async function allTickets(
  { db }: { db: Queryable },
  eventId: string,
  order: "sold" | "name",
): Promise<StaffTicket[]> {
  if (!isUuid(eventId)) return [];
  const [rows, items, answers] = await Promise.all([
    db
      .select({ ticket: tickets, status: bookings.status })
      .from(tickets)
      .leftJoin(bookings, eq(bookings.bookingRef, tickets.bookingRef))
      .where(eq(tickets.eventId, eventId))
      .orderBy(
        ...(order === "name"
          ? [sql`lower(${tickets.ticketHolderName})`, asc(tickets.dateSold)]
          : [asc(tickets.dateSold), asc(tickets.bookingRef)]),
      ),
    itemsOfEvent(db, eventId),
    answersOfEvent(db, eventId),
  ]);
  return rows.map((row) => view(row, items, answers));
}

/** An event's ticket records with the specification's field names, for staff. */
export async function ticketsForEvent({ db }: { db: Queryable }, eventId: string) {
  if (!isUuid(eventId)) return [];
  const [rows, items] = await Promise.all([
    db.select().from(tickets).where(eq(tickets.eventId, eventId)).orderBy(tickets.dateSold),
    itemsOfEvent(db, eventId),
  ]);
  return rows.map((t) => ({
    id: t.id,
    ticketHolderName: t.ticketHolderName,
    email: t.email,
    eventId: t.eventId,
    bookingRef: t.bookingRef,
    isValid: t.isValid,
    quantity: t.quantity,
    dateSold: t.dateSold.toISOString(),
    checkedInAt: t.checkedInAt?.toISOString() ?? null,
    checkedInCount: t.checkedInCount,
    // Its tickets by type (decision 082): the type, how many, how many given back, at what price.
    ticketTypes: (items.get(t.bookingRef) ?? []).map((item) => ({
      id: item.ticketTypeId,
      name: item.name,
      quantity: item.quantity,
      refunded: item.refunded,
      pricePence: item.pricePence,
      seatsPerTicket: item.seatsPerTicket,
    })),
  }));
}
