import { timingSafeEqual } from "node:crypto";
import { and, asc, eq, gt, isNotNull, lte, sql, sum } from "drizzle-orm";
import type { Queryable } from "~/infra/db/database.server";
import { eventWithSeats, holdCounts, holdSettlingMs, seatsOf, type SeatCount } from "~/infra/db/seats.server";
import { AppError } from "~/lib/errors";
import { reservedMessage, soldOutMessage } from "~/lib/seat-holds";
import { isUuid } from "~/lib/ids";
import { mailInsert, queueMail } from "~/infra/email/outbox.server";
import { announceChange, changeNotice } from "~/infra/live/changes.server";
import { writeTogether } from "~/infra/db/write-together.server";
import { providerUnavailable, type Payment, type PaymentDeps } from "~/infra/payments/provider.server";
import { bookingHistory, bookings, events, tickets } from "../../../db/schema";
import { checkHoldLimits } from "./hold-limits.server";
import { bookingFeePence, bookingTotalPence } from "./pricing";
import { refundsOfBooking } from "./refunds.server";
import { bookingReceipt, refundNotice } from "./receipt.server";
import {
  bookingMessages,
  onlyLeftMessage,
  validateTicketInformation,
  type OwnAttempt,
  type ReleasedHold,
  type ReleaseReason,
  type StartedBooking,
} from "./schema";

/** How long seats stay held while the visitor pays. */
export const holdMinutes = 15;
/**
 * The longest a visitor's consecutive attempts for the same seats may hold them (each new attempt
 * replacing the last): after it the hold runs out however often it is renewed (decision 026).
 */
export const maxHeldMinutes = 30;

type BookingRow = typeof bookings.$inferSelect;

/** Seats taken for an event at `now`: valid tickets, plus unexpired holds (other than `except`). */
async function seatsTaken(tx: Queryable, eventId: string, now: Date, except?: string) {
  const { sold, held } = await seatsOf(tx, eventId, now, except);
  return sold + held;
}

async function record(tx: Queryable, bookingRef: string, status: string, note: string, at: Date) {
  await historyInsert(tx, bookingRef, status, note, at);
}

/** `record`'s insert, not yet run: for writes sent together (writeTogether). */
function historyInsert(tx: Queryable, bookingRef: string, status: string, note: string, at: Date) {
  return tx.insert(bookingHistory).values({ bookingRef, status, note, at });
}

type EventRow = typeof events.$inferSelect;

/**
 * Why a checkout of `quantity` seats for this event cannot start at `now`, with the answer the
 * visitor is given; undefined when it may. The one set of rules for the check under the event's
 * lock (startBooking) and the early one without it (checkoutRefusal).
 */
function eventRefusal(
  event: EventRow | undefined,
  seats: SeatCount | undefined,
  quantity: number,
  now: Date,
): AppError | undefined {
  if (!event || !seats) return new AppError("not-found", "There is no such event.");
  if (event.cancelledAt) return new AppError("conflict", "This event has been cancelled.");
  if (event.ticketSaleExpiry <= now) return new AppError("conflict", "Ticket sales for this event have closed.");
  if (event.ticketCostPence === null) {
    return new AppError("conflict", "Tickets for this event are not sold on this site.");
  }
  const remaining = event.totalAvailableTickets - seats.sold - seats.held;
  if (remaining <= 0) {
    // Seats in other people's unfinished checkouts may come back: say when, not "sold out".
    const soldOut = seats.sold >= event.totalAvailableTickets || !seats.heldUntil;
    return new AppError("conflict", soldOut ? soldOutMessage : reservedMessage(seats.heldUntil!));
  }
  if (quantity > remaining) {
    return new AppError("conflict", onlyLeftMessage(remaining), { fields: { quantity: onlyLeftMessage(remaining) } });
  }
  return undefined;
}

/**
 * The answer a checkout for this event would certainly get now, read without any lock: an event
 * that does not exist, is cancelled or closed, or has no seats left (sold, or all in other
 * people's checkouts) for `quantity`. Asked before the payment checks of decision 026, so that in a
 * rush the buyers who come too late are told at once, with one query, instead of solving a
 * challenge first (nothing is held or charged for them, so there is nothing to defend). A checkout
 * this lets through is counted again under the event's lock.
 */
