import { and, asc, eq, isNotNull, sql } from "drizzle-orm";
import { recordAudit } from "~/infra/audit/audit.server";
import type { Database, Queryable } from "~/infra/db/database.server";
import type { MailKind } from "~/infra/email/mail-kinds";
import { queueMail, type OutboxWorker } from "~/infra/email/outbox.server";
import { announceChange } from "~/infra/live/changes.server";
import type { PaymentDeps } from "~/infra/payments/provider.server";
import { AppError } from "~/lib/errors";
import { validate } from "~/lib/forms";
import { isUuid } from "~/lib/ids";
import { formatPounds } from "~/lib/money";
import { itemsOfBooking } from "~/infra/db/booking-items.server";
import {
  itemsLeft,
  plainTypeName,
  refundableOfType,
  ticketsInWords,
  ticketsLeft,
  type BookedItem,
} from "~/lib/booking-items";
import { bookingHistory, bookingItems, bookings, events, refunds, tickets, ticketTypes } from "~db/schema";
import { ticketPriceOf } from "./pricing";
import { eventCancelledNotice, refundMade } from "./refund-mails.server";
import { refundMessages, refundSchema, refundableMessage, type RefundField } from "./schema";

// Refunds of bookings (docs/decisions/015-bookings-and-refunds.md). A refund is first written as
// `pending`, with its unique key, in the same transaction that takes the tickets back, under a lock
// on the booking row; only then is the provider asked, with the idempotency key `refund-<id>`. So
// a double click, two staff at once or a crash between the two steps still give one refund: a
// pending refund is asked for again, with the same key, until the provider answers.

export type RefundRow = typeof refunds.$inferSelect;

/** Who gives the money back: a member of staff, or the site for an event staff cancelled. */
export interface Refunder {
  id: string | null;
  email: string;
}

/** What refunding needs: what a payment needs, and the outbox to send a queued e-mail at once. */
export interface RefundDeps extends PaymentDeps {
  outbox?: Pick<OutboxWorker, "deliver">;
}

export interface RefundView {
  id: string;
  key: string;
  bookingRef: string;
  quantity: number | null;
  /** The type of the tickets given back, when they were all of one (decision 082). */
  ticketTypeId: string | null;
  /** That type's name. */
  ticketType: string | null;
  amountPence: number;
  reason: string;
  status: string;
  attempts: number;
  lastError: string | null;
  staffEmail: string;
  createdAt: string;
  completedAt: string | null;
}

