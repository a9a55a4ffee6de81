import { and, asc, eq, gt, isNotNull, isNull, lte, not, sql } from "drizzle-orm";
import { inTurn, type Queryable } from "~/infra/db/database.server";
import { answersJsonOf } from "~/infra/db/questions.server";
import { itemsJsonOf } from "~/infra/db/booking-items.server";
import { holdCounts, holdSettlingMs, seatsOf, takenByType } from "~/infra/db/seats.server";
import { isUuid } from "~/lib/ids";
import { selectBuiltOnce, slot } from "~/infra/db/built-once.server";
import type { BookedItem } from "~/lib/booking-items";
import type { ShownAnswer } from "~/lib/questions";
import { mailInsert, queueMail } from "~/infra/email/outbox.server";
import { changeNotice } from "~/infra/live/changes.server";
import { writeTogether } from "~/infra/db/write-together.server";
import type { Payment, PaymentDeps } from "~/infra/payments/provider.server";
import { bookingHistory, bookingItems, bookings, events, tickets, ticketTypes } from "~db/schema";
import { releaseUnpaidHold } from "./release.server";
import { historyInsert, recordHistory } from "./history.server";
import { ticketPriceOf } from "./pricing";
import { bookingReceipt, receiptItems, refundNotice } from "./receipt.server";
import { giftJsonOf, giftNotPaid, giftOfBooking, giftPaidWrite, type GiftSaid } from "./gift.server";
import { codeStillFits, promoOfBooking } from "./promo-codes.server";

// Settling a booking's payment (decisions 006, 028, 030): a ticket only from what the provider
// says, exactly once; a payment whose seats have gone refunded; holds that ended asked about.

type BookingRow = typeof bookings.$inferSelect;
type EventRow = typeof events.$inferSelect;

/**
 * A booking, its event, its tickets by type, its gift at checkout and its answers, and how many of
 * the event's types are on sale, in one statement built once (decision 099).
 */
const settlementReading = selectBuiltOnce((db: Queryable) =>
  db
    .select({
      booking: bookings,
      event: events,
      items: itemsJsonOf(bookings.bookingRef),
      gift: giftJsonOf(bookings.bookingRef),
      answers: answersJsonOf(bookings.bookingRef),
      visibleTypes: sql<number>`(select count(*)::int from ${ticketTypes} where ${and(
        eq(ticketTypes.eventId, bookings.eventId),
        not(ticketTypes.hidden),
        isNull(ticketTypes.offSaleAt),
      )})`,
    })
    .from(bookings)
    .leftJoin(events, eq(events.id, bookings.eventId))
    .where(eq(bookings.bookingRef, slot("bookingRef"))),
);

/** A booking's row and its event's, locked in one statement built once (decision 099). */
const bookingAndEventLock = selectBuiltOnce((db: Queryable) =>
  db
    .select({ booking: bookings, event: events })
    .from(bookings)
    .innerJoin(events, eq(events.id, bookings.eventId))
    .where(eq(bookings.bookingRef, slot("bookingRef")))
    .for("update"),
);

/**
 * Whether a booking whose hold no longer counts still fits at `now`: its seats among the event's,
 * its tickets of each type within the type's own cap (what others have sold and hold, itself left
 * out), and its promo code within its maximum uses. A type's sale window or early-bird closing does
 * not refuse it: the buyer chose it while it was on sale (decision 078).
 */
async function stillFits(tx: Queryable, booking: BookingRow, event: EventRow, now: Date) {
  const [seats, taken, items] = await inTurn([
    () => seatsOf(tx, booking.eventId, now, booking.bookingRef),
    () => takenByType(tx, booking.eventId, now, booking.bookingRef),
    () =>
      tx
        .select({ quantity: bookingItems.quantity, cap: ticketTypes.cap, typeId: ticketTypes.id })
        .from(bookingItems)
        .innerJoin(ticketTypes, eq(ticketTypes.id, bookingItems.ticketTypeId))
        .where(eq(bookingItems.bookingRef, booking.bookingRef)),
  ]);
  if (booking.seats > event.totalAvailableTickets - seats.sold - seats.held) return false;
  const typesFit = items.every((item) => {
    const other = taken.get(item.typeId) ?? { sold: 0, held: 0 };
    return item.cap === null || item.quantity <= item.cap - other.sold - other.held;
  });
  // Its promo code's uses, as the checkout counts them (decision 084): locked after the event's.
  return typesFit && (await codeStillFits(tx, booking, now));
}