export async function checkoutRefusal(
  db: Queryable,
  input: { eventId: string; quantity: number },
  now: Date,
): Promise<AppError | undefined> {
  const found = isUuid(input.eventId) ? await eventWithSeats(db, input.eventId, now) : undefined;
  return eventRefusal(found?.event, found?.seats, input.quantity, now);
}

/** What `checkoutRefusal` read of an event, and when. */
interface KnownSeats {
  found: Awaited<ReturnType<typeof eventWithSeats>>;
  /** The count of announced changes when it was read (`EarlyRefusals`). */
  changes: number;
  readAt: number;
}

/**
 * `checkoutRefusal` with the last reading of each event kept, for a rush (decision 042): a thousand
 * people starting checkouts for the same event in a few seconds are nine hundred reads of the same
 * counts. A reading answers again only while it is certainly still true: no change to seats or
 * events has been announced since (`changes`, the live feed's count of them, which covers every
 * process on the database), the first of its holds has not run out (holds run out without an
 * announcement), and it is less than `maxAgeMs` old, so that even a change nobody announced is
 * seen within a second. It only ever refuses or lets through to the locked count, as the reading
 * from the database would.
 */
export class EarlyRefusals {
  private readonly known = new Map<string, KnownSeats>();

  constructor(
    private readonly changes: () => number,
    private readonly limits = { maxAgeMs: 1_000, maxEvents: 1_000 },
  ) {}

  async refusal(db: Queryable, input: { eventId: string; quantity: number }, now: Date): Promise<AppError | undefined> {
    if (!isUuid(input.eventId)) return eventRefusal(undefined, undefined, input.quantity, now);
    let kept = this.known.get(input.eventId);
    if (!kept || !this.stillTrue(kept, now)) {
      // Counted before reading: a change announced while the query runs makes the reading old.
      const changes = this.changes();
      kept = { found: await eventWithSeats(db, input.eventId, now), changes, readAt: now.getTime() };
      this.known.delete(input.eventId);
      if (this.known.size >= this.limits.maxEvents) this.known.delete(this.known.keys().next().value!);
      this.known.set(input.eventId, kept);
    }
    return eventRefusal(kept.found?.event, kept.found?.seats, input.quantity, now);
  }

  private stillTrue(kept: KnownSeats, now: Date) {
    const heldUntil = kept.found?.seats.heldUntil;
    return (
      kept.changes === this.changes() &&
      now.getTime() - kept.readAt < this.limits.maxAgeMs &&
      now.getTime() >= kept.readAt &&
      (!heldUntil || now < heldUntil)
    );
  }
}

/**
 * Starts a payment attempt: checks the ticket information with the form's rules, holds the seats
 * (atomically: the event row is locked while seats are counted, so two checkouts can never take the
 * same last seat), then asks the provider for a payment of the amount computed here, never one
 * from the browser. A previous unfinished attempt by the same visitor (`replaces`, proved by its
 * client secret) is released first, so it does not stand in the way of this one.
 */
