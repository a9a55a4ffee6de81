import { eq } from "drizzle-orm";
import type { Queryable } from "~/infra/db/database.server";
import { eventWithSeats, lockEventStock, type SeatCount } from "~/infra/db/seats.server";
import { AppError } from "~/lib/errors";
import { reservedMessage, soldOutMessage } from "~/lib/seat-holds";
import { isUuid } from "~/lib/ids";
import { announceChange, changeNotice } from "~/infra/live/changes.server";
import { writeTogether } from "~/infra/db/write-together.server";
import { providerUnavailable, type PaymentDeps } from "~/infra/payments/provider.server";
import { bookingItems, bookings, type events, ticketTypes } from "~db/schema";
import { closesForGood, typeStanding, type TicketTypeRules, type TypeTaken } from "~/lib/ticket-types";
import { answersInsert, checkBookingAnswers } from "./answers.server";
import { lockVisitorHolds } from "./hold-limits.server";
import { releaseOwnHold } from "./release.server";
import { freeProvider, settleBooking } from "./settlement.server";
import { historyInsert, recordHistory } from "./history.server";
import { itemsTotalPence } from "./pricing";
import { lockPromoCode, promoDiscount } from "./promo-codes.server";
import { giftNotPaid, giftOfCheckout, giftPence, giftWrites } from "./gift.server";
import {
  bookingMessages,
  onlyLeftMessage,
  ticketChoice,
  typeField,
  validateTicketInformation,
  type OwnAttempt,
  type StartedBooking,
} from "./schema";

// A checkout (decisions 006, 019, 026): the seats held under the event's lock while the visitor
// pays, and an unpaid attempt's seats given back. Settling the payment is settlement.server.ts.

/** How long seats stay held while the visitor pays. */
export const holdMinutes = 15;
/**
 * The longest a visitor's consecutive attempts for the same seats may hold them (each new attempt
 * replacing the last): after it the hold runs out however often it is renewed (decision 026).
 */
export const maxHeldMinutes = 30;

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
    /** Tickets of the event's one type; or `tickets`, by type (ticketChoice). */
    quantity?: unknown;
    tickets?: unknown;
    /** A promo code typed by the buyer (decision 084). */
    promoCode?: unknown;
    /** Answers to the event's questions (answers.server.ts, decision 083). */
    answers?: unknown;
    replaces?: OwnAttempt;
    /** The visitor's address as its keyed hash (app/infra/visitors.server.ts); null when unknown. */
    clientKey?: string | null;
    /** A gift at checkout: `donationAmount` and the Gift Aid fields (decision 085). */
    gift?: unknown;
  },
): Promise<StartedBooking> {
  // Questions (decision 083): the answers checked before anything is held, stored with the booking.
  const answers = await checkBookingAnswers(deps.db, input);
  const choice = ticketChoice(input);
  const validation = validateTicketInformation({ ...input, quantity: choice.ok ? choice.total : input.quantity });
  if (!validation.ok || !choice.ok) {
    const errors = { ...(validation.ok ? {} : validation.errors), ...(choice.ok ? {} : choice.errors) };
    throw new AppError("invalid", bookingMessages.summary, { fields: errors });
  }
  const { name, email, quantity } = validation.data;
  const gift = giftOfCheckout(input.gift); // A gift at checkout, checked before anything is held (decision 085).
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
    const visitorHolds = await lockVisitorHolds(tx, { email, clientKey }, now);
    try {
      // The tickets asked for are a floor on the seats they take: refused before the event's lock
      // when they alone pass a limit.
      visitorHolds.check(quantity, quantity);
    } catch (error) {
      // An event that would refuse anyway says so rather than the limit, as it always has.
      throw (await checkoutRefusal(tx, { eventId: input.eventId, quantity }, now)) ?? error;
    }
    const locked = isUuid(input.eventId) ? await lockEventStock(tx, input.eventId, now) : undefined;
    const event = locked?.event;
    const early = eventRefusal(event, locked?.seats, quantity, now);
    if (early) throw early;
    if (!event || !locked || event.ticketCostPence === null) throw new AppError("not-found", "There is no such event.");
    const stock: Stock = {
      seats: locked.seats,
      types: locked.types.map(({ row, taken }) => ({ type: row, taken })),
    };
    // Promo code (decision 084): its row locked after the event's, its uses counted, its prices applied.
    const promo = await lockPromoCode(tx, input.promoCode, event.id, now);
    const items = chosenItems(stock, choice.byType, quantity, now, promo?.reveals);
    const discount = promoDiscount(promo, items);
    const seats = items.reduce((sum, item) => sum + item.quantity * item.type.seatsPerTicket, 0);
    const refusal = eventRefusal(event, stock.seats, seats, now);
    if (refusal) throw refusal;
    visitorHolds.check(quantity, seats); // Holds counted in seats: a table of eight holds eight (decision 098).
    const amountPence = itemsTotalPence(
      items.map((item) => ({ pricePence: discount.priceOf(item), quantity: item.quantity })),
    );
    const firstHeldAt = heldSince ?? now;
    const holdExpiresAt = new Date(
      Math.min(now.getTime() + holdMinutes * 60_000, firstHeldAt.getTime() + maxHeldMinutes * 60_000),
    );
    // An early-bird price that this hold fills closes for good (decision 078).
    const filled = items.filter(
      (item) => closesForGood(item.type) && item.taken.sold + item.taken.held + item.quantity >= item.type.cap!,
    );
    // The booking, its tickets by type, its history and the notice in one statement, while the
    // event's row is locked.
    await writeTogether(
      tx,
      [
        tx.insert(bookings).values({
          clientKey,
          firstHeldAt,
          ...discount.columns,
          bookingRef,
          eventId: event.id,
          holderName: name,
          email,
          quantity,
          seats,
          amountPence,
          status: "held",
          holdExpiresAt,
          provider: amountPence + giftPence(gift) === 0 ? freeProvider : deps.payments.name,
          createdAt: now,
          updatedAt: now,
        }),
        tx.insert(bookingItems).values(
          items.map((item) => ({
            bookingRef,
            ticketTypeId: item.type.id,
            quantity: item.quantity,
            pricePence: discount.priceOf(item),
            seatsPerTicket: item.type.seatsPerTicket,
          })),
        ),
        historyInsert(
          tx,
          bookingRef,
          "held",
          `${items.map((item) => `${item.quantity} × ${item.type.name}`).join(", ")} (${seats} ${seats === 1 ? "seat" : "seats"}) held until ${holdExpiresAt.toISOString()}`,
          now,
        ),
        ...giftWrites(
          tx,
          gift,
          { bookingRef, name, email, clientKey, now, provider: deps.payments.name },
          deps.charity.name,
        ),
        ...answersInsert(tx, bookingRef, answers, seats),
        ...filled.map((item) =>
          tx.update(ticketTypes).set({ closedAt: now, updatedAt: now }).where(eq(ticketTypes.id, item.type.id)),
        ),
      ],
      changeNotice("availability"),
    );
    return { event, amountPence, holdExpiresAt };
  });

  const paying = amountPence + giftPence(gift); // The tickets and the gift, in one payment (decision 085).
  if (paying === 0) {
    // Nothing to pay: no card, the ticket and its receipt at once (decision 078).
    const settled = await settleBooking(deps, bookingRef);
    if (settled.outcome !== "paid")
      throw new AppError("conflict", "These tickets could not be booked. Please try again.");
    return { bookingRef, clientSecret: "", amountPence, holdExpiresAt: holdExpiresAt.toISOString(), free: true };
  }
  try {
    const payment = await deps.payments.createPayment({
      amountPence: paying,
      description: `${event.name} - booking ${bookingRef}`,
      metadata: { booking_ref: bookingRef, event_id: event.id },
      receiptEmail: email,
      idempotencyKey: `booking-${bookingRef}`,
    });
    await deps.db
      .update(bookings)
      .set({ providerPaymentId: payment.id, updatedAt: deps.clock.now() })
      .where(eq(bookings.bookingRef, bookingRef));
    return {
      bookingRef,
      clientSecret: payment.clientSecret,
      amountPence: paying,
      holdExpiresAt: holdExpiresAt.toISOString(),
    };
  } catch (error) {
    // No payment, no hold: the seats go back at once.
    const failedAt = deps.clock.now();
    await deps.db.transaction(async (tx) => {
      await tx
        .update(bookings)
        .set({ status: "failed", updatedAt: failedAt })
        .where(eq(bookings.bookingRef, bookingRef));
      await giftNotPaid(tx, bookingRef, "failed", failedAt);
      await recordHistory(
        tx,
        bookingRef,
        "failed",
        `The payment provider refused: ${(error as Error).message}`,
        failedAt,
      );
      await announceChange(tx, "availability");
    });
    throw providerUnavailable(error, `starting booking ${bookingRef}`);
  }
}

