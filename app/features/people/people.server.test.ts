import { asc, eq, sql, sum } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createStaffUser } from "~/features/staff/staff.server";
import { auditPage } from "~/infra/audit/audit.server";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { seatsOf } from "~/infra/db/seats.server";
import {
  auditLog,
  bookings,
  cardDeclines,
  checkIns,
  donations,
  giftAidClaims,
  giftAidDeclarations,
  offlinePayments,
  outbox,
  refunds,
  tickets,
  volunteers,
  waitingListEntries,
} from "~db/schema";
import { engines, freshDatabase, insertEvent } from "../../../tests/support/databases";
import { erasePersonData, exportPersonData, findPersonData, personSubject } from "./people.server";
import { holdsAnything } from "./schema";

// One fixed time for everything these tests touch.
const now = new Date("2026-11-20T12:00:00Z");
const later = new Date("2026-11-21T09:30:00Z");
const amina = "Amina.Mushi@Example.org";
const other = "juma@example.org";

describe.each(engines)("a person's data on %s", (engine) => {
  let database: DatabaseHandle;
  let eventId: string;
  let staff: { id: string; email: string };
  const ids = {} as {
    paidBooking: string;
    heldBooking: string;
    otherBooking: string;
    claimedDonation: string;
    claimableDonation: string;
    failedDonation: string;
    otherDonation: string;
  };

  beforeEach(async () => {
    database = await freshDatabase(engine);
    const db = database.db;
    eventId = await insertEvent(db, { name: "Quiz Night" }, now);
    staff = await createStaffUser(db, "sam@example.org", "a long staff password", now);

    async function booking(email: string, name: string, quantity: number, status: string, ticket: boolean) {
      const bookingRef = crypto.randomUUID();
      await db.insert(bookings).values({
        bookingRef,
        eventId,
        holderName: name,
        email,
        quantity,
        seats: quantity,
        amountPence: 1250 * quantity + 49,
        status,
        holdExpiresAt: new Date(now.getTime() + 15 * 60_000),
        provider: "offline",
        providerPaymentId: `pay_${bookingRef}`,
        createdAt: now,
        paidAt: status === "paid" ? now : null,
        updatedAt: now,
      });
      await db.insert(offlinePayments).values({
        id: `pay_${bookingRef}`,
        clientSecret: `secret_${bookingRef}`,
        amountPence: 1250 * quantity + 49,
        currency: "gbp",
        description: `Quiz Night - booking ${bookingRef}`,
        metadata: { booking_ref: bookingRef },
        receiptEmail: email,
        status: status === "paid" ? "succeeded" : "requires_payment_method",
        createdAt: now,
      });
      if (ticket) {
        await db.insert(tickets).values({
          ticketHolderName: name,
          email,
          eventId,
          bookingRef,
          quantity,
          dateSold: now,
        });
      }
      return bookingRef;
    }
    // Amina booked in capitals and once in lower case; Juma is someone else.
    ids.paidBooking = await booking("Amina.Mushi@example.org", "Amina Mushi", 3, "paid", true);
    ids.heldBooking = await booking("amina.mushi@example.org", "Amina Mushi", 1, "held", false);
    ids.otherBooking = await booking(other, "Juma Said", 2, "paid", true);
    await db.insert(checkIns).values({
      id: crypto.randomUUID(),
      bookingRef: ids.paidBooking,
      eventId,
      count: 2,
      staffUserId: staff.id,
      staffEmail: staff.email,
      device: "door-1",
      scannedAt: later,
      recordedAt: later,
      outcome: "checked-in",
    });
    await db
      .update(tickets)
      .set({ checkedInCount: 2, checkedInAt: later })
      .where(eq(tickets.bookingRef, ids.paidBooking));
    await db.update(bookings).set({ refundedPence: 1250 }).where(eq(bookings.bookingRef, ids.paidBooking));
    await db.insert(refunds).values({
      id: crypto.randomUUID(),
      key: "refund-form-1",
      bookingRef: ids.paidBooking,
      quantity: 1,
      amountPence: 1250,
      reason: "Could not come",
      status: "succeeded",
      staffUserId: staff.id,
      staffEmail: staff.email,
      createdAt: later,
      completedAt: later,
    });

    const claimId = crypto.randomUUID();
    await db.insert(giftAidClaims).values({
      id: claimId,
      claimedOn: "2026-11-21",
      donationCount: 1,
      totalPence: 250,
      staffEmail: staff.email,
      createdAt: later,
    });
    async function donation(email: string, name: string, status: string, claimed: boolean, amountPence = 1000) {
      const id = crypto.randomUUID();
      await db.insert(donations).values({
        id,
        amountPence,
        donorName: name,
        email,
        status,
        provider: "offline",
        createdAt: now,
        paidAt: status === "paid" ? now : null,
        giftAidClaimId: claimed ? claimId : null,
        updatedAt: now,
      });
      await db.insert(giftAidDeclarations).values({
        donationId: id,
        firstName: name.split(" ")[0]!,
        surname: name.split(" ")[1]!,
        houseNameOrNumber: "Rose Cottage",
        postcode: "SW1A 1AA",
        scope: "this-and-past-four-years",
        wording: "I want to Gift Aid my donation of £10.00 to Kilele Village Trust.",
        declaredAt: now,
      });
      return id;
    }
    ids.claimedDonation = await donation("AMINA.MUSHI@example.org", "Amina Mushi", "paid", true, 1000);
    ids.claimableDonation = await donation("amina.mushi@example.org", "Amina Mushi", "paid", false, 2500);
    ids.failedDonation = await donation("amina.mushi@example.org", "Amina Mushi", "failed", false, 500);
    ids.otherDonation = await donation(other, "Juma Said", "paid", false, 700);

    await db.insert(volunteers).values([
      { name: "Amina Mushi", email: "amina.mushi@example.org", reason: "I can bake for the fair.", createdAt: now },
      { name: "Juma Said", email: other, reason: "I drive.", createdAt: now },
    ]);

    const mail = (recipient: string, key: string, sent: boolean) => ({
      kind: "booking-receipt",
      dedupeKey: key,
      recipient,
      payload: { to: recipient, subject: `Your tickets (${key})`, text: "Hello", html: "<p>Hello</p>" },
      nextAttemptAt: now,
      createdAt: now,
      sentAt: sent ? now : null,
      attempts: sent ? 1 : 2,
      lastError: sent ? null : "550 mailbox amina.mushi@example.org unavailable",
    });
    await db.insert(outbox).values([
      mail("Amina Mushi <amina.mushi@example.org>", "booking-receipt:a", true),
      mail("amina.mushi@example.org", "donation-receipt:b", false),
      mail(`Juma Said <${other}>`, "booking-receipt:c", true),
      // The office's e-mails about her booking and donation, and about Juma's booking.
      mail("kilele@example.org", `office-booking:${ids.paidBooking}`, true),
      mail("kilele@example.org", `office-donation:${ids.claimableDonation}`, false),
      mail("kilele@example.org", `office-booking:${ids.otherBooking}`, true),
    ]);

    await db.insert(auditLog).values({
      at: now,
      staffUserId: staff.id,
      staffEmail: staff.email,
      action: "tickets.exported",
      subject: `event:${eventId}`,
      summary: "Downloaded 2 tickets as CSV",
    });
  });
  afterEach(() => database.close());

  it("finds every kind of record by the address, in any case and with spaces around it", async () => {
    const found = await findPersonData(database, "  AMINA.mushi@example.ORG ");
    expect(found.emailAddress).toBe("amina.mushi@example.org");
    expect(found.bookings.map((b) => b.bookingReference).sort()).toEqual([ids.paidBooking, ids.heldBooking].sort());
    const paid = found.bookings.find((b) => b.bookingReference === ids.paidBooking)!;
    expect(paid).toMatchObject({
      event: "Quiz Night",
      name: "Amina Mushi",
      quantity: 3,
      amount: "£37.99",
      refunded: "£12.50",
      status: "paid",
    });
    expect(found.tickets).toEqual([
      expect.objectContaining({
        bookingReference: ids.paidBooking,
        places: 3,
        placesCheckedIn: 2,
        checkIns: [{ at: later.toISOString(), places: 2, outcome: "checked-in" }],
      }),
    ]);
    expect(found.donations.map((d) => d.amount).sort()).toEqual(["£10.00", "£25.00", "£5.00"]);
    expect(found.donations.find((d) => d.donationReference === ids.claimedDonation)?.giftAidClaimed).toBe(true);
    expect(found.giftAidDeclarations).toHaveLength(3);
    expect(found.giftAidDeclarations[0]).toMatchObject({ firstName: "Amina", postcode: "SW1A 1AA" });
    expect(found.volunteerSignUps).toEqual([
      expect.objectContaining({ name: "Amina Mushi", whyTheyWantToHelp: "I can bake for the fair." }),
    ]);
    expect(found.emailsSent.map((m) => [m.kind, m.status]).sort()).toEqual([
      ["Booking receipt", "retrying"],
      ["Booking receipt", "sent"],
    ]);
    expect(found.refunds).toEqual([
      expect.objectContaining({ of: `booking ${ids.paidBooking}`, amount: "£12.50", places: 1 }),
    ]);
    // Juma's records are his own.
    expect(JSON.stringify(found)).not.toContain("Juma");
  });

  it("finds nothing for an address nobody used", async () => {
    expect(holdsAnything(await findPersonData(database, "nobody@example.org"))).toBe(false);
  });

  it("exports every record with the date of the export, and logs it by a hash of the address", async () => {
    const exported = await exportPersonData(database, staff, amina, later, "Kilele Village Trust");
    expect(exported.exportedAt).toBe(later.toISOString());
    expect(exported.about).toContain("Kilele Village Trust");
    expect(exported).toMatchObject({
      bookings: expect.any(Array),
      tickets: [expect.any(Object)],
      donations: expect.any(Array),
      giftAidDeclarations: expect.any(Array),
      volunteerSignUps: [expect.any(Object)],
      emailsSent: expect.any(Array),
      refunds: [expect.any(Object)],
    });
    expect(exported.bookings).toHaveLength(2);
    expect(exported.donations).toHaveLength(3);
    const log = await auditPage(database.db, 1);
    expect(log.rows[0]).toMatchObject({
      action: "person.exported",
      by: "sam@example.org",
      subject: personSubject("amina.mushi@example.org"),
      summary:
        "Exported the data held for one person (2 bookings, 1 ticket, 3 donations, 3 Gift Aid declarations, 1 volunteer sign-up, 2 e-mails, 1 refund)",
    });
    expect(log.rows[0]!.subject).toMatch(/^person:[0-9a-f]{16}$/);
    expect(JSON.stringify(log.rows)).not.toMatch(/amina|mushi/i);
  });

  it("erases as decided: deletes what need not be kept, anonymises the accounts, keeps the Gift Aid declarations HMRC may ask for", async () => {
    const db = database.db;
    const seatsBefore = await seatsOf(db, eventId, now);
    const moneyBefore = await money();
    const auditBefore = await db.select().from(auditLog).orderBy(asc(auditLog.at));

    const counts = await erasePersonData({ db }, staff, amina, later);
    expect(counts).toEqual({
      bookingsAnonymised: 2,
      ticketsAnonymised: 1,
      donationsAnonymised: 3,
      declarationsKeptForGiftAid: 2,
      declarationsAnonymised: 1,
      volunteerSignUpsDeleted: 1,
      unsentEmailsDeleted: 2, // hers, and the office's about her donation
      sentEmailsBlanked: 2, // hers, and the office's about her booking
      regularGiftsCancelled: 0,
      cardPaymentRecordsCleared: 2,
      answersDeleted: 0,
    });

    // Searching the address finds nothing at all.
    expect(holdsAnything(await findPersonData({ db }, amina))).toBe(false);

    // Bookings and tickets: no name, an address that cannot receive mail; amounts, statuses, check-ins kept.
    const [paid] = await db.select().from(bookings).where(eq(bookings.bookingRef, ids.paidBooking));
    expect(paid).toMatchObject({ holderName: "Erased", status: "paid", amountPence: 3799, refundedPence: 1250 });
    expect(paid!.email).toMatch(/^erased-[0-9a-f]{12}@erased\.invalid$/);
    const [ticket] = await db.select().from(tickets).where(eq(tickets.bookingRef, ids.paidBooking));
    expect(ticket).toMatchObject({ ticketHolderName: "Erased", quantity: 3, checkedInCount: 2, isValid: true });
    expect(ticket!.email).toMatch(/@erased\.invalid$/);
    expect(await db.select().from(checkIns)).toHaveLength(1);
    expect(await db.select().from(refunds)).toEqual([
      expect.objectContaining({ amountPence: 1250, status: "succeeded" }),
    ]);

    // Donations: anonymised, amounts and dates kept.
    const donationRows = await db
      .select()
      .from(donations)
      .where(sql`${donations.donorName} = 'Erased'`);
    expect(donationRows.map((d) => d.amountPence).sort()).toEqual([1000, 2500, 500].sort());
    expect(donationRows.every((d) => d.email.endsWith("@erased.invalid") && d.paidAt?.getTime() !== 0)).toBe(true);

    // Declarations: kept whole for a claimed or claimable donation, anonymised for the failed one.
    const declaration = async (donationId: string) =>
      (await db.select().from(giftAidDeclarations).where(eq(giftAidDeclarations.donationId, donationId)))[0]!;
    for (const kept of [ids.claimedDonation, ids.claimableDonation]) {
      expect(await declaration(kept)).toMatchObject({
        firstName: "Amina",
        surname: "Mushi",
        houseNameOrNumber: "Rose Cottage",
        postcode: "SW1A 1AA",
        declaredAt: now,
      });
    }
    expect(await declaration(ids.failedDonation)).toMatchObject({
      firstName: "Erased",
      surname: "Erased",
      houseNameOrNumber: "Erased",
      postcode: "Erased",
      scope: "this-and-past-four-years",
    });

    // Volunteer sign-up deleted; unsent e-mail deleted; sent one reduced to a note.
    expect((await db.select().from(volunteers)).map((v) => v.name)).toEqual(["Juma Said"]);
    const mails = await db.select().from(outbox).orderBy(asc(outbox.dedupeKey));
    expect(mails.map((m) => m.dedupeKey)).toEqual(
      [
        "booking-receipt:a",
        "booking-receipt:c",
        `office-booking:${ids.otherBooking}`,
        `office-booking:${ids.paidBooking}`,
      ].sort(),
    );
    const officeAboutHer = mails.find((m) => m.dedupeKey === `office-booking:${ids.paidBooking}`)!;
    expect(officeAboutHer.payload).toMatchObject({ erased: true });
    expect(mails.find((m) => m.dedupeKey === `office-booking:${ids.otherBooking}`)!.recipient).toBe(
      "kilele@example.org",
    );
    expect(mails[0]).toMatchObject({
      payload: { erased: true, note: "Erased on 21/11/2026 at the person's request." },
      sentAt: now,
      lastError: null,
    });
    expect(mails[0]!.recipient).toMatch(/@erased\.invalid$/);

    // The offline provider forgets the address.
    const payments = await db.select().from(offlinePayments);
    expect(payments.filter((p) => p.receiptEmail !== null).map((p) => p.receiptEmail)).toEqual([other]);

    // Nothing anywhere still says who she was, but the kept declarations.
    const everything = JSON.stringify([
      await db.select().from(bookings),
      await db.select().from(tickets),
      await db.select().from(donations),
      await db.select().from(outbox),
      payments,
    ]);
    expect(everything).not.toMatch(/amina|mushi/i);

    // Seats sold and money taken are as they were; Juma is untouched.
    expect(await seatsOf(db, eventId, now)).toEqual(seatsBefore);
    expect(await money()).toEqual(moneyBefore);
    expect(holdsAnything(await findPersonData({ db }, other))).toBe(true);
    expect((await findPersonData({ db }, other)).bookings[0]).toMatchObject({ name: "Juma Said" });

    // The log is untouched, with one entry more that names no one.
    const auditAfter = await db.select().from(auditLog).orderBy(asc(auditLog.at));
    expect(auditAfter.slice(0, auditBefore.length)).toEqual(auditBefore);
    expect(auditAfter).toHaveLength(auditBefore.length + 1);
    expect(auditAfter.at(-1)).toMatchObject({
      action: "person.erased",
      subject: personSubject(amina),
      summary:
        "Erased the data held for one person: 2 bookings, 1 ticket, 3 donations, 1 Gift Aid declaration anonymised; 2 Gift Aid declarations kept for HMRC; 1 volunteer sign-up, 2 unsent e-mails deleted; 2 sent e-mails reduced to a note that they were sent.",
      at: later,
    });

    // A second erasure finds nothing to do, and logs nothing.
    expect(await erasePersonData({ db }, staff, amina, later)).toBeUndefined();
    expect(await db.select().from(auditLog)).toHaveLength(auditAfter.length);
  });

  // A real race on PostgreSQL (two connections); PGlite runs one transaction at a time.
  it("erasing a person empties the keyed hash of the address she paid from, and her declined cards (decision 026)", async () => {
    const db = database.db;
    await db
      .update(bookings)
      .set({ clientKey: "a".repeat(32) })
      .where(eq(bookings.bookingRef, ids.paidBooking));
    await db.update(donations).set({ clientKey: "a".repeat(32) });
    await db
      .insert(cardDeclines)
      .values({ id: crypto.randomUUID(), attempt: ids.paidBooking, clientKey: "a".repeat(32), at: now });
    await erasePersonData({ db }, staff, amina, later);
    const [paid] = await db.select().from(bookings).where(eq(bookings.bookingRef, ids.paidBooking));
    expect(paid!.clientKey).toBeNull();
    const erasedDonations = await db
      .select()
      .from(donations)
      .where(sql`${donations.email} like '%@erased.invalid'`);
    expect(erasedDonations.length).toBeGreaterThan(0);
    expect(erasedDonations.every((d) => d.clientKey === null)).toBe(true);
    expect(await db.select().from(cardDeclines)).toEqual([]);
  });

  it("finds, exports and erases a person's places on waiting lists (decision 086)", async () => {
    const db = database.db;
    await db.insert(waitingListEntries).values([
      {
        eventId,
        name: "Amina Mushi",
        email: amina.toLowerCase(),
        tickets: 3,
        joinedAt: now,
        state: "waiting",
        updatedAt: now,
      },
      { eventId, name: "Juma Said", email: other, tickets: 1, joinedAt: now, state: "waiting", updatedAt: now },
    ]);
    const found = await findPersonData({ db }, amina);
    expect(found.waitingLists).toEqual([
      {
        event: "Quiz Night",
        name: "Amina Mushi",
        emailAddress: "amina.mushi@example.org",
        tickets: 3,
        ticketType: null,
        joined: now.toISOString(),
        state: "waiting",
      },
    ]);
    await erasePersonData({ db }, staff, amina, later);
    expect((await db.select().from(waitingListEntries)).map((e) => e.email)).toEqual([other]);
  });

  it("erases once when two staff erase the same address at the same moment", async () => {
    const [first, second] = await Promise.all([
      erasePersonData(database, staff, amina, later),
      erasePersonData(database, staff, "amina.mushi@example.org", later),
    ]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
    const erased = await database.db.select().from(auditLog).where(eq(auditLog.action, "person.erased"));
    expect(erased).toHaveLength(1);
  });

  async function money() {
    const [b] = await database.db
      .select({ taken: sum(bookings.amountPence), back: sum(bookings.refundedPence) })
      .from(bookings);
    const [d] = await database.db.select({ given: sum(donations.amountPence) }).from(donations);
    return { ...b, ...d };
  }
});