/** What the first reading of a booking brings with it, for the receipt and the confirmation page. */
export interface BookingRead {
  event: EventRow | null;
  items: BookedItem[];
  gift: GiftSaid | null;
  answers: ShownAnswer[];
  /** The event's ticket types a buyer can choose now (not hidden, not off sale). */
  visibleTypes: number;
}

export type Settlement =
  /** `read`: the booking's event, tickets and gift as read with it, when they were (the confirmation page needs no other reading). */
  | { outcome: "paid"; booking: BookingRow; firstTime: boolean; read?: BookingRead }
  | { outcome: "refunded"; booking: BookingRow }
  /** The payment is to be given back, but the provider has not yet done it: asked again later. */
  | { outcome: "refunding"; booking: BookingRow }
  | { outcome: "pending"; booking: BookingRow; status: string }
  | { outcome: "unknown" };

/**
 * How much later than the end of its hold a payment may have succeeded and still count as made in
 * time: the provider's clock and ours may differ a little, and a card confirmed in the hold's last
 * seconds is charged a moment later (decision 028).
 */
export const paymentGraceMs = 60_000;

// Why a paid booking is being refunded: written in its history, and read back for the buyer's notice.
const refundReasons = {
  cancelled: "Paid after the event was cancelled",
  full: "Paid after the hold expired, and the seats had gone",
  "confirmed-late": "Paid in time, but confirmed after the hold had run out, and the seats had gone",
} as const;
type RefundReason = keyof typeof refundReasons;

/**
 * Settles a booking from what the payment provider says (never from the visitor's URL). Called by
 * the webhook and by the confirmation page, in either order, any number of times: the booking row
 * is locked, so the ticket and its receipt are created exactly once. The hold is judged at the
 * moment the locks are held (a `now` read earlier could let a payment keep seats that a checkout
 * took meanwhile). While the hold still counts (its own time, then its settling window: seat
 * counting keeps a hold with a payment for `holdSettlingMs` after its end, decision 030), its seats
 * are the buyer's, so a payment made in time and confirmed late keeps them. After that, the payment
 * keeps its seats if there are still enough, and is refunded otherwise, whether it was made in time
 * (by the provider's clock: `succeededAt`) and reached us very late, or made late; the buyer is
 * told which. The ticket and receipt carry the time the provider says the buyer paid. `known` is
 * the payment as the provider has just given it (the webhook), so it need not be asked twice.
 */
