import { and, asc, desc, eq, sql, sum } from "drizzle-orm";
import { recordAudit } from "~/infra/audit/audit.server";
import type { Queryable } from "~/infra/db/database.server";
import { queueMail } from "~/infra/email/outbox.server";
import type { PaymentDeps } from "~/infra/payments/provider.server";
import { readBookingCode, shortCode } from "~/lib/booking-code";
import { AppError } from "~/lib/errors";
import { validate } from "~/lib/forms";
import { isUuid } from "~/lib/ids";
import { itemsOfBooking } from "~/infra/db/booking-items.server";
import { answersOfBooking } from "~/infra/db/questions.server";
import type { ShownAnswer } from "~/lib/questions";
import {
  itemsLeft,
  plainTypeName,
  refundableOfType,
  refundOfTypePence,
  ticketsLeft,
  type BookedItem,
} from "~/lib/booking-items";
import { providerReference, type ProviderReference } from "~/lib/provider-reference";
import { personMatchSql, personQuery, personRankSql } from "~/lib/search-fold";
import { bookingHistory, bookings, checkIns, events, tickets } from "~db/schema";
import { historyLine, type HistoryLine } from "./history.server";
import { ticketPriceOf } from "./pricing";
import { bookingReceipt, receiptItems } from "./receipt.server";
import { giftOfBooking } from "./gift.server";
import { promoOfBooking } from "./promo-codes.server";
import { refundsOfBooking, type RefundDeps, type RefundView } from "./refunds.server";
import { bookingMessages, buyerSchema, type BuyerField } from "./schema";

// A booking as staff see and correct it (docs/decisions/015-bookings-and-refunds.md): found by its
// reference, receipt code, buyer's name or e-mail (decision 077), with its whole history; its
// buyer corrected; its receipt sent again.

/** One booking in a list of matches. */
export interface BookingMatch {
  bookingRef: string;
  code: string;
  name: string;
  email: string;
  quantity: number;
  status: string;
  eventName: string;
  eventDate: string;
  createdAt: string;
}

export type BookingSearch =
  | { outcome: "found"; bookingRef: string }
  | { outcome: "several"; by: "code" | "person"; matches: BookingMatch[]; more: boolean }
  | { outcome: "none"; message: string };

/** The most matches a search shows; past it, staff are asked to type more. */
export const bookingSearchLimit = 20;

const matchColumns = {
  bookingRef: bookings.bookingRef,
  name: bookings.holderName,
  email: bookings.email,
  quantity: bookings.quantity,
  status: bookings.status,
  eventName: events.name,
  eventDate: events.eventDate,
  createdAt: bookings.createdAt,
};