export async function startBooking(
  deps: PaymentDeps,
  input: {
    eventId: string;
    name: unknown;
    email: unknown;
    quantity: unknown;
    replaces?: OwnAttempt;
    /** The visitor's address as its keyed hash (app/infra/visitors.server.ts); null when unknown. */
    clientKey?: string | null;
  },
): Promise<StartedBooking> {
  const validation = validateTicketInformation(input);
  if (!validation.ok) throw new AppError("invalid", bookingMessages.summary, { fields: validation.errors });
  const { name, email, quantity } = validation.data;
  // A renewed hold keeps the time its first attempt was held, so renewing cannot hold seats for ever.
  let heldSince: Date | undefined;
  if (input.replaces) {
    const replaced = isUuid(input.replaces.bookingRef)
      ? (await deps.db.select().from(bookings).where(eq(bookings.bookingRef, input.replaces.bookingRef)))[0]
      : undefined;
    const released = await releaseOwnHold(deps, input.replaces, "replaced").catch((error) => {
      // Not worth refusing the new attempt for: the old hold runs out by itself.
      if (!(error instanceof AppError)) console.error("Releasing a replaced attempt failed:", error);
      return undefined;
    });
    const stillHeld = replaced?.status === "held" && replaced.holdExpiresAt > deps.clock.now();
    if (released === "released" && stillHeld && replaced.eventId === input.eventId) {
      heldSince = replaced.firstHeldAt ?? replaced.createdAt;
    }
  }
  const now = deps.clock.now();
  const clientKey = input.clientKey ?? null;

  const bookingRef = crypto.randomUUID();
  const { event, amountPence, holdExpiresAt } = await deps.db.transaction(async (tx) => {
    // The visitor's own holds first, under their locks (address, then e-mail): the limits count
    // holds across all events, which only the visitor's own checkouts add to. The event's row is
    // locked after, and only for the count and the insert, so checkouts of one event queue on it
    // for as short a time as possible (decision 037).
    await checkHoldLimits(tx, { email, clientKey }, quantity, now).catch(async (error: unknown) => {
      // An event that would refuse anyway says so rather than the limit, as it always has.
      if (!(error instanceof AppError)) throw error;
      throw (await checkoutRefusal(tx, { eventId: input.eventId, quantity }, now)) ?? error;
    });
    const [event] = isUuid(input.eventId)
      ? await tx.select().from(events).where(eq(events.id, input.eventId)).for("update")
      : [];
    const refusal = eventRefusal(event, event && (await seatsOf(tx, event.id, now)), quantity, now);
    if (refusal) throw refusal;
    if (!event || event.ticketCostPence === null) throw new AppError("not-found", "There is no such event.");
    const amountPence = bookingTotalPence(event.ticketCostPence, quantity);
    const firstHeldAt = heldSince ?? now;
    const holdExpiresAt = new Date(
      Math.min(now.getTime() + holdMinutes * 60_000, firstHeldAt.getTime() + maxHeldMinutes * 60_000),
    );
    // The booking, its history and the notice in one statement, while the event's row is locked.
    await writeTogether(
      tx,
      [
        tx.insert(bookings).values({
          clientKey,
          firstHeldAt,
          bookingRef,
          eventId: event.id,
          holderName: name,
          email,
          quantity,
          amountPence,
          status: "held",
          holdExpiresAt,
          provider: deps.payments.name,
          createdAt: now,
          updatedAt: now,
        }),
        historyInsert(tx, bookingRef, "held", `${quantity} seat(s) held until ${holdExpiresAt.toISOString()}`, now),
      ],
      changeNotice("availability"),
    );
    return { event, amountPence, holdExpiresAt };
  });

  try {
    const payment = await deps.payments.createPayment({
      amountPence,
      description: `${event.name} - booking ${bookingRef}`,
      metadata: { booking_ref: bookingRef, event_id: event.id },
      receiptEmail: email,
      idempotencyKey: `booking-${bookingRef}`,
    });
    await deps.db
      .update(bookings)
      .set({ providerPaymentId: payment.id, updatedAt: deps.clock.now() })
      .where(eq(bookings.bookingRef, bookingRef));
    return { bookingRef, clientSecret: payment.clientSecret, amountPence, holdExpiresAt: holdExpiresAt.toISOString() };
  } catch (error) {
    // No payment, no hold: the seats go back at once.
    const failedAt = deps.clock.now();
    await deps.db.transaction(async (tx) => {
      await tx
        .update(bookings)
        .set({ status: "failed", updatedAt: failedAt })
        .where(eq(bookings.bookingRef, bookingRef));
      await record(tx, bookingRef, "failed", `The payment provider refused: ${(error as Error).message}`, failedAt);
      await announceChange(tx, "availability");
    });
    throw providerUnavailable(error, `starting booking ${bookingRef}`);
  }
}

/** Why an unpaid attempt's seats go back, as its history tells staff. */
const releaseNotes: Record<ReleaseReason, string> = {
  declined: "The card was declined",
  quantity: "The visitor changed the number of tickets",
  left: "The visitor left the booking page",
  replaced: "Replaced by a new attempt",
  expired: "The hold ran out with no payment made",
};

/** What became of a hold asked to be released (ReleasedHold), the same however often it is asked. */
export type HoldRelease = ReleasedHold["status"];