/** An event's seats and its types with what is taken of each, read under the event's lock. */
interface Stock {
  seats: SeatCount;
  types: { type: TicketTypeRules; taken: TypeTaken }[];
}

const noSuchType = "There is no such ticket type for this event.";
const ticketsWord = (count: number) => (count === 1 ? "ticket" : "tickets");

/**
 * The tickets asked for, each checked against its type's standing (decision 078): a type of this
 * event, visible, on sale, with that many left. Without `byType`, `total` tickets of the event's one
 * visible type. The event's seats for all of them together are counted by the caller.
 */
function chosenItems(
  stock: Stock,
  byType: Map<string, number> | null,
  total: number,
  now: Date,
  revealed: ReadonlySet<string> = new Set(),
) {
  const seatsLeft = stock.seats.total - stock.seats.sold - stock.seats.held;
  const visible = stock.types.filter(({ type }) => !type.hidden && !type.offSaleAt);
  let asked: [string, number][];
  if (byType) asked = [...byType];
  else if (visible.length === 1) asked = [[visible[0]!.type.id, total]];
  else {
    const message = "Choose how many tickets of each type you want.";
    throw new AppError("invalid", message, { fields: { quantity: message } });
  }
  return asked.map(([typeId, quantity]) => {
    const found = stock.types.find(({ type }) => type.id === typeId);
    // A hidden type is for the holders of a code that reveals it; to anyone else it does not exist.
    if (!found || (found.type.hidden && !revealed.has(found.type.id))) {
      throw new AppError("invalid", noSuchType, { fields: { [typeField(typeId)]: noSuchType } });
    }
    const { type, taken } = found;
    const standing = typeStanding(type, taken, seatsLeft, now);
    const refuse = (message: string) =>
      new AppError("conflict", message, {
        fields: { [typeField(type.id)]: message, ...(byType ? {} : { quantity: message }) },
      });
    if (standing.status === "off-sale" || standing.status === "ended") {
      throw refuse(`${type.name} tickets are no longer on sale.`);
    }
    if (standing.status === "not-yet") throw refuse(`${type.name} tickets are not on sale yet.`);
    if (standing.left === 0) throw refuse(`${type.name} tickets are sold out.`);
    if (quantity > standing.left) {
      throw refuse(`Only ${standing.left} ${type.name} ${ticketsWord(standing.left)} left.`);
    }
    return { type, taken, quantity };
  });
}