export async function settleBooking(deps: PaymentDeps, bookingRef: string, known?: Payment): Promise<Settlement> {
  if (!isUuid(bookingRef)) return { outcome: "unknown" };
  // The booking, its event, its tickets by type (which never change while it is unpaid), its gift
  // at checkout (paid by the same payment, decision 085) and its answers, in one statement
  // (decision 088): for the receipt, drawn before the locks. A booking already settled (the
  // confirmation page, a webhook after the return page) is answered from this one reading.
  const [found] = await settlementReading(deps.db, { bookingRef });
  const booking = found?.booking;
  const free = booking?.provider === freeProvider && booking.amountPence === 0;
  if (!found || !booking || (!booking.providerPaymentId && !free)) return { outcome: "unknown" };
  const { items, gift, answers } = found;
  const read: BookingRead = { event: found.event, items, gift, answers, visibleTypes: found.visibleTypes };
  if (booking.status === "paid") return { outcome: "paid", booking, firstTime: false, read };
  if (booking.status === "refunded") return { outcome: "refunded", booking };
  if (booking.status === "refund_pending") return finishRefund(deps, booking);

  const payment = free
    ? freePayment(booking)
    : known?.id === booking.providerPaymentId
      ? known
      : await deps.payments.retrievePayment(booking.providerPaymentId!);
  if (payment.status !== "succeeded") return { outcome: "pending", booking, status: payment.status };
  const paying = booking.amountPence + (gift?.amountPence ?? 0);
  if (payment.amountPence !== paying || payment.metadata.booking_ref !== bookingRef) {
    console.error(`Payment ${payment.id} does not match booking ${bookingRef}: not issuing tickets.`);
    return { outcome: "pending", booking, status: "amount_mismatch" };
  }

  const promo = await promoOfBooking(deps.db, booking); // Its promo code, named on the receipt (decision 084).
  // The receipt (its QR code is a PNG to draw) is made before the locks are taken, from the
  // booking and event as they are now: every checkout of the event waits while its row is locked.
  // Under the locks it is used only if what it says is still so, and made again otherwise.
  const eventNow = found?.event;
  const receiptOf = (row: BookingRow, event: EventRow, paidAt: Date) => {
    const details = {
      ...detailsOf(row, event, deps),
      items: receiptItems(items, { quantity: row.quantity, pricePence: ticketPriceOf(row) }),
      paidAt,
      card: payment.card,
      gift: gift && { amountPence: gift.amountPence, giftAidWording: gift.wording },
      answers,
      promo,
    };
    const { charity: _charity, ...said } = details;
    return { said: JSON.stringify(said), make: () => bookingReceipt(details) };
  };
  const early = eventNow && receiptOf(booking, eventNow, paidAtOf(payment, deps.clock.now()));
  const prepared = early && { said: early.said, message: await early.make() };

  const result = await deps.db.transaction(async (tx) => {
    // The booking's row and its event's, locked in one statement (the booking's first, as the
    // query names them): a checkout counting seats waits for us, or has already counted.
    const [row] = await bookingAndEventLock(tx, { bookingRef });
    const locked = row?.booking;
    const event = row?.event;
    if (!locked) return { outcome: "unknown" } as const;
    if (locked.status === "paid") return { outcome: "paid", booking: locked, firstTime: false } as const;
    if (locked.status === "refunded" || locked.status === "refund_pending")
      return { outcome: "refund", booking: locked } as const;
    // Read under the locks: a checkout counting seats now waits for us, or has already counted.
    const now = deps.clock.now();
    const paidAt = paidAtOf(payment, now);
    // Its seats are still its own while the hold runs, and after it while the payment was settling.
    const holdValid = holdCounts(locked, now);
    const inTime = paidAt.getTime() <= locked.holdExpiresAt.getTime() + paymentGraceMs;
    // A payment for an event cancelled meanwhile is given back, however many seats are free.
    const cancelled = event!.cancelledAt !== null;
    const fits = !cancelled && (holdValid || (await stillFits(tx, locked, event!, now)));
    if (!fits) {
      const reason: RefundReason = cancelled ? "cancelled" : inTime ? "confirmed-late" : "full";
      const [updated] = await tx
        .update(bookings)
        .set({ status: "refund_pending", updatedAt: now })
        .where(eq(bookings.bookingRef, bookingRef))
        .returning();
      // The buyer is told only once the provider has given the money back (finishRefund).
      await recordHistory(tx, bookingRef, "refund_pending", refundReasons[reason], now);
      return { outcome: "refund", booking: updated! } as const;
    }
    const receiptNow = receiptOf(locked, event!, paidAt);
    const receipt = prepared?.said === receiptNow.said ? prepared.message : await receiptNow.make();
    // The card is kept for the receipt (and a receipt sent again): brand and last four digits only.
    const card = {
      ...(payment.card?.brand !== undefined && { cardBrand: payment.card.brand }),
      ...(payment.card?.last4 !== undefined && { cardLast4: payment.card.last4 }),
    };
    const paid = { status: "paid", paidAt, ...card, updatedAt: now };
    // The booking paid, its ticket, its history, its receipt and the notice: one statement, while
    // the booking's and the event's rows are locked.
    await writeTogether(
      tx,
      [
        tx.update(bookings).set(paid).where(eq(bookings.bookingRef, bookingRef)),
        tx.insert(tickets).values({
          ticketHolderName: locked.holderName,
          email: locked.email,
          eventId: locked.eventId,
          bookingRef,
          isValid: true,
          // The places it admits at the door: a table of eight is one ticket and eight seats.
          quantity: locked.seats,
          dateSold: paidAt,
        }),
        historyInsert(
          tx,
          bookingRef,
          "paid",
          locked.holdExpiresAt > now
            ? "Payment succeeded"
            : holdValid
              ? inTime
                ? "Payment succeeded in time, confirmed after the hold's end while its seats were kept for it"
                : "Payment succeeded after the hold's end, while its seats were kept for its payment"
              : inTime
                ? "Payment succeeded in time, confirmed after the hold had run out; seats were still free"
                : "Payment succeeded after the hold expired; seats were still free",
          now,
        ),
        mailInsert(tx, { kind: "booking-receipt", about: bookingRef, message: receipt, now }),
        ...(gift
          ? [giftPaidWrite(tx, bookingRef, { paidAt, card: payment.card, providerPaymentId: payment.id, now })]
          : []),
      ],
      changeNotice("availability"),
    );
    const updated: BookingRow = { ...locked, ...paid };
    return { outcome: "paid", booking: updated, firstTime: true, read: { ...read, event: event! } } as const;
  });
  if (result.outcome === "refund") return finishRefund(deps, result.booking);
  return result;
}