// Payment states in which no money can have been taken, so the seats may go back.
const unpaidStatuses = new Set(["requires_payment_method", "requires_confirmation", "canceled"]);
const paidBookingStatuses = new Set(["paid", "refund_pending", "refunded"]);

const noSuchAttempt = () => new AppError("not-found", "There is no unpaid booking with this reference.");

function sameSecret(given: string, actual: string) {
  const a = Buffer.from(given);
  const b = Buffer.from(actual);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Gives an unpaid attempt's seats back at once (a declined card, a changed quantity, a visitor who
 * left), judged by what the provider says of its payment, never by the browser: a payment that
 * succeeded, or that the provider is still working on, keeps its hold. The payment is cancelled at
 * the provider before the seats go back, so it can no longer succeed for seats someone else may
 * take. (If it somehow still does, settling it is the ordinary late-payment path: the seats if they
 * are free, otherwise a refund.) `proof`, when given, must hold for the payment (the visitor's own
 * attempt); otherwise the attempt is treated as unknown.
 */
export async function releaseUnpaidHold(
  deps: Pick<PaymentDeps, "db" | "payments" | "clock">,
  bookingRef: string,
  reason: ReleaseReason,
  proof?: (payment: Payment) => boolean,
): Promise<HoldRelease> {
  if (!isUuid(bookingRef)) throw noSuchAttempt();
  const [booking] = await deps.db.select().from(bookings).where(eq(bookings.bookingRef, bookingRef));
  // Without a payment the visitor was never answered, so there is nothing they could release.
  if (!booking?.providerPaymentId) throw noSuchAttempt();
  const ask = (what: string, work: () => Promise<Payment>) =>
    work().catch((error) => {
      throw providerUnavailable(error, `${what} for booking ${bookingRef}`);
    });
  let payment = await ask("reading the payment", () => deps.payments.retrievePayment(booking.providerPaymentId!));
  if (proof && !proof(payment)) throw noSuchAttempt();
  if (paidBookingStatuses.has(booking.status)) return "paid";
  if (booking.status !== "held") return "released";
  if (payment.status !== "canceled") {
    if (!unpaidStatuses.has(payment.status)) return payment.status === "succeeded" ? "paid" : "in-progress";
    payment = await ask("cancelling the payment", async () => {
      await deps.payments.cancelPayment(payment.id);
      return deps.payments.retrievePayment(payment.id);
    });
    // Paid, or taken up by the provider, between our two questions: the hold stays.
    if (payment.status !== "canceled") return payment.status === "succeeded" ? "paid" : "in-progress";
  }
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(bookings)
      .set({ status: "cancelled", updatedAt: now })
      .where(and(eq(bookings.bookingRef, bookingRef), eq(bookings.status, "held")))
      .returning();
    if (!row) return;
    await record(tx, bookingRef, "cancelled", releaseNotes[reason], now);
    await announceChange(tx, "availability");
  });
  return "released";
}

/** The visitor's own attempt released, proved by its payment's client secret (which only their browser has). */
export function releaseOwnHold(
  deps: Pick<PaymentDeps, "db" | "payments" | "clock">,
  attempt: OwnAttempt,
  reason: ReleaseReason,
) {
  return releaseUnpaidHold(deps, attempt.bookingRef, reason, (payment) =>
    sameSecret(attempt.clientSecret, payment.clientSecret),
  );
}

