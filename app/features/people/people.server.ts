import crypto from "node:crypto";
import { and, asc, desc, eq, inArray, isNotNull, isNull, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { recordAudit } from "~/infra/audit/audit.server";
import { itemsOfBookings } from "~/infra/db/booking-items.server";
import { answersOfBookings, eraseAnswersOf } from "~/infra/db/questions.server";
import { inTurn, type Database, type Queryable } from "~/infra/db/database.server";
import { providerUnavailable, type PaymentProvider } from "~/infra/payments/provider.server";
import { ticketsInWords } from "~/lib/booking-items";
import { isMailKind, mailKey, mailKinds } from "~/infra/email/mail-kinds";
import { AppError } from "~/lib/errors";
import { londonDate } from "~/lib/london-time";
import { formatPounds } from "~/lib/money";
import {
  bookingAnswers,
  bookings,
  cardDeclines,
  checkIns,
  donations,
  events,
  giftAidDeclarations,
  offlinePayments,
  offlineMandates,
  offlineSubscriptions,
  outbox,
  regularGiftLinks,
  regularGifts,
  refunds,
  tickets,
  ticketTypes,
  volunteers,
  waitingListEntries,
} from "~db/schema";
import {
  holdsAnything,
  personMessages,
  recordCounts,
  validatePersonLookup,
  type ErasureCounts,
  type HeldEmail,
  type PersonData,
  type PersonDataExport,
} from "./schema";
import { plural } from "~/lib/plural";

// A person's data (docs/decisions/018-a-persons-data.md): everything the site holds about one
// e-mail address, read straight from each feature's tables, given to staff as a subject access
// export, and erased on request, keeping (anonymised) what charity and tax law make us keep.

type Staff = { id: string; email: string };

/** The name that replaces a person's on the records that are kept. */
export const erasedName = "Erased";

/** An address that can never receive mail (.invalid is reserved, RFC 2606), unique to the record. */
export function erasedAddress(recordId: string): string {
  return `erased-${recordId.replace(/-/g, "").slice(0, 12)}@erased.invalid`;
}

/** The audit log's subject for a person: a hash of the address, so the log names no one. */
export function personSubject(email: string): string {
  const digest = crypto.createHash("sha256").update(email.trim().toLowerCase()).digest("hex");
  return `person:${digest.slice(0, 16)}`;
}

/** The address staff typed, checked and lower-cased; an "invalid" AppError beside the field otherwise. */
export function lookupAddress(input: unknown): string {
  const validation = validatePersonLookup({ email: input ?? "" });
  if (!validation.ok) {
    throw new AppError("invalid", personMessages.email, { fields: { email: personMessages.email } });
  }
  return validation.data.email.toLowerCase();
}

function sameAddress(column: AnyPgColumn, address: string): SQL {
  return sql`lower(${column}) = ${address.trim().toLowerCase()}`;
}

/** An e-mail's recipient is the bare address or "Name <address>", as the receipts write it. */
function sentTo(address: string): SQL {
  const bare = address.trim().toLowerCase();
  const bracketed = `<${bare}>`;
  return sql`(lower(${outbox.recipient}) = ${bare} or right(lower(${outbox.recipient}), ${bracketed.length}) = ${bracketed})`;
}

const iso = (value: Date | null) => value?.toISOString() ?? null;

function emailStatus(row: typeof outbox.$inferSelect): HeldEmail["status"] {
  if (row.sentAt) return "sent";
  return row.attempts > 0 ? "retrying" : "waiting";
}

/** Everything held about the address (any case, trimmed), newest first in each list. */
export async function findPersonData({ db }: { db: Queryable }, email: string): Promise<PersonData> {
  const address = email.trim().toLowerCase();
  const giftRows = await db
    .select()
    .from(regularGifts)
    .where(sameAddress(regularGifts.email, address))
    .orderBy(desc(regularGifts.createdAt));
  const [bookingRows, ticketRows, donationRows, volunteerRows, emailRows, waitingRows] = await inTurn([
    () =>
      db
        .select({ booking: bookings, event: { name: events.name, eventDate: events.eventDate } })
        .from(bookings)
        .innerJoin(events, eq(events.id, bookings.eventId))
        .where(sameAddress(bookings.email, address))
        .orderBy(desc(bookings.createdAt)),
    () =>
      db
        .select({ ticket: tickets, event: { name: events.name } })
        .from(tickets)
        .innerJoin(events, eq(events.id, tickets.eventId))
        .where(sameAddress(tickets.email, address))
        .orderBy(desc(tickets.dateSold)),
    () => db.select().from(donations).where(sameAddress(donations.email, address)).orderBy(desc(donations.createdAt)),
    () =>
      db.select().from(volunteers).where(sameAddress(volunteers.email, address)).orderBy(desc(volunteers.createdAt)),
    () => db.select().from(outbox).where(sentTo(address)).orderBy(desc(outbox.createdAt)),
    () =>
      db
        .select({ entry: waitingListEntries, event: events.name, type: ticketTypes.name })
        .from(waitingListEntries)
        .innerJoin(events, eq(events.id, waitingListEntries.eventId))
        .leftJoin(ticketTypes, eq(ticketTypes.id, waitingListEntries.ticketTypeId))
        .where(sameAddress(waitingListEntries.email, address))
        .orderBy(desc(waitingListEntries.joinedAt)),
  ]);

  const bookingRefs = [
    ...new Set([...bookingRows.map((r) => r.booking.bookingRef), ...ticketRows.map((r) => r.ticket.bookingRef)]),
  ];
  const donationIds = donationRows.map((d) => d.id);
  const [checkInRows, declarationRows, refundRows, items, answers] = await inTurn([
    () =>
      ticketRows.length
        ? db
            .select()
            .from(checkIns)
            .where(
              inArray(
                checkIns.bookingRef,
                ticketRows.map((r) => r.ticket.bookingRef),
              ),
            )
            .orderBy(asc(checkIns.scannedAt))
        : [],
    () =>
      donationIds.length
        ? db
            .select()
            .from(giftAidDeclarations)
            .where(inArray(giftAidDeclarations.donationId, donationIds))
            .orderBy(desc(giftAidDeclarations.declaredAt))
        : [],
    () =>
      bookingRefs.length || donationIds.length
        ? db
            .select({ refund: refunds, ticketType: ticketTypes.name })
            .from(refunds)
            .leftJoin(ticketTypes, eq(ticketTypes.id, refunds.ticketTypeId))
            .where(
              or(
                bookingRefs.length ? inArray(refunds.bookingRef, bookingRefs) : undefined,
                donationIds.length ? inArray(refunds.donationId, donationIds) : undefined,
              ),
            )
            .orderBy(desc(refunds.createdAt))
        : [],
    () =>
      itemsOfBookings(
        db,
        bookingRows.map((r) => r.booking.bookingRef),
      ),
    () =>
      answersOfBookings(
        db,
        bookingRows.map((r) => r.booking.bookingRef),
      ),
  ]);

  return {
    emailAddress: address,
    bookings: bookingRows.map(({ booking: b, event }) => ({
      bookingReference: b.bookingRef,
      event: event.name,
      eventDate: event.eventDate.toISOString(),
      name: b.holderName,
      emailAddress: b.email,
      quantity: b.quantity,
      tickets: ticketsInWords(items.get(b.bookingRef) ?? []),
      ticketTypes: (items.get(b.bookingRef) ?? []).map((item) => ({
        type: item.name,
        quantity: item.quantity,
        refunded: item.refunded,
        price: formatPounds(item.pricePence),
        pricePence: item.pricePence,
        placesEach: item.seatsPerTicket,
      })),
      answers: (answers.get(b.bookingRef) ?? []).map(({ question, attendee, answer }) => ({
        question,
        attendee,
        answer,
      })),
      amount: formatPounds(b.amountPence),
      amountPence: b.amountPence,
      refunded: formatPounds(b.refundedPence),
      refundedPence: b.refundedPence,
      status: b.status,
      booked: b.createdAt.toISOString(),
      paid: iso(b.paidAt),
    })),
    tickets: ticketRows.map(({ ticket: t, event }) => ({
      bookingReference: t.bookingRef,
      event: event.name,
      name: t.ticketHolderName,
      emailAddress: t.email,
      places: t.quantity,
      valid: t.isValid,
      sold: t.dateSold.toISOString(),
      placesCheckedIn: t.checkedInCount,
      checkIns: checkInRows
        .filter((c) => c.bookingRef === t.bookingRef)
        .map((c) => ({ at: c.scannedAt.toISOString(), places: c.count, outcome: c.outcome })),
    })),
    donations: donationRows.map((d) => ({
      donationReference: d.id,
      amount: formatPounds(d.amountPence),
      amountPence: d.amountPence,
      name: d.donorName,
      emailAddress: d.email,
      status: d.status,
      made: d.createdAt.toISOString(),
      paid: iso(d.paidAt),
      refunded: iso(d.refundedAt),
      giftAidClaimed: d.giftAidClaimId !== null,
      monthlyGiftReference: d.regularGiftId,
      month: d.billingMonth,
    })),
    regularGifts: giftRows.map((g) => ({
      giftReference: g.id,
      amount: formatPounds(g.amountPence),
      amountPence: g.amountPence,
      dayOfMonth: g.dayOfMonth,
      name: g.donorName,
      emailAddress: g.email,
      status: g.status,
      started: g.createdAt.toISOString(),
      cancelled: iso(g.cancelledAt),
      pausedUntil: iso(g.pausedUntil),
      // A Gift Aid declaration made on the gift's page, kept until the next payment is made with it.
      giftAidDeclarationWaiting: g.declarationWaiting ?? null,
      // How it is paid; for a Direct Debit, what we hold of the account (never its number).
      paidBy: g.paymentMethod,
      directDebit: g.mandateReference
        ? {
            accountHolder: g.bankAccountName,
            sortCode: g.bankSortCode,
            accountNumberEndsWith: g.bankLast4,
            mandateReference: g.mandateReference,
            mandateState: g.mandateStatus,
          }
        : null,
    })),
    giftAidDeclarations: declarationRows.map((g) => ({
      donationReference: g.donationId,
      firstName: g.firstName,
      surname: g.surname,
      houseNameOrNumber: g.houseNameOrNumber,
      postcode: g.postcode,
      scope: g.scope,
      wording: g.wording,
      declared: g.declaredAt.toISOString(),
      cancelled: iso(g.cancelledAt),
    })),
    volunteerSignUps: volunteerRows.map((v) => ({
      name: v.name,
      emailAddress: v.email,
      whyTheyWantToHelp: v.reason,
      signedUp: v.createdAt.toISOString(),
    })),
    emailsSent: emailRows.map((m) => ({
      kind: isMailKind(m.kind) ? mailKinds[m.kind].label : m.kind,
      subject: typeof m.payload.subject === "string" ? m.payload.subject : "",
      to: m.recipient,
      queued: m.createdAt.toISOString(),
      sent: iso(m.sentAt),
      status: emailStatus(m),
    })),
    refunds: refundRows.map(({ refund: r, ticketType }) => ({
      of: r.bookingRef ? `booking ${r.bookingRef}` : `donation ${r.donationId}`,
      amount: formatPounds(r.amountPence),
      amountPence: r.amountPence,
      places: r.quantity,
      ticketType: r.ticketTypeId ? ticketType : null,
      reason: r.reason,
      status: r.status,
      asked: r.createdAt.toISOString(),
      completed: iso(r.completedAt),
    })),
    waitingLists: waitingRows.map(({ entry, event, type }) => ({
      event,
      name: entry.name,
      emailAddress: entry.email,
      tickets: entry.tickets,
      ticketType: type,
      joined: entry.joinedAt.toISOString(),
      state: entry.state,
    })),
  };
}

/**
 * The subject access export: every record held about the address, with the date it was made. The
 * download is written in the audit log by a hash of the address and the counts, naming no one.
 */
export async function exportPersonData(
  { db }: { db: Database },
  staff: Staff,
  email: string,
  now: Date,
  heldBy: string,
): Promise<PersonDataExport> {
  return db.transaction(async (tx) => {
    const data = await findPersonData({ db: tx }, email);
    await recordAudit(tx, {
      staff,
      action: "person.exported",
      subject: personSubject(email),
      summary: `Exported the data held for one person (${recordCounts(data)})`,
      at: now,
    });
    return {
      exportedAt: now.toISOString(),
      about: `Everything ${heldBy} holds about this e-mail address on its website, as of the date of this export.`,
      ...data,
    };
  });
}

/** Statuses in which a donation is, or may again be, money received that Gift Aid can be claimed on. */
const claimableStatuses = ["paid", "refund_pending"];

/**
 * Erases what the site holds about the address, in one transaction (decision 018): volunteer
 * sign-ups and unsent e-mails are deleted; sent e-mails keep only that they were sent; bookings,
 * tickets and donations keep their amounts, dates, statuses and check-ins under the name "Erased"
 * and an address that cannot receive mail; a Gift Aid declaration HMRC may still ask for keeps its
 * name and address, every other is anonymised; the offline card provider forgets the address.
 * Seats sold and money totals do not change. Undefined when nothing is held (already erased).
 */
export async function erasePersonData(
  { db, payments }: { db: Database; payments?: Pick<PaymentProvider, "cancelSubscription"> },
  staff: Staff,
  email: string,
  now: Date,
): Promise<ErasureCounts | undefined> {
  const address = email.trim().toLowerCase();
  // Her monthly gifts are stopped at the provider first (decision 089): if it cannot be asked,
  // nothing is erased, and no payment is ever taken for a gift we no longer know the donor of.
  const running = await db
    .select({ id: regularGifts.id, subscriptionId: regularGifts.providerSubscriptionId })
    .from(regularGifts)
    .where(and(sameAddress(regularGifts.email, address), isNull(regularGifts.cancelledAt)));
  for (const gift of running) {
    if (!gift.subscriptionId) continue;
    if (!payments) throw new Error("Erasing a person with a monthly gift needs the payment provider.");
    await payments.cancelSubscription(gift.subscriptionId).catch((error: unknown) => {
      throw providerUnavailable(error, `cancelling regular gift ${gift.id} for an erasure`);
    });
  }
  return db.transaction(async (tx) => {
    // Two staff erasing the same address at once: the second waits, then finds nothing left.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${personSubject(address)}))`);
    const data = await findPersonData({ db: tx }, address);
    if (!holdsAnything(data)) return undefined;

    const bookingRows = await tx
      .select({ ref: bookings.bookingRef })
      .from(bookings)
      .where(sameAddress(bookings.email, address))
      .for("update");
    for (const { ref } of bookingRows) {
      await tx
        .update(bookings)
        .set({ holderName: erasedName, email: erasedAddress(ref), clientKey: null, updatedAt: now })
        .where(eq(bookings.bookingRef, ref));
      // The keyed hash of the address she paid from, with her declined cards (decision 026).
      await tx.delete(cardDeclines).where(eq(cardDeclines.attempt, ref));
    }
    // Her answers (dietary needs may be health data) go; the booking's tickets and money stay.
    const answersDeleted =
      bookingRows.length > 0
        ? (
            await eraseAnswersOf(
              tx,
              bookingRows.map((row) => row.ref),
            ).returning({ ref: bookingAnswers.bookingRef })
          ).length
        : 0;

    const ticketRows = await tx
      .select({ ref: tickets.bookingRef })
      .from(tickets)
      .where(sameAddress(tickets.email, address))
      .for("update");
    for (const { ref } of ticketRows) {
      await tx
        .update(tickets)
        .set({ ticketHolderName: erasedName, email: erasedAddress(ref) })
        .where(eq(tickets.bookingRef, ref));
    }

    const donationRows = await tx
      .select({ id: donations.id, status: donations.status, claimId: donations.giftAidClaimId })
      .from(donations)
      .where(sameAddress(donations.email, address))
      .for("update");
    let declarationsKeptForGiftAid = 0;
    let declarationsAnonymised = 0;
    for (const donation of donationRows) {
      await tx
        .update(donations)
        .set({ donorName: erasedName, email: erasedAddress(donation.id), clientKey: null, updatedAt: now })
        .where(eq(donations.id, donation.id));
      await tx.delete(cardDeclines).where(eq(cardDeclines.attempt, donation.id));
      // HMRC needs the declaration for a donation claimed, or one that could still be claimed.
      const neededForGiftAid = donation.claimId !== null || claimableStatuses.includes(donation.status);
      if (neededForGiftAid) {
        const kept = await tx
          .select({ id: giftAidDeclarations.id })
          .from(giftAidDeclarations)
          .where(eq(giftAidDeclarations.donationId, donation.id));
        declarationsKeptForGiftAid += kept.length;
      } else {
        const anonymised = await tx
          .update(giftAidDeclarations)
          .set({ firstName: erasedName, surname: erasedName, houseNameOrNumber: erasedName, postcode: erasedName })
          .where(eq(giftAidDeclarations.donationId, donation.id))
          .returning({ id: giftAidDeclarations.id });
        declarationsAnonymised += anonymised.length;
      }
    }

    // Her monthly gifts: cancelled (the provider was told above), anonymised, their links gone.
    // Their months are donations, anonymised above with their declarations kept as HMRC needs.
    const giftRows = await tx
      .select({
        id: regularGifts.id,
        cancelledAt: regularGifts.cancelledAt,
        customerId: regularGifts.providerCustomerId,
      })
      .from(regularGifts)
      .where(sameAddress(regularGifts.email, address))
      .for("update");
    for (const gift of giftRows) {
      await tx
        .update(regularGifts)
        .set({
          donorName: erasedName,
          email: erasedAddress(gift.id),
          clientKey: null,
          status: "cancelled",
          pausedUntil: null,
          // A Gift Aid declaration made on the gift's page and not yet used: her name and address.
          declarationWaiting: null,
          // A Direct Debit's account: her name on it, and what identifies it (decision 092).
          bankAccountName: null,
          bankSortCode: null,
          bankLast4: null,
          cancelledAt: gift.cancelledAt ?? now,
          updatedAt: now,
        })
        .where(eq(regularGifts.id, gift.id));
      await tx.delete(regularGiftLinks).where(eq(regularGiftLinks.regularGiftId, gift.id));
      // The offline test provider's mandates keep the account holder's name as Stripe would.
      if (gift.customerId) {
        await tx
          .update(offlineMandates)
          .set({ accountName: erasedName })
          .where(eq(offlineMandates.customerId, gift.customerId));
      }
    }
    await tx.update(offlineSubscriptions).set({ email: null }).where(sameAddress(offlineSubscriptions.email, address));

    const volunteersDeleted = await tx
      .delete(volunteers)
      .where(sameAddress(volunteers.email, address))
      .returning({ id: volunteers.id });

    // Her places on waiting lists, with their offers (decision 086); an offer's hold is a booking, anonymised above.
    await tx.delete(waitingListEntries).where(sameAddress(waitingListEntries.email, address));

    // Her e-mails, and the office's e-mail about each of her bookings, donations and sign-ups.
    const officeKeys = [
      ...bookingRows.map(({ ref }) => mailKey("office-booking", ref)),
      ...donationRows.map(({ id }) => mailKey("office-donation", id)),
      ...volunteersDeleted.map(({ id }) => mailKey("office-volunteer", id)),
    ];
    const hers = officeKeys.length ? or(sentTo(address), inArray(outbox.dedupeKey, officeKeys))! : sentTo(address);
    const unsentDeleted = await tx
      .delete(outbox)
      .where(and(hers, isNull(outbox.sentAt)))
      .returning({ id: outbox.id });
    const sentRows = await tx
      .select({ id: outbox.id })
      .from(outbox)
      .where(and(hers, isNotNull(outbox.sentAt)))
      .for("update");
    const note = `Erased on ${londonDate(now)} at the person's request.`;
    for (const { id } of sentRows) {
      await tx
        .update(outbox)
        .set({ recipient: erasedAddress(id), payload: { erased: true, note }, sealed: null, lastError: null })
        .where(eq(outbox.id, id));
    }

    const paymentsCleared = await tx
      .update(offlinePayments)
      .set({ receiptEmail: null })
      .where(sameAddress(offlinePayments.receiptEmail, address))
      .returning({ id: offlinePayments.id });

    const counts: ErasureCounts = {
      bookingsAnonymised: bookingRows.length,
      ticketsAnonymised: ticketRows.length,
      donationsAnonymised: donationRows.length,
      regularGiftsCancelled: giftRows.length,
      declarationsKeptForGiftAid,
      declarationsAnonymised,
      volunteerSignUpsDeleted: volunteersDeleted.length,
      unsentEmailsDeleted: unsentDeleted.length,
      sentEmailsBlanked: sentRows.length,
      cardPaymentRecordsCleared: paymentsCleared.length,
      answersDeleted,
    };
    await recordAudit(tx, {
      staff,
      action: "person.erased",
      subject: personSubject(address),
      summary: `Erased the data held for one person: ${erasureSummary(counts)}`,
      at: now,
    });
    return counts;
  });
}

/** What an erasure did, in a sentence that names no one. */
export function erasureSummary(counts: ErasureCounts): string {
  const anonymised = [
    counts.bookingsAnonymised && plural(counts.bookingsAnonymised, "booking", "bookings"),
    counts.ticketsAnonymised && plural(counts.ticketsAnonymised, "ticket", "tickets"),
    counts.donationsAnonymised && plural(counts.donationsAnonymised, "donation", "donations"),
    counts.regularGiftsCancelled && plural(counts.regularGiftsCancelled, "monthly gift", "monthly gifts"),
    counts.declarationsAnonymised &&
      plural(counts.declarationsAnonymised, "Gift Aid declaration", "Gift Aid declarations"),
  ].filter(Boolean);
  const deleted = [
    counts.volunteerSignUpsDeleted && plural(counts.volunteerSignUpsDeleted, "volunteer sign-up", "volunteer sign-ups"),
    counts.unsentEmailsDeleted && plural(counts.unsentEmailsDeleted, "unsent e-mail", "unsent e-mails"),
    counts.answersDeleted &&
      plural(counts.answersDeleted, "answer to an event's questions", "answers to events' questions"),
  ].filter(Boolean);
  const parts = [
    anonymised.length ? `${anonymised.join(", ")} anonymised` : "",
    counts.declarationsKeptForGiftAid
      ? `${plural(counts.declarationsKeptForGiftAid, "Gift Aid declaration", "Gift Aid declarations")} kept for HMRC`
      : "",
    deleted.length ? `${deleted.join(", ")} deleted` : "",
    counts.sentEmailsBlanked
      ? `${plural(counts.sentEmailsBlanked, "sent e-mail", "sent e-mails")} reduced to a note that ${counts.sentEmailsBlanked === 1 ? "it was" : "they were"} sent`
      : "",
  ].filter(Boolean);
  return parts.length ? `${parts.join("; ")}.` : "nothing was held.";
}