/**
 * A booking whose tickets are all free (decision 078) is taken by no payment provider: it is settled
 * at once, as if paid when it was held, and gets its ticket and receipt like any other.
 */
export const freeProvider = "free";

function freePayment(booking: BookingRow): Payment {
  return {
    id: `free-${booking.bookingRef}`,
    clientSecret: "",
    status: "succeeded",
    amountPence: 0,
    currency: "gbp",
    metadata: { booking_ref: booking.bookingRef },
    card: null,
    succeededAt: booking.createdAt,
  };
}

/** When the buyer paid, as the provider says; never later than `now` (a provider clock ahead of ours). */
function paidAtOf(payment: Payment, now: Date): Date {
  return payment.succeededAt && payment.succeededAt < now ? payment.succeededAt : now;
}

function detailsOf(booking: BookingRow, event: EventRow, deps: Pick<PaymentDeps, "charity">) {
  return {
    bookingRef: booking.bookingRef,
    holderName: booking.holderName,
    email: booking.email,
    quantity: booking.quantity,
    amountPence: booking.amountPence,
    event: { name: event.name, eventDate: event.eventDate, location: event.location },
    charity: deps.charity,
  };
}

/**
 * Gives back a payment that cannot have its seats (always with the same idempotency key, so it is
 * made once however often this runs). Only when the provider has made the refund is the booking
 * marked refunded and the buyer's notice queued, in one transaction; if the provider fails, the
 * booking stays `refund_pending`, nobody is told anything untrue, and the refunds job asks again.
 */
