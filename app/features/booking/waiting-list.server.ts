import crypto from "node:crypto";
import { and, asc, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { recordAudit } from "~/infra/audit/audit.server";
import type { Database, Queryable } from "~/infra/db/database.server";
import { countedHolds, eventWithSeats, holdCounts, lockEventStock, takenByType } from "~/infra/db/seats.server";
import { composeLetter } from "~/infra/email/letter.server";
import { mailInsert } from "~/infra/email/outbox.server";
import { announceChange } from "~/infra/live/changes.server";
import { providerUnavailable, type Charity, type PaymentDeps } from "~/infra/payments/provider.server";
import type { RateLimiter } from "~/infra/rate-limit.server";
import { AppError } from "~/lib/errors";
import { isUuid } from "~/lib/ids";
import { londonDate, londonTime } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";
import { typeStanding, type TicketTypeRules, type TypeTaken } from "~/lib/ticket-types";
import { bookingItems, bookings, events, ticketTypes, waitingListEntries, waitingListOffers } from "~db/schema";
import { answersOfHeldBooking, checkBookingAnswers } from "./answers.server";
import { historyInsert, recordHistory } from "./history.server";
import { itemsTotalPence } from "./pricing";
import type { StartedBooking } from "./schema";
import { freeProvider, settleBooking } from "./settlement.server";
import { anyType, joinedMessage, validateWaitingList, waitingListMessages } from "./waiting-list";

// The waiting list (docs/decisions/086-a-waiting-list.md). An offer holds its seats as a held
// booking with no payment yet, whose hold ends when the offer does: every count of seats and of
// types sees them taken, with no change to how seats are counted. Offers are made under the
// event's lock (lockEventStock), so two processes matching at once make one offer.

/** The e-mail offer's outbox kind and what it is about. */
const offerMailKind = "waiting-list-offer" as const;

export function offerTokenHash(token: string) {
  return crypto.createHash("sha256").update(token).digest("hex");
}

// ---------------------------------------------------------------------------------------------
// Joining

interface JoinDeps {
  db: Database;
  clock: { now(): Date };
  limits: { waitingListJoins: RateLimiter };
}

/** An event's types a visitor may wait for: visible and not off sale. */
const waitable = (type: TicketTypeRules) => !type.hidden && !type.offSaleAt;

/**
 * Puts a person on an event's waiting list, or updates their entry (same address, same event):
 * an entry still waiting or offered keeps its place; one whose offer passed on, that was booked or
 * removed, joins again at the end. Refused when the event is closed or what is asked can be
 * bought now. A filled-in honeypot (`website`) is thanked and stores nothing.
 */
export async function joinWaitingList(
  deps: JoinDeps,
  eventId: string,
  input: Record<string, unknown>,
  clientAddress: string,
): Promise<{ message: string; entryId: string | null; updated: boolean }> {
  const now = deps.clock.now();
  const limit = await deps.limits.waitingListJoins.count(clientAddress, now);
  if (!limit.allowed) {
    throw new AppError("too-many-requests", "Too many requests from your address. Please wait and try again.", {
      headers: { "Retry-After": String(limit.retryAfterSeconds) },
    });
  }
  const checked = validateWaitingList(input);
  if (!checked.ok) throw new AppError("invalid", waitingListMessages.summary, { fields: checked.errors });
  const found = isUuid(eventId) ? await eventWithSeats(deps.db, eventId, now) : undefined;
  if (!found) throw new AppError("not-found", "There is no such event.");
  const { event, seats } = found;
  if (event.cancelledAt) throw new AppError("conflict", waitingListMessages.cancelled);
  if (event.ticketSaleExpiry <= now) throw new AppError("conflict", waitingListMessages.closed);
  if (event.ticketCostPence === null) throw new AppError("conflict", waitingListMessages.notSold);
  const { name, email, tickets, ticketTypeId } = checked.data;
  const types = (await deps.db.select().from(ticketTypes).where(eq(ticketTypes.eventId, event.id))).filter(waitable);
  const chosen = ticketTypeId === anyType ? null : types.find((type) => type.id === ticketTypeId);
  if (ticketTypeId !== anyType && !chosen) {
    throw new AppError("invalid", waitingListMessages.type, { fields: { ticketTypeId: waitingListMessages.type } });
  }
  // What is asked can be bought now: the booking page is the place for it.
  const taken = await takenByType(deps.db, event.id, now);
  const seatsLeft = seats.total - seats.sold - seats.held;
  const buyable = (chosen ? [chosen] : types).some(
    (type) => typeStanding(type, taken.get(type.id) ?? { sold: 0, held: 0 }, seatsLeft, now).left >= tickets,
  );
  if (buyable) throw new AppError("conflict", waitingListMessages.onSale);
  if (typeof input.website === "string" && input.website.trim() !== "") {
    return {
      message: joinedMessage({
        eventName: event.name,
        tickets,
        typeName: chosen?.name ?? null,
        updated: false,
        hours: event.waitingListOfferHours,
      }),
      entryId: null,
      updated: false,
    };
  }
  const address = email.toLowerCase();
  const keeps = sql`${waitingListEntries.state} in ('waiting', 'offered')`;
  const [row] = await deps.db
    .insert(waitingListEntries)
    .values({
      eventId: event.id,
      ticketTypeId: chosen?.id ?? null,
      name,
      email: address,
      tickets,
      joinedAt: now,
      state: "waiting",
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [waitingListEntries.eventId, waitingListEntries.email],
      set: {
        name,
        tickets,
        ticketTypeId: chosen?.id ?? null,
        updatedAt: now,
        state: sql`case when ${keeps} then ${waitingListEntries.state} else 'waiting' end`,
        joinedAt: sql`case when ${keeps} then ${waitingListEntries.joinedAt} else excluded.joined_at end`,
      },
    })
    .returning({ id: waitingListEntries.id, joinedAt: waitingListEntries.joinedAt });
  const updated = row!.joinedAt.getTime() !== now.getTime();
  return {
    message: joinedMessage({
      eventName: event.name,
      tickets,
      typeName: chosen?.name ?? null,
      updated,
      hours: event.waitingListOfferHours,
    }),
    entryId: row!.id,
    updated,
  };
}

// ---------------------------------------------------------------------------------------------
// Offers

export interface OfferDeps {
  db: Database;
  clock: { now(): Date };
  charity: Charity;
  payments: { name: string };
  outbox: { seal(words: Record<string, string>): string; deliverDue?(): Promise<void> };
}

/**
 * Brings an event's open offers up to date and offers the seats free now to the people waiting,
 * in order: the first whose request fits (their type, or any type on sale) gets an offer that holds
 * those seats until the event's offer time is over, never past the end of the sale; one whose
 * request does not fit keeps their place while the next who fits is offered. Nothing is offered
 * once the sale has closed. All under the event's lock: two processes matching at once make one
 * offer. Answers how many offers were made.
 */
export async function offerFreedSeats(deps: OfferDeps, eventId: string): Promise<number> {
  if (!isUuid(eventId)) return 0;
  const now = deps.clock.now();
  const made = await deps.db.transaction(async (tx) => {
    const stock = await lockEventStock(tx, eventId, now);
    if (!stock) return 0;
    const ended = await endOffers(tx, eventId, now);
    const { event } = stock;
    if (event.cancelledAt || event.ticketSaleExpiry <= now || event.ticketCostPence === null) {
      // A cancelled event's open offers are withdrawn; nothing is offered once the sale has closed.
      const withdrawn = event.cancelledAt ? await withdrawOffers(tx, { eventId }, "The event was cancelled", now) : 0;
      if (ended + withdrawn > 0) await announceChange(tx, "availability");
      return 0;
    }
    const waiting = await tx
      .select()
      .from(waitingListEntries)
      .where(and(eq(waitingListEntries.eventId, eventId), eq(waitingListEntries.state, "waiting")))
      .orderBy(asc(waitingListEntries.joinedAt), asc(waitingListEntries.id));
    let seatsLeft = stock.seats.total - stock.seats.sold - stock.seats.held;
    const types = stock.types.map(({ row, taken }) => ({
      type: row as TicketTypeRules,
      taken: { ...taken } as TypeTaken,
    }));
    let offers = 0;
    for (const entry of waiting) {
      if (seatsLeft <= 0) break;
      const candidates = types.filter(({ type }) =>
        entry.ticketTypeId ? type.id === entry.ticketTypeId : waitable(type),
      );
      const fits = candidates.find(
        ({ type, taken }) => typeStanding(type, taken, seatsLeft, now).left >= entry.tickets,
      );
      // Too many for what is free (or their type is not on sale): they keep their place.
      if (!fits) continue;
      const hours = event.waitingListOfferHours;
      const expiresAt = new Date(
        Math.min(
          now.getTime() + hours * 3_600_000,
          event.ticketSaleExpiry.getTime(),
          fits.type.saleUntil?.getTime() ?? Number.POSITIVE_INFINITY,
        ),
      );
      await makeOffer(tx, deps, { event, entry, type: fits.type, expiresAt, now });
      seatsLeft -= entry.tickets * fits.type.seatsPerTicket;
      fits.taken.held += entry.tickets;
      offers++;
    }
    if (offers > 0 || ended > 0) await announceChange(tx, "availability");
    return offers;
  });
  if (made > 0) void deps.outbox.deliverDue?.();
  return made;
}

/**
 * Ends the event's open offers that are over: paid (accepted, the entry booked), or whose hold no
 * longer counts (ran out: the entry passed on for good, its unpaid hold cancelled). In the
 * caller's transaction, under the event's lock.
 */
async function endOffers(tx: Queryable, eventId: string, now: Date): Promise<number> {
  const open = await tx
    .select({
      id: waitingListOffers.id,
      entryId: waitingListOffers.entryId,
      bookingRef: waitingListOffers.bookingRef,
      status: bookings.status,
      holdExpiresAt: bookings.holdExpiresAt,
      providerPaymentId: bookings.providerPaymentId,
    })
    .from(waitingListOffers)
    .innerJoin(bookings, eq(bookings.bookingRef, waitingListOffers.bookingRef))
    .where(and(eq(waitingListOffers.eventId, eventId), eq(waitingListOffers.state, "open")));
  let ended = 0;
  for (const offer of open) {
    if (["paid", "refund_pending", "refunded"].includes(offer.status)) {
      await tx
        .update(waitingListOffers)
        .set({ state: "accepted", endedAt: now })
        .where(eq(waitingListOffers.id, offer.id));
      await tx
        .update(waitingListEntries)
        .set({ state: "booked", updatedAt: now })
        .where(and(eq(waitingListEntries.id, offer.entryId), eq(waitingListEntries.state, "offered")));
      continue;
    }
    if (holdCounts(offer, now)) continue;
    await tx
      .update(waitingListOffers)
      .set({ state: "expired", endedAt: now })
      .where(eq(waitingListOffers.id, offer.id));
    await tx
      .update(waitingListEntries)
      .set({ state: "passed", updatedAt: now })
      .where(and(eq(waitingListEntries.id, offer.entryId), eq(waitingListEntries.state, "offered")));
    if (offer.status === "held" && !offer.providerPaymentId) {
      await tx
        .update(bookings)
        .set({ status: "cancelled", updatedAt: now })
        .where(and(eq(bookings.bookingRef, offer.bookingRef), eq(bookings.status, "held")));
      await recordHistory(tx, offer.bookingRef, "cancelled", "The waiting-list offer ran out", now);
    }
    ended++;
  }
  return ended;
}

/**
 * Withdraws open offers (an entry's, or an event's): their unpaid holds are cancelled. A payment
 * already under way keeps its hold until it ends, as any checkout's does.
 */
async function withdrawOffers(
  tx: Queryable,
  of: { entryId: string } | { eventId: string },
  note: string,
  now: Date,
): Promise<number> {
  const open = await tx
    .update(waitingListOffers)
    .set({ state: "withdrawn", endedAt: now })
    .where(
      and(
        "entryId" in of ? eq(waitingListOffers.entryId, of.entryId) : eq(waitingListOffers.eventId, of.eventId),
        eq(waitingListOffers.state, "open"),
      ),
    )
    .returning({ bookingRef: waitingListOffers.bookingRef, entryId: waitingListOffers.entryId });
  for (const offer of open) {
    const [cancelled] = await tx
      .update(bookings)
      .set({ status: "cancelled", updatedAt: now })
      .where(
        and(eq(bookings.bookingRef, offer.bookingRef), eq(bookings.status, "held"), isNull(bookings.providerPaymentId)),
      )
      .returning({ ref: bookings.bookingRef });
    if (cancelled) await recordHistory(tx, offer.bookingRef, "cancelled", note, now);
  }
  return open.length;
}

async function makeOffer(
  tx: Queryable,
  deps: OfferDeps,
  offer: {
    event: typeof events.$inferSelect;
    entry: typeof waitingListEntries.$inferSelect;
    type: TicketTypeRules;
    expiresAt: Date;
    now: Date;
  },
) {
  const { event, entry, type, expiresAt, now } = offer;
  const token = crypto.randomBytes(32).toString("base64url");
  const tokenHash = offerTokenHash(token);
  const bookingRef = crypto.randomUUID();
  const seats = entry.tickets * type.seatsPerTicket;
  const amountPence = itemsTotalPence([{ pricePence: type.pricePence, quantity: entry.tickets }]);
  await tx.insert(bookings).values({
    bookingRef,
    eventId: event.id,
    holderName: entry.name,
    email: entry.email,
    quantity: entry.tickets,
    seats,
    amountPence,
    status: "held",
    holdExpiresAt: expiresAt,
    provider: amountPence === 0 ? freeProvider : deps.payments.name,
    firstHeldAt: now,
    createdAt: now,
    updatedAt: now,
  });
  await tx.insert(bookingItems).values({
    bookingRef,
    ticketTypeId: type.id,
    quantity: entry.tickets,
    pricePence: type.pricePence,
    seatsPerTicket: type.seatsPerTicket,
  });
  await historyInsert(
    tx,
    bookingRef,
    "held",
    `${entry.tickets} × ${type.name} (${seats} ${seats === 1 ? "seat" : "seats"}) offered from the waiting list, held until ${expiresAt.toISOString()}`,
    now,
  );
  const [row] = await tx
    .insert(waitingListOffers)
    .values({
      entryId: entry.id,
      eventId: event.id,
      ticketTypeId: type.id,
      tickets: entry.tickets,
      seats,
      tokenHash,
      bookingRef,
      state: "open",
      createdAt: now,
      expiresAt,
    })
    .returning({ id: waitingListOffers.id });
  await tx
    .update(waitingListEntries)
    .set({ state: "offered", updatedAt: now })
    .where(eq(waitingListEntries.id, entry.id));
  const website = deps.charity.website.replace(/\/$/, "");
  await mailInsert(tx, {
    kind: offerMailKind,
    about: row!.id,
    message: await offerMail({
      to: { name: entry.name, address: entry.email },
      event,
      typeName: type.name,
      tickets: entry.tickets,
      amountPence,
      expiresAt,
      payLink: `${website}/book-event/${event.id}?offer={{token}}`,
      declineLink: `${website}/waiting-list/decline?offer={{token}}`,
      charity: deps.charity,
    }),
    sealed: deps.outbox.seal({ token }),
    now,
  });
}

function offerMail(offer: {
  to: { name: string; address: string };
  event: { name: string; eventDate: Date };
  typeName: string;
  tickets: number;
  amountPence: number;
  expiresAt: Date;
  payLink: string;
  declineLink: string;
  charity: Charity;
}) {
  const what = `${offer.tickets} ${offer.typeName} ${offer.tickets === 1 ? "ticket" : "tickets"}`;
  const until = `${londonDate(offer.expiresAt)} at ${londonTime(offer.expiresAt)}`;
  return composeLetter({
    to: offer.to,
    subject: `Tickets for ${offer.event.name} are yours to book`,
    title: `Your waiting-list offer: ${offer.event.name}`,
    greeting: `Dear ${offer.to.name},`,
    charity: offer.charity,
    blocks: [
      {
        paragraph: `Tickets have come back for ${offer.event.name} (${londonDate(offer.event.eventDate)} at ${londonTime(offer.event.eventDate)}), and you are next on the waiting list. We are holding ${what} for you until ${until}.`,
      },
      {
        rows: [
          ["Tickets", what],
          ["Total", formatPounds(offer.amountPence)],
          ["Held until", until],
        ],
      },
      { paragraph: [{ link: "Book these tickets", href: offer.payLink }] },
      {
        paragraph: [
          "If you no longer want them, please ",
          { link: "decline this offer", href: offer.declineLink },
          " so that the next person on the list can have them.",
        ],
      },
      { paragraph: "If you do nothing, the offer ends at that time and passes to the next person." },
    ],
  });
}

/** An offer as its link finds it: open, with its booking and event; undefined when the token matches none. */
export async function offerByToken(db: Queryable, token: string, now: Date) {
  if (!token || token.length > 100) return undefined;
  const [row] = await db
    .select({
      offer: waitingListOffers,
      booking: bookings,
      typeName: ticketTypes.name,
      pricePence: bookingItems.pricePence,
      cancelledAt: events.cancelledAt,
      ticketSaleExpiry: events.ticketSaleExpiry,
    })
    .from(waitingListOffers)
    .innerJoin(events, eq(events.id, waitingListOffers.eventId))
    .innerJoin(bookings, eq(bookings.bookingRef, waitingListOffers.bookingRef))
    .innerJoin(ticketTypes, eq(ticketTypes.id, waitingListOffers.ticketTypeId))
    .innerJoin(
      bookingItems,
      and(eq(bookingItems.bookingRef, waitingListOffers.bookingRef), eq(bookingItems.ticketTypeId, ticketTypes.id)),
    )
    .where(eq(waitingListOffers.tokenHash, offerTokenHash(token)));
  if (!row) return undefined;
  const open =
    row.offer.state === "open" &&
    row.offer.expiresAt > now &&
    row.booking.status === "held" &&
    holdCounts(row.booking, now) &&
    !row.cancelledAt &&
    row.ticketSaleExpiry > now;
  return { ...row, open };
}

/** What the booking page shows of an offer (nothing secret: the link's holder sees their own offer). */
export interface OfferForPage {
  eventId: string;
  name: string;
  email: string;
  typeName: string;
  /** The offer's type: its questions asked per attendee are asked of its seats. */
  ticketTypeId: string;
  tickets: number;
  pricePence: number;
  amountPence: number;
  expiresAt: string;
}

export async function offerForPage(db: Queryable, token: string, now: Date): Promise<OfferForPage | null> {
  const found = await offerByToken(db, token, now);
  if (!found?.open) return null;
  return {
    eventId: found.offer.eventId,
    name: found.booking.holderName,
    email: found.booking.email,
    typeName: found.typeName,
    ticketTypeId: found.offer.ticketTypeId,
    tickets: found.offer.tickets,
    pricePence: found.pricePence,
    amountPence: found.booking.amountPence,
    expiresAt: found.offer.expiresAt.toISOString(),
  };
}

const unpaidStatuses = new Set(["requires_payment_method", "requires_confirmation"]);

/**
 * Starts paying for an offer through its link: exactly the tickets it holds, at the amount held.
 * The offer's own hold becomes the checkout (no new count: the seats are already the buyer's), with
 * a payment asked for once (the same payment however often the page is opened). Free tickets are
 * booked at once.
 */
export async function startOfferBooking(deps: PaymentDeps, token: string, answers?: unknown): Promise<StartedBooking> {
  const now = deps.clock.now();
  const found = await offerByToken(deps.db, token, now);
  if (!found?.open) throw new AppError("conflict", waitingListMessages.offerGone);
  const { booking } = found;
  const holdExpiresAt = booking.holdExpiresAt.toISOString();
  // The event's questions, asked of the offer's tickets as the checkout asks them (decision 083):
  // refused before any payment is asked for; stored with the booking held for the offer.
  const checked = await checkBookingAnswers(deps.db, {
    eventId: booking.eventId,
    name: booking.holderName,
    email: booking.email,
    tickets: { [found.offer.ticketTypeId]: found.offer.tickets },
    answers,
  });
  const storeAnswers = () => answersOfHeldBooking(deps.db, booking.bookingRef, checked, booking.seats);
  if (booking.amountPence === 0) {
    await storeAnswers();
    const settled = await settleBooking(deps, booking.bookingRef);
    if (settled.outcome !== "paid") throw new AppError("conflict", waitingListMessages.offerGone);
    return { bookingRef: booking.bookingRef, clientSecret: "", amountPence: 0, holdExpiresAt, free: true };
  }
  try {
    if (booking.providerPaymentId) {
      const payment = await deps.payments.retrievePayment(booking.providerPaymentId);
      if (!unpaidStatuses.has(payment.status))
        throw new AppError("conflict", "This offer's payment is already under way.");
      await storeAnswers();
      return {
        bookingRef: booking.bookingRef,
        clientSecret: payment.clientSecret,
        amountPence: booking.amountPence,
        holdExpiresAt,
      };
    }
    await storeAnswers();
    const payment = await deps.payments.createPayment({
      amountPence: booking.amountPence,
      description: `Waiting-list offer - booking ${booking.bookingRef}`,
      metadata: { booking_ref: booking.bookingRef, event_id: booking.eventId },
      receiptEmail: booking.email,
      idempotencyKey: `booking-${booking.bookingRef}`,
    });
    await deps.db
      .update(bookings)
      .set({ providerPaymentId: payment.id, updatedAt: deps.clock.now() })
      .where(and(eq(bookings.bookingRef, booking.bookingRef), isNull(bookings.providerPaymentId)));
    return {
      bookingRef: booking.bookingRef,
      clientSecret: payment.clientSecret,
      amountPence: booking.amountPence,
      holdExpiresAt,
    };
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw providerUnavailable(error, `starting the payment of offer booking ${booking.bookingRef}`);
  }
}

/**
 * Declines an offer through its link: its seats go at once to the next person who fits, never back
 * to this one. A payment already made or under way cannot be declined.
 */
export async function declineOffer(deps: OfferDeps & Pick<PaymentDeps, "payments">, token: string): Promise<void> {
  const now = deps.clock.now();
  const found = await offerByToken(deps.db, token, now);
  if (!found?.open) throw new AppError("conflict", waitingListMessages.offerGone);
  const { booking, offer } = found;
  if (booking.providerPaymentId) {
    // Cancelled at the provider first, so it can no longer take money for seats passed on.
    const payment = await deps.payments.retrievePayment(booking.providerPaymentId);
    if (payment.status !== "canceled") {
      if (!unpaidStatuses.has(payment.status))
        throw new AppError("conflict", "This offer's payment is already under way.");
      await deps.payments.cancelPayment(payment.id);
    }
  }
  const done = await deps.db.transaction(async (tx) => {
    await lockEventStock(tx, offer.eventId, now);
    const [declined] = await tx
      .update(waitingListOffers)
      .set({ state: "declined", endedAt: now })
      .where(and(eq(waitingListOffers.id, offer.id), eq(waitingListOffers.state, "open")))
      .returning({ id: waitingListOffers.id });
    if (!declined) return false;
    await tx
      .update(waitingListEntries)
      .set({ state: "passed", updatedAt: now })
      .where(eq(waitingListEntries.id, offer.entryId));
    await tx
      .update(bookings)
      .set({ status: "cancelled", updatedAt: now })
      .where(and(eq(bookings.bookingRef, booking.bookingRef), eq(bookings.status, "held")));
    await recordHistory(tx, booking.bookingRef, "cancelled", "The waiting-list offer was declined", now);
    await announceChange(tx, "availability");
    return true;
  });
  if (!done) throw new AppError("conflict", waitingListMessages.offerGone);
  await offerFreedSeats(deps, offer.eventId);
}

/**
 * The server's periodic look at every waiting list: for each event with people waiting and seats
 * free (read without a lock), or an open offer that has been paid or run out, `offerFreedSeats`.
 */
export async function sweepWaitingLists(deps: OfferDeps, shouldStop: () => boolean = () => false): Promise<number> {
  const now = deps.clock.now();
  const ended = await deps.db
    .selectDistinct({ eventId: waitingListOffers.eventId })
    .from(waitingListOffers)
    .innerJoin(bookings, eq(bookings.bookingRef, waitingListOffers.bookingRef))
    .where(and(eq(waitingListOffers.state, "open"), or(ne(bookings.status, "held"), sql`not (${countedHolds(now)})`)));
  const waiting = await deps.db
    .selectDistinct({ eventId: waitingListEntries.eventId })
    .from(waitingListEntries)
    .innerJoin(events, eq(events.id, waitingListEntries.eventId))
    .where(
      and(
        eq(waitingListEntries.state, "waiting"),
        sql`${events.ticketSaleExpiry} > ${now}`,
        isNull(events.cancelledAt),
      ),
    );
  const due = new Set(ended.map((row) => row.eventId));
  for (const { eventId } of waiting) {
    if (due.has(eventId)) continue;
    const found = await eventWithSeats(deps.db, eventId, now);
    if (found && found.seats.total - found.seats.sold - found.seats.held > 0) due.add(eventId);
  }
  let made = 0;
  for (const eventId of due) {
    if (shouldStop()) break;
    made += await offerFreedSeats(deps, eventId);
  }
  return made;
}

// ---------------------------------------------------------------------------------------------
// Staff

export interface WaitingListRow {
  id: string;
  place: number | null;
  name: string;
  email: string;
  tickets: number;
  typeName: string | null;
  /** Whether the type waited for can no longer be bought (ended, off sale): shown, not skipped. */
  typeEnded: boolean;
  joinedAt: string;
  state: string;
  offers: { id: string; state: string; tickets: number; typeName: string; createdAt: string; expiresAt: string }[];
}

/** An event's waiting list in order (those still waiting numbered), with each entry's offers. */
export async function waitingListOf(db: Queryable, eventId: string, now: Date): Promise<WaitingListRow[]> {
  if (!isUuid(eventId)) return [];
  const entries = await db
    .select({ entry: waitingListEntries, type: ticketTypes })
    .from(waitingListEntries)
    .leftJoin(ticketTypes, eq(ticketTypes.id, waitingListEntries.ticketTypeId))
    .where(eq(waitingListEntries.eventId, eventId))
    .orderBy(asc(waitingListEntries.joinedAt), asc(waitingListEntries.id));
  const offers = entries.length
    ? await db
        .select({ offer: waitingListOffers, typeName: ticketTypes.name, status: bookings.status })
        .from(waitingListOffers)
        .innerJoin(ticketTypes, eq(ticketTypes.id, waitingListOffers.ticketTypeId))
        .innerJoin(bookings, eq(bookings.bookingRef, waitingListOffers.bookingRef))
        .where(
          inArray(
            waitingListOffers.entryId,
            entries.map((row) => row.entry.id),
          ),
        )
        .orderBy(asc(waitingListOffers.createdAt))
    : [];
  let place = 0;
  return entries.map(({ entry, type }) => ({
    id: entry.id,
    place: entry.state === "waiting" || entry.state === "offered" ? ++place : null,
    name: entry.name,
    email: entry.email,
    tickets: entry.tickets,
    typeName: type?.name ?? null,
    typeEnded: Boolean(type && (type.offSaleAt || type.closedAt || (type.saleUntil && type.saleUntil <= now))),
    joinedAt: entry.joinedAt.toISOString(),
    state: entry.state,
    offers: offers
      .filter((row) => row.offer.entryId === entry.id)
      .map((row) => ({
        id: row.offer.id,
        // A paid offer reads as paid at once, before the sweep records it.
        state: row.offer.state === "open" && row.status === "paid" ? "accepted" : row.offer.state,
        tickets: row.offer.tickets,
        typeName: row.typeName,
        createdAt: row.offer.createdAt.toISOString(),
        expiresAt: row.offer.expiresAt.toISOString(),
      })),
  }));
}

/**
 * Staff take a person off the list (audit logged, naming no one): an open offer is withdrawn and
 * its seats passed on to the next person who fits.
 */
export async function removeFromWaitingList(
  deps: OfferDeps,
  staff: { id: string; email: string },
  eventId: string,
  entryId: string,
): Promise<void> {
  if (!isUuid(eventId) || !isUuid(entryId)) throw new AppError("not-found", "There is no such person on this list.");
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await lockEventStock(tx, eventId, now);
    const [entry] = await tx
      .update(waitingListEntries)
      .set({ state: "removed", updatedAt: now })
      .where(
        and(
          eq(waitingListEntries.id, entryId),
          eq(waitingListEntries.eventId, eventId),
          ne(waitingListEntries.state, "removed"),
        ),
      )
      .returning({ id: waitingListEntries.id });
    if (!entry) throw new AppError("not-found", "There is no such person on this list.");
    const withdrawn = await withdrawOffers(tx, { entryId }, "Staff withdrew the waiting-list offer", now);
    await recordAudit(tx, {
      staff,
      action: "waiting-list.removed",
      subject: `event:${eventId}`,
      summary: `Removed a person from the waiting list${withdrawn ? " and withdrew their offer" : ""}`,
      at: now,
    });
    await announceChange(tx, "availability");
  });
  await offerFreedSeats(deps, eventId);
}