export function refundView(row: RefundRow, ticketType: string | null = null): RefundView {
  return {
    id: row.id,
    key: row.key,
    bookingRef: row.bookingRef ?? "",
    quantity: row.quantity,
    ticketTypeId: row.ticketTypeId,
    ticketType: row.ticketTypeId ? ticketType : null,
    amountPence: row.amountPence,
    reason: row.reason,
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    staffEmail: row.staffEmail,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}

/** A booking's refunds, oldest first. */
export async function refundsOfBooking(db: Queryable, bookingRef: string): Promise<RefundView[]> {
  if (!isUuid(bookingRef)) return [];
  const rows = await db
    .select({ refund: refunds, ticketType: ticketTypes.name })
    .from(refunds)
    .leftJoin(ticketTypes, eq(ticketTypes.id, refunds.ticketTypeId))
    .where(eq(refunds.bookingRef, bookingRef))
    .orderBy(asc(refunds.createdAt), asc(refunds.id));
  return rows.map((row) => refundView(row.refund, row.ticketType));
}

/** A refund as staff see it, with its type's name. */
async function viewOf(db: Queryable, row: RefundRow): Promise<RefundView> {
  if (!row.ticketTypeId) return refundView(row);
  const [type] = await db
    .select({ name: ticketTypes.name })
    .from(ticketTypes)
    .where(eq(ticketTypes.id, row.ticketTypeId));
  return refundView(row, type?.name ?? null);
}

interface RecordRefund {
  bookingRef: string;
  key: string;
  reason: string;
  /** A number of tickets (never more than are valid and not checked in), or everything left (an event cancelled). */
  quantity: number | "everything";
  /** Whose tickets, when the booking has tickets of more than one type left (decision 082). */
  ticketTypeId?: string;
  staff: Refunder;
  now: Date;
  /** Staff refunds are audited one by one; an event's refunds are covered by its cancellation's entry. */
  audit: boolean;
}

/** "1 ticket", "3 valid Child tickets": tickets counted in words, of a type when it is not the plain one. */
function ticketsWord(count: number, typeName: string | null, valid = false) {
  const word = `${valid ? "valid " : ""}${typeName && typeName !== plainTypeName ? `${typeName} ` : ""}ticket`;
  return `${count} ${count === 1 ? word : `${word}s`}`;
}

/**
 * What a refund takes back (decision 082): `quantity` tickets of `item`, which admit `places` at the
 * door, for `amountPence`; `all` when they are every ticket the booking has left.
 */
interface Taken {
  quantity: number;
  /** The type, when they are all of one; null for everything left of several types. */
  item: BookedItem | null;
  places: number;
  amountPence: number;
  all: boolean;
}

/**
 * What a refund asks to take back, judged with the booking, its ticket and its tickets by type read
 * under the booking's lock. Tickets of a type are refunded at the price they were bought at, as many
 * as are valid and whose places have not been used at the door; when they are all the tickets left,
 * everything not yet given back is refunded, the booking fee too. A booking with no tickets recorded
 * by type (made before types) is read as tickets of one place each, at one price.
 */
function toTake(
  booking: typeof bookings.$inferSelect,
  ticket: typeof tickets.$inferSelect | undefined,
  recorded: BookedItem[],
  request: Pick<RecordRefund, "quantity" | "ticketTypeId">,
): Taken {
  const valid = ticket?.isValid ? ticket.quantity : 0;
  if (!ticket || valid <= 0) throw new AppError("conflict", refundableMessage(0));
  const items: BookedItem[] =
    recorded.length > 0
      ? recorded
      : [
          {
            ticketTypeId: "",
            name: plainTypeName,
            quantity: valid,
            refunded: 0,
            pricePence: ticketPriceOf(booking),
            seatsPerTicket: 1,
          },
        ];
  const withLeft = items.filter((item) => ticketsLeft(item) > 0);
  const leftInAll = withLeft.reduce((sum, item) => sum + ticketsLeft(item), 0);
  const everything = (): Taken => ({
    quantity: leftInAll,
    item: withLeft.length === 1 ? withLeft[0]! : null,
    places: valid,
    amountPence: booking.amountPence - booking.refundedPence,
    all: true,
  });
  if (request.quantity === "everything") return everything();

  const several = withLeft.length > 1;
  let item: BookedItem | undefined;
  if (request.ticketTypeId) {
    item = items.find((i) => i.ticketTypeId === request.ticketTypeId);
    if (!item) {
      throw new AppError("invalid", refundMessages.noSuchType, { fields: { ticketTypeId: refundMessages.noSuchType } });
    }
  } else if (several) {
    throw new AppError("invalid", refundMessages.ticketType, { fields: { ticketTypeId: refundMessages.ticketType } });
  } else {
    item = withLeft[0];
  }
  if (!item) throw new AppError("conflict", refundableMessage(0));
  // The type is named only where the booking has (or had) tickets of more than one.
  const named = items.length > 1 ? item.name : null;
  const refundable = refundableOfType(item, valid - ticket.checkedInCount);
  if (refundable <= 0) {
    const message = refundableMessage(0, named);
    throw new AppError("conflict", message, named ? { fields: { ticketTypeId: message } } : undefined);
  }
  if (request.quantity > refundable) {
    const message = refundableMessage(refundable, named);
    throw new AppError("invalid", message, { fields: { quantity: message } });
  }
  const places = request.quantity * item.seatsPerTicket;
  if (request.quantity >= leftInAll || places >= valid) return everything();
  return { quantity: request.quantity, item, places, amountPence: item.pricePence * request.quantity, all: false };
}

/**
 * Takes the tickets back and writes the refund as `pending`, in one transaction with the booking
 * row locked while what is left is computed. The ticket admits that many fewer places and the
 * type's tickets count as refunded in the same statement, so the event's seats and the type's come
 * back together and are never counted twice (decision 082). A key already used answers its refund
 * (created false).
 */
async function recordRefund(db: Database, request: RecordRefund): Promise<{ refund: RefundRow; created: boolean }> {
  return db.transaction(async (tx) => {
    const [booking] = await tx.select().from(bookings).where(eq(bookings.bookingRef, request.bookingRef)).for("update");
    if (!booking) throw new AppError("not-found", "There is no such booking.");
    const [earlier] = await tx.select().from(refunds).where(eq(refunds.key, request.key));
    if (earlier) {
      if (earlier.bookingRef !== booking.bookingRef)
        throw new AppError("conflict", refundMessages.key, { fields: { key: refundMessages.key } });
      return { refund: earlier, created: false };
    }
    if (booking.status === "refunded" || booking.status === "refund_pending")
      throw new AppError("conflict", "This booking has already been refunded in full.");
    if (booking.status !== "paid")
      throw new AppError("conflict", "This booking has not been paid, so there is nothing to refund.");
    const [[ticket], items] = await Promise.all([
      tx.select().from(tickets).where(eq(tickets.bookingRef, booking.bookingRef)).for("update"),
      itemsOfBooking(tx, booking.bookingRef),
    ]);
    const taken = toTake(booking, ticket, items, request);
    const { quantity, amountPence, all } = taken;
    if (amountPence <= 0) throw new AppError("conflict", "These tickets were free, so there is no money to give back.");
    const typeId = taken.item?.ticketTypeId || null;
    const typeName = items.length > 1 ? (taken.item?.name ?? null) : null;

    const [refund] = await tx
      .insert(refunds)
      .values({
        id: crypto.randomUUID(),
        key: request.key,
        bookingRef: booking.bookingRef,
        quantity,
        ticketTypeId: typeId,
        amountPence,
        reason: request.reason,
        status: "pending",
        staffUserId: request.staff.id,
        staffEmail: request.staff.email,
        createdAt: request.now,
      })
      .returning();
    await tx
      .update(tickets)
      // A ticket with none left is marked invalid and keeps its quantity, so the record says what it was.
      .set(all ? { isValid: false } : { quantity: sql`${tickets.quantity} - ${taken.places}` })
      .where(eq(tickets.bookingRef, booking.bookingRef));
    if (all) {
      await tx
        .update(bookingItems)
        .set({ refunded: sql`${bookingItems.quantity}` })
        .where(eq(bookingItems.bookingRef, booking.bookingRef));
    } else if (typeId) {
      await tx
        .update(bookingItems)
        .set({ refunded: sql`${bookingItems.refunded} + ${quantity}` })
        .where(and(eq(bookingItems.bookingRef, booking.bookingRef), eq(bookingItems.ticketTypeId, typeId)));
    }
    await tx
      .update(bookings)
      .set({
        refundedPence: booking.refundedPence + amountPence,
        status: all ? "refunded" : booking.status,
        updatedAt: request.now,
      })
      .where(eq(bookings.bookingRef, booking.bookingRef));
    const what =
      taken.item || items.length <= 1
        ? ticketsWord(quantity, typeName)
        : `${ticketsWord(quantity, null)}: ${ticketsInWords(itemsLeft(items))}`;
    await tx.insert(bookingHistory).values({
      bookingRef: booking.bookingRef,
      status: all ? "refunded" : "partly refunded",
      note: `${what} (${formatPounds(amountPence)}) given back by ${request.staff.email}: ${request.reason}`,
      at: request.now,
    });
    if (request.audit && request.staff.id) {
      const left = taken.item ? ticketsLeft(taken.item) : quantity;
      await recordAudit(tx, {
        staff: { id: request.staff.id, email: request.staff.email },
        action: "booking.refunded",
        subject: `booking:${booking.bookingRef}`,
        summary: `Refunded ${quantity} of ${ticketsWord(left || quantity, typeName, true)}: ${formatPounds(amountPence)}`,
        at: request.now,
      });
    }
    // The seats are on sale again at once, on every page that shows them.
    await announceChange(tx, "availability");
    return { refund: refund!, created: true };
  });
}

/**
 * Asks the provider for a pending refund (again, after a failure or a restart: always with the
 * same idempotency key, so it is made once). On success the refund is marked and the buyer's
 * e-mail queued in one transaction, then sent; on failure the error is kept for staff to see.
 */
export async function attemptRefund(deps: RefundDeps, refundId: string): Promise<RefundRow | undefined> {
  const [refund] = await deps.db.select().from(refunds).where(eq(refunds.id, refundId));
  if (!refund?.bookingRef || refund.status !== "pending") return refund;
  const [booking] = await deps.db.select().from(bookings).where(eq(bookings.bookingRef, refund.bookingRef));
  let mail: { kind: MailKind; about: string } | undefined;
  try {
    if (!booking?.providerPaymentId) throw new Error("The booking has no payment to refund.");
    const made = await deps.payments.refundPayment(
      booking.providerPaymentId,
      `refund-${refund.id}`,
      refund.amountPence,
    );
    const now = deps.clock.now();
    mail = await deps.db.transaction(async (tx) => {
      const [done] = await tx
        .update(refunds)
        .set({
          status: "succeeded",
          providerRefundId: made.id,
          attempts: sql`${refunds.attempts} + 1`,
          lastError: null,
          completedAt: now,
        })
        .where(and(eq(refunds.id, refund.id), eq(refunds.status, "pending")))
        .returning();
      if (!done) return undefined; // Another process finished it first, and told the buyer.
      await tx.insert(bookingHistory).values({
        bookingRef: booking.bookingRef,
        status: "refund made",
        note: `The card provider gave back ${formatPounds(done.amountPence)} (${made.id})`,
        at: now,
      });
      return queueRefundMail(tx, deps, done, now);
    });
  } catch (error) {
    const message = (error as Error).message || String(error);
    console.error(`Refund ${refund.id} of booking ${refund.bookingRef} is waiting:`, message);
    await deps.db
      .update(refunds)
      .set({ attempts: sql`${refunds.attempts} + 1`, lastError: message.slice(0, 500) })
      .where(and(eq(refunds.id, refund.id), eq(refunds.status, "pending")));
  }
  if (mail && deps.outbox) await deps.outbox.deliver(mail.kind, mail.about);
  const [after] = await deps.db.select().from(refunds).where(eq(refunds.id, refund.id));
  return after;
}

/** The buyer's e-mail for a refund that has just succeeded: an event cancelled, or tickets given back. */
async function queueRefundMail(db: Queryable, deps: RefundDeps, refund: RefundRow, now: Date) {
  const [row] = await db
    .select({ booking: bookings, event: events, ticket: tickets })
    .from(bookings)
    .innerJoin(events, eq(events.id, bookings.eventId))
    .leftJoin(tickets, eq(tickets.bookingRef, bookings.bookingRef))
    .where(eq(bookings.bookingRef, refund.bookingRef!));
  if (!row) return undefined;
  const to = {
    bookingRef: row.booking.bookingRef,
    holderName: row.booking.holderName,
    email: row.booking.email,
    event: { name: row.event.name, eventDate: row.event.eventDate },
    charity: deps.charity,
  };
  if (refund.key.startsWith("cancel:")) {
    const message = await eventCancelledNotice(to, { reason: refund.reason, amountPence: refund.amountPence });
    await queueMail(db, { kind: "event-cancelled", about: row.booking.bookingRef, message, now });
    return { kind: "event-cancelled" as const, about: row.booking.bookingRef };
  }
  const items = await itemsOfBooking(db, row.booking.bookingRef);
  const valid = row.ticket?.isValid ?? false;
  const left = valid ? itemsLeft(items) : [];
  const message = await refundMade(to, {
    quantity: refund.quantity ?? 0,
    // The type is named where the booking had tickets of more than one.
    typeName: items.length > 1 ? (items.find((item) => item.ticketTypeId === refund.ticketTypeId)?.name ?? null) : null,
    amountPence: refund.amountPence,
    reason: refund.reason,
    ticketsLeft: !valid
      ? 0
      : items.length > 0
        ? left.reduce((sum, item) => sum + item.quantity, 0)
        : row.ticket!.quantity,
    leftInWords: items.length > 1 ? ticketsInWords(left) : null,
  });
  await queueMail(db, { kind: "booking-refund", about: refund.id, message, now });
  return { kind: "booking-refund" as const, about: refund.id };
}

/**
 * Staff refund some or all of a booking's tickets (the page's form and the staff API). `key` is the
 * form's one-time token: sent twice, it finds the same refund. `ticketTypeId` names whose tickets
 * when the booking has tickets of more than one type left. The amount is computed here.
 */
export async function refundBooking(
  deps: RefundDeps,
  staff: Refunder,
  bookingRef: string,
  input: { quantity: unknown; reason: unknown; key: unknown; ticketTypeId?: unknown },
): Promise<{ refund: RefundView; created: boolean }> {
  if (!isUuid(bookingRef)) throw new AppError("not-found", "There is no such booking.");
  const validation = validate<typeof refundSchema, RefundField>(refundSchema, input);
  if (!validation.ok) {
    const first = Object.values(validation.errors)[0] ?? refundMessages.quantity;
    throw new AppError("invalid", first, { fields: validation.errors });
  }
  const { quantity, reason, key, ticketTypeId } = validation.data;
  const { refund, created } = await recordRefund(deps.db, {
    bookingRef,
    key,
    reason,
    quantity,
    ticketTypeId,
    staff,
    now: deps.clock.now(),
    audit: true,
  });
  const after = refund.status === "pending" ? await attemptRefund(deps, refund.id) : refund;
  return { refund: await viewOf(deps.db, after ?? refund), created };
}

/**
 * Refunds everything left of a paid booking because its event was cancelled, keyed
 * `cancel:<booking ref>` so that no booking is ever refunded twice for it, by any process.
 */
export async function refundForCancellation(
  deps: RefundDeps,
  staff: Refunder,
  bookingRef: string,
  reason: string,
): Promise<RefundRow | undefined> {
  const [booking] = await deps.db.select().from(bookings).where(eq(bookings.bookingRef, bookingRef));
  // Nothing was paid (its tickets were all free): its tickets are cancelled, with nothing to give back.
  if (booking && booking.status === "paid" && booking.amountPence - booking.refundedPence <= 0) {
    await cancelFreeTickets(deps, staff, bookingRef, reason);
    return undefined;
  }
  const { refund } = await recordRefund(deps.db, {
    bookingRef,
    key: `cancel:${bookingRef}`,
    reason,
    quantity: "everything",
    staff,
    now: deps.clock.now(),
    audit: false,
  });
  return refund.status === "pending" ? attemptRefund(deps, refund.id) : refund;
}

/**
 * A booking whose tickets were all free, for an event cancelled: there is no money to give back, so
 * no refund is made, but its tickets stop being valid and every type's tickets count as given back
 * (decision 082), the booking is marked refunded (of nothing), and the buyer is told, in one
 * transaction with the booking locked; then the e-mail is sent.
 */
async function cancelFreeTickets(deps: RefundDeps, staff: Refunder, bookingRef: string, reason: string) {
  const now = deps.clock.now();
  const told = await deps.db.transaction(async (tx) => {
    const [booking] = await tx.select().from(bookings).where(eq(bookings.bookingRef, bookingRef)).for("update");
    // Another process got there first.
    if (!booking || booking.status !== "paid" || booking.amountPence - booking.refundedPence > 0) return false;
    const [event] = await tx.select().from(events).where(eq(events.id, booking.eventId));
    await tx.update(tickets).set({ isValid: false }).where(eq(tickets.bookingRef, bookingRef));
    await tx
      .update(bookingItems)
      .set({ refunded: sql`${bookingItems.quantity}` })
      .where(eq(bookingItems.bookingRef, bookingRef));
    await tx.update(bookings).set({ status: "refunded", updatedAt: now }).where(eq(bookings.bookingRef, bookingRef));
    await tx.insert(bookingHistory).values({
      bookingRef,
      status: "refunded",
      note: `Its free tickets were cancelled with the event by ${staff.email}: ${reason}`,
      at: now,
    });
    const message = await eventCancelledNotice(
      {
        bookingRef,
        holderName: booking.holderName,
        email: booking.email,
        event: { name: event!.name, eventDate: event!.eventDate },
        charity: deps.charity,
      },
      { reason, amountPence: 0 },
    );
    await queueMail(tx, { kind: "event-cancelled", about: bookingRef, message, now });
    await announceChange(tx, "availability");
    return true;
  });
  if (told && deps.outbox) await deps.outbox.deliver("event-cancelled", bookingRef);
}

/** Asks again for every booking refund still pending, oldest first. */
export async function retryPendingRefunds(deps: RefundDeps, shouldStop: () => boolean = () => false) {
  const pending = await deps.db
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.status, "pending"), isNotNull(refunds.bookingRef)))
    .orderBy(asc(refunds.createdAt));
  for (const { id } of pending) {
    if (shouldStop()) return;
    await attemptRefund(deps, id);
  }
}