async function finishRefund(deps: PaymentDeps, booking: BookingRow): Promise<Settlement> {
  try {
    await deps.payments.refundPayment(booking.providerPaymentId!, `refund-${booking.bookingRef}`);
  } catch (error) {
    console.error(`The refund of booking ${booking.bookingRef} is waiting for the payment provider:`, error);
    return { outcome: "refunding", booking };
  }
  const done = await deps.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(bookings).where(eq(bookings.bookingRef, booking.bookingRef)).for("update");
    if (locked?.status !== "refund_pending") return locked ?? booking;
    const now = deps.clock.now();
    const [row] = await tx
      .update(bookings)
      .set({ status: "refunded", refundedPence: locked.amountPence, updatedAt: now })
      .where(eq(bookings.bookingRef, booking.bookingRef))
      .returning();
    await recordHistory(tx, booking.bookingRef, "refunded", "The payment was refunded in full", now);
    await giftNotPaid(tx, booking.bookingRef, "refunded", now); // Its gift went back with it (decision 085).
    const [event] = await tx.select().from(events).where(eq(events.id, locked.eventId));
    const [why] = await tx
      .select({ note: bookingHistory.note })
      .from(bookingHistory)
      .where(and(eq(bookingHistory.bookingRef, booking.bookingRef), eq(bookingHistory.status, "refund_pending")));
    const reason = (Object.keys(refundReasons) as RefundReason[]).find((r) => refundReasons[r] === why?.note) ?? "full";
    const gift = await giftOfBooking(tx, booking.bookingRef);
    const given = {
      ...detailsOf(locked, event!, deps),
      amountPence: locked.amountPence + (gift?.donation.amountPence ?? 0),
    };
    const notice = await refundNotice(given, reason);
    await queueMail(tx, { kind: "booking-refunded", about: booking.bookingRef, message: notice, now });
    return row!;
  });
  return { outcome: "refunded", booking: done };
}

/**
 * Asks again for the refunds of late payments the provider did not make at the first asking
 * (`refund_pending` bookings), oldest first: run by the refunds job, at start-up and on its timer.
 */
export async function finishLatePaymentRefunds(deps: PaymentDeps, shouldStop: () => boolean = () => false) {
  const waiting = await deps.db
    .select()
    .from(bookings)
    .where(eq(bookings.status, "refund_pending"))
    .orderBy(bookings.updatedAt);
  for (const booking of waiting) {
    if (shouldStop()) return;
    await finishRefund(deps, booking);
  }
}

// Payment states in which the provider is still working on a payment the buyer has made.
const inFlightStatuses = new Set(["processing", "requires_action", "requires_capture"]);

/**
 * The expired holds' sweep (decision 030): every hold whose own time is over but whose seats are
 * still kept for its payment (the settling window) is asked about at the provider. A payment that
 * succeeded is settled now, with its seats (the late webhook or return finds it done); one the
 * buyer never made is cancelled at the provider and its seats freed, as at the hold's end before;
 * one still in flight keeps its seats until it ends or the window does. Run by the expired-holds
 * job every few seconds; a provider that cannot be asked leaves the holds to the window.
 */
export async function settleExpiredHolds(
  deps: PaymentDeps,
  shouldStop: () => boolean = () => false,
): Promise<{ settled: number; released: number; inFlight: number }> {
  const now = deps.clock.now();
  const settling = await deps.db
    .select({ bookingRef: bookings.bookingRef, providerPaymentId: bookings.providerPaymentId })
    .from(bookings)
    .where(
      and(
        eq(bookings.status, "held"),
        isNotNull(bookings.providerPaymentId),
        lte(bookings.holdExpiresAt, now),
        gt(bookings.holdExpiresAt, new Date(now.getTime() - holdSettlingMs)),
      ),
    )
    .orderBy(asc(bookings.holdExpiresAt));
  const done = { settled: 0, released: 0, inFlight: 0 };
  for (const hold of settling) {
    if (shouldStop()) break;
    try {
      const payment = await deps.payments.retrievePayment(hold.providerPaymentId!);
      if (payment.status === "succeeded") {
        const settled = await settleBooking(deps, hold.bookingRef, payment);
        if (settled.outcome === "paid") done.settled++;
      } else if (inFlightStatuses.has(payment.status)) {
        done.inFlight++;
      } else if ((await releaseUnpaidHold(deps, hold.bookingRef, "expired")) === "released") {
        done.released++;
      }
    } catch (error) {
      // The provider could not be asked: the hold keeps its seats until its window ends.
      console.error(
        `The expired hold of booking ${hold.bookingRef} could not be settled yet:`,
        (error as Error).message,
      );
    }
  }
  return done;
}