function asMatch(row: {
  bookingRef: string;
  name: string;
  email: string;
  quantity: number;
  status: string;
  eventName: string;
  eventDate: Date;
  createdAt: Date;
}): BookingMatch {
  return {
    ...row,
    code: shortCode(row.bookingRef),
    eventDate: row.eventDate.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * What staff typed in "Find a booking" (decision 077): a full reference or the receipt's code, else
 * a name (any part of it, accents and capitals ignored) or the start of an e-mail address. A code
 * that names one booking opens it; a name always lists, so staff see which event each is for.
 */
export async function findBooking({ db }: { db: Queryable }, typed: string): Promise<BookingSearch> {
  const text = typed.trim().slice(0, 200);
  const code = readBookingCode(text);
  if (code) {
    const where =
      code.kind === "reference"
        ? eq(bookings.bookingRef, code.bookingRef)
        : sql`replace(${bookings.bookingRef}::text, '-', '') like ${`${code.prefix}%`}`;
    // Unpaid attempts are left out of a short code's matches: staff look for bookings that were paid.
    const rows = await db
      .select(matchColumns)
      .from(bookings)
      .innerJoin(events, eq(events.id, bookings.eventId))
      .where(code.kind === "reference" ? where : and(where, sql`${bookings.status} <> 'held'`))
      .orderBy(asc(bookings.createdAt))
      .limit(bookingSearchLimit);
    if (rows.length === 1) return { outcome: "found", bookingRef: rows[0]!.bookingRef };
    if (rows.length > 1) return { outcome: "several", by: "code", matches: rows.map(asMatch), more: false };
  }
  const query = personQuery(text);
  if (!query) return { outcome: "none", message: "Type a name, an e-mail address or the booking code." };
  const rows = await db
    .select(matchColumns)
    .from(bookings)
    .innerJoin(events, eq(events.id, bookings.eventId))
    .where(and(personMatchSql(query, bookings.holderName, bookings.email), sql`${bookings.status} <> 'held'`))
    .orderBy(personRankSql(query, bookings.holderName), desc(events.eventDate), desc(bookings.createdAt))
    .limit(bookingSearchLimit + 1);
  if (rows.length === 0) {
    return {
      outcome: "none",
      message: `No booking matches “${text}”. Try the surname alone, the start of the e-mail address, or the 8-character code on the receipt (such as 3F9A-1C2B).`,
    };
  }
  return {
    outcome: "several",
    by: "person",
    matches: rows.slice(0, bookingSearchLimit).map(asMatch),
    more: rows.length > bookingSearchLimit,
  };
}

export interface StaffBooking {
  bookingRef: string;
  code: string;
  event: { id: string; name: string; eventDate: string; cancelledAt: string | null };
  name: string;
  email: string;
  /** Tickets bought, of every type. */
  quantity: number;
  /** Tickets still valid (not refunded). */
  validTickets: number;
  /** Places the valid tickets admit at the door (a table of eight is one ticket, eight places). */
  validPlaces: number;
  /** Places used at the door. */
  checkedIn: number;
  /** The most tickets one refund may give back now (of one type): valid, their places not used at the door. */
  refundable: number;
  amountPence: number;
  refundedPence: number;
  /** The price of one ticket, when the booking's tickets are of one type. */
  ticketPricePence: number;
  /**
   * The tickets of each type (decision 082): bought, refunded, the price and places of each, and how
   * many one refund may give back now.
   */
  items: StaffBookingItem[];
  status: string;
  hasTicket: boolean;
  history: HistoryLine[];
  /** The card payment's reference at its provider, named ("Stripe payment pi_…"). */
  paymentReference: ProviderReference | null;
  refunds: RefundView[];
  checkIns: { count: number; outcome: string; at: string; by: string }[];
  /** A donation added at checkout (decision 085): paid by the same payment, refunded only on its own. */
  gift: { donationId: string; amountPence: number; status: string; giftAid: boolean } | null;
  /** Its answers to the event's questions (decision 083). */
  answers: ShownAnswer[];
}

export interface StaffBookingItem extends BookedItem {
  refundable: number;
}

/** One booking with everything that happened to it, for its staff page; undefined when there is none. */
export async function staffBooking({ db }: { db: Queryable }, bookingRef: string): Promise<StaffBooking | undefined> {
  if (!isUuid(bookingRef)) return undefined;
  const [row] = await db
    .select({ booking: bookings, event: events, ticket: tickets })
    .from(bookings)
    .innerJoin(events, eq(events.id, bookings.eventId))
    .leftJoin(tickets, eq(tickets.bookingRef, bookings.bookingRef))
    .where(eq(bookings.bookingRef, bookingRef));
  if (!row) return undefined;
  const [history, refunds, doors, recorded, gift, answers] = await Promise.all([
    db
      .select({ status: bookingHistory.status, note: bookingHistory.note, at: bookingHistory.at })
      .from(bookingHistory)
      .where(eq(bookingHistory.bookingRef, bookingRef))
      .orderBy(asc(bookingHistory.at), asc(bookingHistory.id)),
    refundsOfBooking(db, bookingRef),
    db.select().from(checkIns).where(eq(checkIns.bookingRef, bookingRef)).orderBy(asc(checkIns.scannedAt)),
    itemsOfBooking(db, bookingRef),
    giftOfBooking(db, bookingRef),
    answersOfBooking(db, bookingRef),
  ]);
  const { booking, event, ticket } = row;
  const validPlaces = ticket?.isValid ? ticket.quantity : 0;
  const checkedIn = ticket?.checkedInCount ?? 0;
  // A booking with no tickets recorded by type (made before types) is of one plain type, one place each.
  const bought: BookedItem[] =
    recorded.length > 0
      ? recorded
      : [
          {
            ticketTypeId: "",
            name: plainTypeName,
            quantity: booking.quantity,
            refunded: booking.quantity - validPlaces,
            pricePence: ticketPriceOf(booking),
            seatsPerTicket: 1,
          },
        ];
  const items = bought.map((item) => {
    const most = booking.status === "paid" && validPlaces > 0 ? refundableOfType(item, validPlaces - checkedIn) : 0;
    // Free tickets give nothing back (unless they are the last, with the booking fee): not refundable.
    const money = most > 0 ? refundOfTypePence(booking, bought, item.ticketTypeId, most) : 0;
    return { ...item, refundable: money > 0 ? most : 0 };
  });
  const validTickets = validPlaces > 0 ? items.reduce((sum, item) => sum + ticketsLeft(item), 0) : 0;
  return {
    bookingRef,
    code: shortCode(bookingRef),
    event: {
      id: event.id,
      name: event.name,
      eventDate: event.eventDate.toISOString(),
      cancelledAt: event.cancelledAt?.toISOString() ?? null,
    },
    name: ticket?.ticketHolderName ?? booking.holderName,
    email: ticket?.email ?? booking.email,
    quantity: booking.quantity,
    validTickets,
    validPlaces,
    checkedIn,
    refundable: Math.max(0, ...items.map((item) => item.refundable)),
    amountPence: booking.amountPence,
    refundedPence: booking.refundedPence,
    ticketPricePence: items.length === 1 ? items[0]!.pricePence : ticketPriceOf(booking),
    items,
    status: booking.status,
    hasTicket: Boolean(ticket),
    history: history.map((h) => historyLine(h, booking.provider)),
    paymentReference: booking.providerPaymentId ? providerReference(booking.provider, booking.providerPaymentId) : null,
    refunds,
    checkIns: doors.map((c) => ({
      count: c.count,
      outcome: c.outcome,
      at: c.scannedAt.toISOString(),
      by: c.staffEmail,
    })),
    gift: gift
      ? {
          donationId: gift.donation.id,
          amountPence: gift.donation.amountPence,
          status: gift.donation.status,
          giftAid: gift.declaration !== null,
        }
      : null,
    answers,
  };
}

/**
 * Corrects the buyer's name and e-mail address (the booking form's rules and messages), on the
 * booking and its ticket, with a line in its history and an audit entry that names no one.
 */
export async function correctBuyer(
  { db }: { db: RefundDeps["db"] },
  staff: { id: string; email: string },
  bookingRef: string,
  input: { name: unknown; email: unknown },
  now: Date,
): Promise<{ name: string; email: string }> {
  if (!isUuid(bookingRef)) throw new AppError("not-found", "There is no such booking.");
  const validation = validate<typeof buyerSchema, BuyerField>(buyerSchema, input);
  if (!validation.ok) throw new AppError("invalid", bookingMessages.summary, { fields: validation.errors });
  const { name, email } = validation.data;
  await db.transaction(async (tx) => {
    const [booking] = await tx.select().from(bookings).where(eq(bookings.bookingRef, bookingRef)).for("update");
    if (!booking) throw new AppError("not-found", "There is no such booking.");
    const changed = [
      ...(booking.holderName !== name ? ["name"] : []),
      ...(booking.email !== email ? ["e-mail address"] : []),
    ];
    if (changed.length === 0) return;
    await tx
      .update(bookings)
      .set({ holderName: name, email, updatedAt: now })
      .where(eq(bookings.bookingRef, bookingRef));
    await tx.update(tickets).set({ ticketHolderName: name, email }).where(eq(tickets.bookingRef, bookingRef));
    const what = changed.join(" and ");
    await tx
      .insert(bookingHistory)
      .values({ bookingRef, status: booking.status, note: `The buyer's ${what} corrected by ${staff.email}`, at: now });
    await recordAudit(tx, {
      staff,
      action: "booking.buyer-corrected",
      subject: `booking:${bookingRef}`,
      summary: `Corrected the buyer's ${what}`,
      at: now,
    });
  });
  return { name, email };
}

/**
 * Sends the receipt again, to the buyer's current address, for the tickets still valid. Each
 * resend is its own e-mail (keyed by a fresh id); the id is returned for delivering it at once.
 */
export async function resendReceipt(
  deps: PaymentDeps,
  staff: { id: string; email: string },
  bookingRef: string,
): Promise<{ resendId: string; email: string }> {
  if (!isUuid(bookingRef)) throw new AppError("not-found", "There is no such booking.");
  const now = deps.clock.now();
  const resendId = crypto.randomUUID();
  const email = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ booking: bookings, event: events, ticket: tickets })
      .from(bookings)
      .innerJoin(events, eq(events.id, bookings.eventId))
      .leftJoin(tickets, eq(tickets.bookingRef, bookings.bookingRef))
      .where(eq(bookings.bookingRef, bookingRef));
    if (!row) throw new AppError("not-found", "There is no such booking.");
    const { booking, event, ticket } = row;
    if (!ticket) throw new AppError("conflict", "This booking has not been paid, so it has no receipt.");
    if (!ticket.isValid)
      throw new AppError("conflict", "This booking has been refunded in full, so it has no receipt to send.");
    // The tickets still valid, of each type: a refund of some has taken them off.
    const items = itemsLeft(await itemsOfBooking(tx, bookingRef));
    // A gift at checkout still held (not refunded) is listed apart, as on the first receipt (decision 085).
    const gift = await giftOfBooking(tx, bookingRef);
    const receipt = await bookingReceipt({
      bookingRef,
      holderName: ticket.ticketHolderName,
      email: ticket.email,
      quantity: items.length > 0 ? items.reduce((sum, item) => sum + item.quantity, 0) : ticket.quantity,
      amountPence: booking.amountPence - booking.refundedPence,
      items: receiptItems(items, { quantity: ticket.quantity, pricePence: ticketPriceOf(booking) }),
      event: { name: event.name, eventDate: event.eventDate, location: event.location },
      paidAt: booking.paidAt ?? ticket.dateSold,
      card: booking.cardBrand && booking.cardLast4 ? { brand: booking.cardBrand, last4: booking.cardLast4 } : null,
      gift:
        gift?.donation.status === "paid"
          ? { amountPence: gift.donation.amountPence, giftAidWording: gift.declaration?.wording ?? null }
          : null,
      charity: deps.charity,
      answers: await answersOfBooking(tx, bookingRef),
      promo: await promoOfBooking(tx, booking),
    });
    await queueMail(tx, { kind: "receipt-sent-again", about: resendId, message: receipt, now });
    await tx
      .insert(bookingHistory)
      .values({ bookingRef, status: booking.status, note: `Receipt sent again by ${staff.email}`, at: now });
    await recordAudit(tx, {
      staff,
      action: "booking.receipt-resent",
      subject: `booking:${bookingRef}`,
      summary: "Sent the receipt again to the buyer's current address",
      at: now,
    });
    return ticket.email;
  });
  return { resendId, email };
}

