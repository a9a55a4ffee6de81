import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import { recordAudit } from "~/infra/audit/audit.server";
import { inTurn, type Database, type Queryable } from "~/infra/db/database.server";
import { itemsOfBooking, itemsOfEvent } from "~/infra/db/booking-items.server";
import { answersOfBooking, answersOfEvent } from "~/infra/db/questions.server";
import { answerLine, type ShownAnswer } from "~/lib/questions";
import { announceChange } from "~/infra/live/changes.server";
import { typesHeld, type BookedItem } from "~/lib/booking-items";
import { readBookingCode, shortCode } from "~/lib/booking-code";
import { isUuid } from "~/lib/ids";
import { personMatchSql, personQuery, personRankSql } from "~/lib/search-fold";
import { bookings, checkIns, events, tickets } from "~db/schema";
import type { CheckInRequest, CheckInResult, DoorConflict, DoorList, DoorTicket } from "./schema";

// The door: who may come in, and recording that they did. Check-ins may arrive late and in any
// order (a phone that was offline sends its queue when the network returns), so each is judged
// when it reaches the server: places are used at most once, and a check-in that finds its places
// already used is kept as a conflict for staff to see, not thrown away.

type TicketRow = typeof tickets.$inferSelect;
type CheckInRow = typeof checkIns.$inferSelect;

const refundedStatuses = ["refunded", "refund_pending"];

function doorTicket(
  ticket: TicketRow,
  bookingStatus: string | null,
  last: CheckInRow | undefined,
  items: BookedItem[],
  answers: ShownAnswer[],
): DoorTicket {
  return {
    bookingRef: ticket.bookingRef,
    code: shortCode(ticket.bookingRef),
    name: ticket.ticketHolderName,
    quantity: ticket.quantity,
    checkedIn: ticket.checkedInCount,
    refunded: !ticket.isValid || refundedStatuses.includes(bookingStatus ?? ""),
    types: typesHeld(items, ticket.isValid),
    ...atDoorOf(answers),
    last: last ? { at: last.scannedAt.toISOString(), by: last.staffEmail } : null,
  };
}

/** The answers staff marked to be shown at the door, as lines; left out when there are none. */
function atDoorOf(answers: ShownAnswer[]): { atDoor?: string[] } {
  const lines = answers.filter((answer) => answer.shownAtDoor).map(answerLine);
  return lines.length > 0 ? { atDoor: lines } : {};
}

async function ticketsWithStatus(db: Queryable, where: ReturnType<typeof eq>) {
  return db
    .select({ ticket: tickets, status: bookings.status })
    .from(tickets)
    .leftJoin(bookings, eq(bookings.bookingRef, tickets.bookingRef))
    .where(where)
    .orderBy(asc(tickets.ticketHolderName), asc(tickets.dateSold));
}

/** The event's whole door list, and every conflict, for the door page to keep on the device. */
export async function doorList({ db }: { db: Queryable }, eventId: string, now: Date): Promise<DoorList | undefined> {
  if (!isUuid(eventId)) return undefined;
  const [event] = await db.select().from(events).where(eq(events.id, eventId));
  if (!event) return undefined;
  const [rows, history, items, answers] = await Promise.all([
    ticketsWithStatus(db, eq(tickets.eventId, eventId)),
    db.select().from(checkIns).where(eq(checkIns.eventId, eventId)).orderBy(asc(checkIns.scannedAt)),
    itemsOfEvent(db, eventId),
    answersOfEvent(db, eventId),
  ]);
  const accepted = new Map<string, CheckInRow[]>();
  for (const row of history) {
    if (row.outcome !== "checked-in") continue;
    accepted.set(row.bookingRef, [...(accepted.get(row.bookingRef) ?? []), row]);
  }
  const byRef = new Map(rows.map(({ ticket }) => [ticket.bookingRef, ticket]));
  const conflicts: DoorConflict[] = history
    .filter((row) => row.outcome !== "checked-in")
    .map((row) => ({
      id: row.id,
      outcome: row.outcome as DoorConflict["outcome"],
      bookingRef: row.bookingRef,
      code: shortCode(row.bookingRef),
      name: byRef.get(row.bookingRef)?.ticketHolderName ?? "",
      count: row.count,
      at: row.scannedAt.toISOString(),
      by: row.staffEmail,
      device: row.device,
      earlier: (accepted.get(row.bookingRef) ?? []).map((e) => ({
        at: e.scannedAt.toISOString(),
        by: e.staffEmail,
        device: e.device,
        count: e.count,
      })),
    }));
  return {
    event: { id: event.id, name: event.name, eventDate: event.eventDate.toISOString() },
    tickets: rows.map(({ ticket, status }) =>
      doorTicket(
        ticket,
        status,
        accepted.get(ticket.bookingRef)?.at(-1),
        items.get(ticket.bookingRef) ?? [],
        answers.get(ticket.bookingRef) ?? [],
      ),
    ),
    conflicts,
    asOf: now.toISOString(),
  };
}

/** The most guests a search at the door answers with. */
export const doorSearchLimit = 20;

/**
 * The bookings for this event whose code, buyer's name (any part) or e-mail (its start) match what
 * was typed, best first (decision 077). The door page searches names and codes in its own list, so
 * that works offline; e-mail addresses are not kept on the phone, so it asks this for them.
 */