/**
 * Straight after something that may give seats back (a refund, a changed cap): the event's waiting
 * list is offered them now rather than at the next sweep. Never fails the caller: what it could not
 * do, the sweep does.
 */
async function anyoneWaiting(db: OfferDeps["db"], eventId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: waitingListEntries.id })
    .from(waitingListEntries)
    .where(and(eq(waitingListEntries.eventId, eventId), eq(waitingListEntries.state, "waiting")))
    .limit(1);
  return row !== undefined;
}

export async function offerSeatsAfter(
  deps: OfferDeps,
  what: { eventId: string } | { bookingRef: string },
): Promise<void> {
  try {
    let eventId = "eventId" in what ? what.eventId : undefined;
    if ("bookingRef" in what && isUuid(what.bookingRef)) {
      const [row] = await deps.db
        .select({ eventId: bookings.eventId })
        .from(bookings)
        .where(eq(bookings.bookingRef, what.bookingRef));
      eventId = row?.eventId;
    }
    // Nobody waiting, nothing to offer: the event's lock is not taken (a rush releases many holds).
    // Offers that ended meanwhile are closed by the periodic sweep.
    if (eventId && (await anyoneWaiting(deps.db, eventId))) await offerFreedSeats(deps, eventId);
  } catch (error) {
    console.error("The waiting list could not be offered the seats yet:", (error as Error).message);
  }
}