/** One booking with its status history, for staff. */
export async function bookingWithHistory({ db }: { db: Queryable }, bookingRef: string) {
  if (!isUuid(bookingRef)) return undefined;
  const [row] = await db.select().from(bookings).where(eq(bookings.bookingRef, bookingRef));
  if (!row) return undefined;
  const history = await db
    .select({ status: bookingHistory.status, note: bookingHistory.note, at: bookingHistory.at })
    .from(bookingHistory)
    .where(eq(bookingHistory.bookingRef, bookingRef))
    .orderBy(bookingHistory.at);
  return {
    bookingRef: row.bookingRef,
    eventId: row.eventId,
    ticketHolderName: row.holderName,
    email: row.email,
    quantity: row.quantity,
    amountPence: row.amountPence,
    status: row.status,
    holdExpiresAt: row.holdExpiresAt.toISOString(),
    provider: row.provider,
    providerPaymentId: row.providerPaymentId,
    createdAt: row.createdAt.toISOString(),
    paidAt: row.paidAt?.toISOString() ?? null,
    refundedPence: row.refundedPence,
    /** Its tickets of each type (decision 082): a refund of some names one of these `ticketTypeId`s. */
    ticketTypes: (await itemsOfBooking(db, bookingRef)).map((item) => ({
      ticketTypeId: item.ticketTypeId,
      name: item.name,
      quantity: item.quantity,
      refunded: item.refunded,
      pricePence: item.pricePence,
      seatsPerTicket: item.seatsPerTicket,
    })),
    refunds: await refundsOfBooking(db, bookingRef),
    history: history.map((h) => ({ ...h, at: h.at.toISOString() })),
  };
}

/** Per event: tickets checked in at the door (by quantity) and money taken for paid bookings, net of refunds, for staff. */
export async function salesByEvent({
  db,
}: {
  db: Queryable;
}): Promise<Record<string, { checkedIn: number; takenPence: number }>> {
  const [checkedIn, taken] = await Promise.all([
    db
      .select({ eventId: tickets.eventId, count: sum(tickets.checkedInCount).mapWith(Number) })
      .from(tickets)
      .where(eq(tickets.isValid, true))
      .groupBy(tickets.eventId),
    db
      .select({
        eventId: bookings.eventId,
        pence: sum(sql`${bookings.amountPence} - ${bookings.refundedPence}`).mapWith(Number),
      })
      .from(bookings)
      .where(eq(bookings.status, "paid"))
      .groupBy(bookings.eventId),
  ]);
  const result: Record<string, { checkedIn: number; takenPence: number }> = {};
  for (const row of checkedIn) result[row.eventId] = { checkedIn: row.count, takenPence: 0 };
  for (const row of taken)
    result[row.eventId] = { checkedIn: result[row.eventId]?.checkedIn ?? 0, takenPence: row.pence };
  return result;
}