export async function findGuests({ db }: { db: Queryable }, eventId: string, typed: string): Promise<string[]> {
  if (!isUuid(eventId)) return [];
  const text = typed.trim().slice(0, 200);
  const code = readBookingCode(text);
  const query = personQuery(text);
  const byCode =
    code?.kind === "reference"
      ? eq(tickets.bookingRef, code.bookingRef)
      : code
        ? sql`replace(${tickets.bookingRef}::text, '-', '') like ${`${code.prefix}%`}`
        : undefined;
  const byPerson = query ? personMatchSql(query, tickets.ticketHolderName, tickets.email) : undefined;
  const either = byCode && byPerson ? or(byCode, byPerson) : (byCode ?? byPerson);
  if (!either) return [];
  const rows = await db
    .select({ bookingRef: tickets.bookingRef })
    .from(tickets)
    .where(and(eq(tickets.eventId, eventId), either))
    .orderBy(
      ...(query ? [personRankSql(query, tickets.ticketHolderName)] : []),
      asc(tickets.ticketHolderName),
      asc(tickets.dateSold),
    )
    .limit(doorSearchLimit);
  return rows.map((row) => row.bookingRef);
}

/** The event a booking reference belongs to (for the receipt's QR link), if it has a ticket. */
export async function eventOfBooking({ db }: { db: Queryable }, bookingRef: string): Promise<string | undefined> {
  if (!isUuid(bookingRef)) return undefined;
  const [row] = await db.select({ eventId: tickets.eventId }).from(tickets).where(eq(tickets.bookingRef, bookingRef));
  return row?.eventId;
}

/**
 * Records check-ins for one event, each in its own transaction with the ticket locked, so two
 * devices can never use the same places. A check-in sent again (the device did not hear the
 * answer) is answered as it was the first time and changes nothing.
 */
export async function recordCheckIns(
  { db }: { db: Database },
  staff: { id: string; email: string },
  eventId: string,
  requests: CheckInRequest[],
  now: Date,
): Promise<CheckInResult[]> {
  const results: CheckInResult[] = [];
  for (const request of requests) results.push(await recordCheckIn(db, staff, eventId, request, now));
  return results;
}

async function recordCheckIn(
  db: Database,
  staff: { id: string; email: string },
  eventId: string,
  request: CheckInRequest,
  now: Date,
): Promise<CheckInResult> {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select({ ticket: tickets, status: bookings.status })
      .from(tickets)
      .leftJoin(bookings, eq(bookings.bookingRef, tickets.bookingRef))
      .where(and(eq(tickets.bookingRef, request.bookingRef), eq(tickets.eventId, eventId)))
      .for("update", { of: tickets });
    if (!found) return { id: request.id, outcome: "not-found" as const, ticket: null };

    const [[already], items, answers] = await inTurn([
      () => tx.select().from(checkIns).where(eq(checkIns.id, request.id)),
      () => itemsOfBooking(tx, request.bookingRef),
      () => answersOfBooking(tx, request.bookingRef),
    ]);
    if (already) {
      const last = await lastCheckIn(tx, request.bookingRef);
      return {
        id: request.id,
        outcome: already.outcome as CheckInResult["outcome"],
        ticket: doorTicket(found.ticket, found.status, last, items, answers),
      };
    }

    const view = doorTicket(found.ticket, found.status, undefined, items, answers);
    const outcome = view.refunded
      ? ("refunded" as const)
      : found.ticket.checkedInCount + request.count <= found.ticket.quantity
        ? ("checked-in" as const)
        : ("conflict" as const);
    const scannedAt = new Date(request.scannedAt);
    await tx.insert(checkIns).values({
      id: request.id,
      bookingRef: request.bookingRef,
      eventId,
      count: request.count,
      staffUserId: staff.id,
      staffEmail: staff.email,
      device: request.device,
      scannedAt,
      recordedAt: now,
      outcome,
    });
    let ticket = found.ticket;
    if (outcome === "checked-in") {
      [ticket] = (await tx
        .update(tickets)
        .set({
          checkedInCount: sql`${tickets.checkedInCount} + ${request.count}`,
          checkedInAt: sql`coalesce(${tickets.checkedInAt}, ${scannedAt.toISOString()}::timestamptz)`,
        })
        .where(eq(tickets.bookingRef, request.bookingRef))
        .returning()) as [TicketRow];
      await announceChange(tx, "availability");
      const [event] = await tx.select({ name: events.name }).from(events).where(eq(events.id, eventId));
      // In the audit log beside refunds and edits; by reference and count, never by name.
      await recordAudit(tx, {
        staff,
        action: "ticket.checked-in",
        subject: `booking:${request.bookingRef}`,
        summary: `${request.count} ${request.count === 1 ? "place" : "places"} let in for ${event?.name ?? "an event"} on ${request.device}`,
        at: now,
      });
    }
    return {
      id: request.id,
      outcome,
      ticket: doorTicket(ticket, found.status, await lastCheckIn(tx, request.bookingRef), items, answers),
    };
  });
}

async function lastCheckIn(db: Queryable, bookingRef: string): Promise<CheckInRow | undefined> {
  const [row] = await db
    .select()
    .from(checkIns)
    .where(and(eq(checkIns.bookingRef, bookingRef), inArray(checkIns.outcome, ["checked-in"])))
    .orderBy(sql`${checkIns.scannedAt} desc`)
    .limit(1);
  return row;
}