export type Settlement =
  | { outcome: "paid"; booking: BookingRow; firstTime: boolean }
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
  // The booking and its event in one query: the event is for the receipt, drawn before the locks.
  const [found] = await deps.db
    .select({ booking: bookings, event: events })
    .from(bookings)
    .leftJoin(events, eq(events.id, bookings.eventId))
    .where(eq(bookings.bookingRef, bookingRef));
  const booking = found?.booking;
  if (!booking?.providerPaymentId) return { outcome: "unknown" };
  if (booking.status === "paid") return { outcome: "paid", booking, firstTime: false };
  if (booking.status === "refunded") return { outcome: "refunded", booking };
  if (booking.status === "refund_pending") return finishRefund(deps, booking);

  const payment =
    known?.id === booking.providerPaymentId ? known : await deps.payments.retrievePayment(booking.providerPaymentId);
  if (payment.status !== "succeeded") return { outcome: "pending", booking, status: payment.status };
  if (payment.amountPence !== booking.amountPence || payment.metadata.booking_ref !== bookingRef) {
    console.error(`Payment ${payment.id} does not match booking ${bookingRef}: not issuing tickets.`);
    return { outcome: "pending", booking, status: "amount_mismatch" };
  }

  // The receipt (its QR code is a PNG to draw) is made before the locks are taken, from the
  // booking and event as they are now: every checkout of the event waits while its row is locked.
  // Under the locks it is used only if what it says is still so, and made again otherwise.
  const eventNow = found?.event;
  const receiptOf = (row: BookingRow, event: EventRow, paidAt: Date) => {
    const details = {
      ...detailsOf(row, event, deps),
      ticketCostPence: (row.amountPence - bookingFeePence) / row.quantity,
      paidAt,
      card: payment.card,
    };
    const { charity: _charity, ...said } = details;
    return { said: JSON.stringify(said), make: () => bookingReceipt(details) };
  };
  const early = eventNow && receiptOf(booking, eventNow, paidAtOf(payment, deps.clock.now()));
  const prepared = early && { said: early.said, message: await early.make() };

  const result = await deps.db.transaction(async (tx) => {
    // The booking's row and its event's, locked in one statement (the booking's first, as the
    // query names them): a checkout counting seats waits for us, or has already counted.
    const [row] = await tx
      .select({ booking: bookings, event: events })
      .from(bookings)
      .innerJoin(events, eq(events.id, bookings.eventId))
      .where(eq(bookings.bookingRef, bookingRef))
      .for("update");
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
    const fits =
      !cancelled &&
      (holdValid ||
        locked.quantity <=
          event!.totalAvailableTickets - (await seatsTaken(tx, locked.eventId, now, locked.bookingRef)));
    if (!fits) {
      const reason: RefundReason = cancelled ? "cancelled" : inTime ? "confirmed-late" : "full";
      const [updated] = await tx
        .update(bookings)
        .set({ status: "refund_pending", updatedAt: now })
        .where(eq(bookings.bookingRef, bookingRef))
        .returning();
      // The buyer is told only once the provider has given the money back (finishRefund).
      await record(tx, bookingRef, "refund_pending", refundReasons[reason], now);
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
          quantity: locked.quantity,
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
      ],
      changeNotice("availability"),
    );
    const updated: BookingRow = { ...locked, ...paid };
    return { outcome: "paid", booking: updated, firstTime: true } as const;
  });
  if (result.outcome === "refund") return finishRefund(deps, result.booking);
  return result;
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
    await record(tx, booking.bookingRef, "refunded", "The payment was refunded in full", now);
    const [event] = await tx.select().from(events).where(eq(events.id, locked.eventId));
    const [why] = await tx
      .select({ note: bookingHistory.note })
      .from(bookingHistory)
      .where(and(eq(bookingHistory.bookingRef, booking.bookingRef), eq(bookingHistory.status, "refund_pending")));
    const reason = (Object.keys(refundReasons) as RefundReason[]).find((r) => refundReasons[r] === why?.note) ?? "full";
    const notice = await refundNotice(detailsOf(locked, event!, deps), reason);
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

/** One booking with its status history, for staff. */
export async function bookingWithHistory(db: Queryable, bookingRef: string) {
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
    refunds: await refundsOfBooking(db, bookingRef),
    history: history.map((h) => ({ ...h, at: h.at.toISOString() })),
  };
}

/** An event's ticket records with the specification's field names, for staff. */
export async function ticketsForEvent(db: Queryable, eventId: string) {
  if (!isUuid(eventId)) return [];
  const rows = await db.select().from(tickets).where(eq(tickets.eventId, eventId)).orderBy(tickets.dateSold);
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
  }));
}

/** Per event: tickets checked in at the door (by quantity) and money taken for paid bookings, net of refunds, for staff. */
export async function salesByEvent(db: Queryable): Promise<Record<string, { checkedIn: number; takenPence: number }>> {
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
