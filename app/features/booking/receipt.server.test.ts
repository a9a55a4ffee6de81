import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { offlineProvider, type OfflineProvider } from "~/infra/payments/offline.server";
import type { PaymentDeps } from "~/infra/payments/provider.server";
import { bookings, outbox, staffUsers } from "~db/schema";
import { testClock, type TestClock } from "../../../tests/support/clock";
import { testCharity } from "../../../tests/support/content";
import { engines, freshDatabase, insertEvent } from "../../../tests/support/databases";
import { readQr } from "../../../tests/support/qr";
import { wordsOfHtml, wordsOfText } from "../../../tests/support/mail-text";
import { settleBooking } from "./settlement.server";
import { startBooking } from "./checkout.server";
import { bookingReceipt, refundNotice, type ReceiptDetails } from "./receipt.server";
import { refundBooking } from "./refunds.server";
import { resendReceipt } from "./staff-bookings.server";
import { buyTypes, giveTypes } from "../../../tests/support/ticket-types";

const ref = "3f9a1c2b-7d4e-4a1b-9c3d-5e6f7a8b9c0d";

const details: ReceiptDetails = {
  bookingRef: ref,
  holderName: "Amina Mushi",
  email: "amina@example.org",
  quantity: 2,
  amountPence: 2549,
  items: [{ name: "Ticket", quantity: 2, pricePence: 1250, seatsPerTicket: 1 }],
  // 19:30 in London (BST); paid on a November morning (GMT).
  event: { name: "Quiz Night", eventDate: new Date("2030-07-04T18:30:00Z"), location: "St Mary's Hall, Ledbury" },
  paidAt: new Date("2026-11-22T10:05:00Z"),
  card: { brand: "visa", last4: "4242" },
  charity: testCharity,
};

describe("the booking receipt", () => {
  it("confirms the booking with its reference and the short code, and thanks the buyer", async () => {
    const mail = await bookingReceipt(details);
    expect(mail.to).toEqual({ name: "Amina Mushi", address: "amina@example.org" });
    expect(mail.subject).toBe(`Your booking for Quiz Night (${ref})`);
    expect(mail.text).toMatch(/^Booking confirmed: Quiz Night\n\nDear Amina Mushi,\n/);
    expect(mail.text).toContain(`We have received your booking for Quiz Night. Your booking reference is ${ref}.`);
    expect(mail.text).toContain("Thank you for helping to raise money for the village of Kilele.");
    expect(mail.text).toContain("Booking code for the door: 3F9A-1C2B");
    expect(mail.text).toContain(`Booking reference: ${ref}`);
  });

  it("gives the event's date, time and place, with a map for directions", async () => {
    const mail = await bookingReceipt(details);
    expect(mail.text).toContain("Date: 04/07/2030\nTime: 19:30\nLocation: St Mary's Hall, Ledbury\n");
    expect(mail.text).toContain(
      "Directions: Map of St Mary's Hall, Ledbury (https://www.openstreetmap.org/search?query=St+Mary%27s+Hall%2C+Ledbury)",
    );
    expect(mail.html).toMatch(
      /<a href="https:\/\/www\.openstreetmap\.org\/search\?query=St\+Mary%27s\+Hall%2C\+Ledbury"[^>]*>Map of St Mary's Hall, Ledbury<\/a>/,
    );
  });

  it("an event with no place yet says so, and gives no map", async () => {
    const mail = await bookingReceipt({ ...details, event: { ...details.event, location: "" } });
    expect(mail.text).toContain("Location: to be confirmed");
    expect(mail.text).not.toContain("Directions");
    expect(mail.html).not.toContain("openstreetmap");
  });

  it("shows what was paid, line by line, when, and with which card", async () => {
    const mail = await bookingReceipt(details);
    expect(mail.text).toContain(
      "Tickets: 2 × £12.50 = £25.00\nBooking fee: £0.49\nTotal paid: £25.49\nPaid on: 22/11/2026 at 10:05\nCard: Visa ending 4242",
    );
    const words = wordsOfHtml(mail.html);
    expect(words).toContain("Tickets: 2 × £12.50 = £25.00 Booking fee: £0.49 Total paid: £25.49");
    expect(words).toContain("Card: Visa ending 4242");
  });

  it("lists each type of ticket with its price, the booking fee once, and the total (decision 082)", async () => {
    const mail = await bookingReceipt({
      ...details,
      quantity: 3,
      amountPence: 3049,
      items: [
        { name: "Adult", quantity: 2, pricePence: 1250, seatsPerTicket: 1 },
        { name: "Child", quantity: 1, pricePence: 500, seatsPerTicket: 1 },
      ],
    });
    expect(mail.text).toContain(
      "2 × Adult £12.50: £25.00\n1 × Child £5.00: £5.00\nBooking fee: £0.49\nTotal paid: £30.49\n",
    );
    expect(mail.text).not.toContain("Tickets:");
    expect(mail.text).not.toContain("Admits");
    expect(wordsOfText(mail.text)).toBe(wordsOfHtml(mail.html));
  });

  it("a booking of one type other than the plain one names it; a table of eight says it admits 8", async () => {
    const mail = await bookingReceipt({
      ...details,
      quantity: 1,
      amountPence: 20049,
      items: [{ name: "Table of 8", quantity: 1, pricePence: 20000, seatsPerTicket: 8 }],
    });
    expect(mail.text).toContain("Location: St Mary's Hall, Ledbury\nAdmits: 8 people\n");
    expect(mail.text).toContain("1 × Table of 8 £200.00: £200.00\nBooking fee: £0.49\nTotal paid: £200.49");
  });

  it("free tickets pay no booking fee, and the receipt says no fee", async () => {
    const mail = await bookingReceipt({
      ...details,
      quantity: 1,
      amountPence: 0,
      items: [{ name: "Volunteer", quantity: 1, pricePence: 0, seatsPerTicket: 1 }],
      card: null,
    });
    expect(mail.text).toContain("1 × Volunteer £0.00: £0.00\nTotal paid: £0.00");
    expect(mail.text).not.toContain("Booking fee");
  });

  it("names no card when the provider did not say which", async () => {
    const mail = await bookingReceipt({ ...details, card: null });
    expect(mail.text).not.toContain("Card:");
    expect(mail.text).toContain("Paid on: 22/11/2026 at 10:05");
  });

  it("ends with the charity's refund policy, how to reach it, and its registered number", async () => {
    const mail = await bookingReceipt(details);
    expect(mail.text).toContain(`Refunds\n\n${testCharity.receipts.ticketRefundPolicy}`);
    expect(mail.text).toContain("Questions? Reply to this e-mail, or write to kilele@example.org.");
    expect(mail.text).toContain("Kilele Village Trust, registered charity number 1187432");
  });

  it("carries the logo, the QR code that opens the door page, and the calendar file; the HTML names the pictures", async () => {
    const mail = await bookingReceipt(details);
    expect(mail.attachments?.map((a) => [a.filename, a.contentType, a.cid])).toEqual([
      ["logo.png", "image/png", "charity-logo"],
      ["booking-qr.png", "image/png", "booking-qr"],
      ["event.ics", "text/calendar", undefined],
    ]);
    expect(mail.html).toContain('src="cid:charity-logo"');
    expect(mail.html).toContain(
      'src="cid:booking-qr" width="160" height="160" alt="QR code for the door: booking 3F9A-1C2B"',
    );
    const qr = mail.attachments!.find((a) => a.cid === "booking-qr")!;
    expect(await readQr(Buffer.from(qr.content, "base64"))).toBe(`https://kilele.example/admin/check-in/ticket/${ref}`);
    const ics = Buffer.from(mail.attachments!.find((a) => a.filename === "event.ics")!.content, "base64").toString();
    expect(ics).toContain("DTSTART:20300704T183000Z");
  });

  it("has a text part that says everything the HTML shows", async () => {
    const mail = await bookingReceipt(details);
    expect(wordsOfText(mail.text)).toBe(wordsOfHtml(mail.html));
    expect(mail.html).toMatch(/<html lang="en-GB"/);
  });

  it("the notice of a late payment refunded is a letter from the charity too", async () => {
    const mail = await refundNotice(details, "full");
    expect(mail.subject).toBe("Sorry: Quiz Night is full, and your payment has been refunded");
    expect(mail.text).toContain("We have refunded the full £25.49 to your card");
    expect(mail.text).toContain(`Your booking reference was ${ref}.`);
    expect(wordsOfText(mail.text)).toBe(wordsOfHtml(mail.html));
  });
});

describe.each(engines)("a paid booking's receipt on %s", (engine) => {
  let database: DatabaseHandle;
  let payments: OfflineProvider;
  let deps: PaymentDeps;
  let clock: TestClock;

  beforeEach(async () => {
    database = await freshDatabase(engine);
    // A winter morning: London is on GMT.
    clock = testClock("2026-11-22T10:00:00Z");
    payments = offlineProvider(database.db, clock);
    deps = { db: database.db, payments, charity: testCharity, clock };
  });
  afterEach(() => database.close());

  const textOf = async (kind: string) =>
    (await database.db.select().from(outbox)).filter((row) => row.kind === kind).map((row) => String(row.payload.text));

  it("says when the payment was taken and with which card, keeps only the brand and last four, and a resend says the same", async () => {
    const eventId = await insertEvent(database.db, { totalAvailableTickets: 10 }, clock.now());
    const started = await startBooking(deps, { eventId, name: "Amina Mushi", email: "amina@example.org", quantity: 2 });
    clock.advance(3 * 60_000);
    await payments.confirmCard(started.clientSecret, { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" });
    clock.advance(30_000);
    await settleBooking(deps, started.bookingRef);

    const [receipt] = await textOf("booking-receipt");
    expect(receipt).toContain("Tickets: 2 × £12.50 = £25.00");
    expect(receipt).toContain("Total paid: £25.49");
    expect(receipt).toContain("Paid on: 22/11/2026 at 10:03");
    expect(receipt).toContain("Card: Visa ending 4242");
    const [booking] = await database.db.select().from(bookings);
    expect(booking).toMatchObject({ cardBrand: "visa", cardLast4: "4242" });
    expect(JSON.stringify(booking)).not.toContain("42424242");

    // Sent again by staff a week later: the same payment date and card.
    clock.advance(7 * 24 * 3600_000);
    const [user] = await database.db
      .insert(staffUsers)
      .values({ email: "staff@example.org", passwordHash: "x", createdAt: clock.now() })
      .returning();
    await resendReceipt(deps, { id: user!.id, email: user!.email }, started.bookingRef);
    const [again] = await textOf("receipt-sent-again");
    expect(again).toContain("Paid on: 22/11/2026 at 10:03");
    expect(again).toContain("Card: Visa ending 4242");
  });

  it("a booking of several types gets each on its receipt; sent again after a refund, only what is left", async () => {
    const eventId = await insertEvent(database.db, { totalAvailableTickets: 40 }, clock.now());
    const types = await giveTypes(
      database.db,
      eventId,
      [
        { name: "Adult", pricePence: 1250 },
        { name: "Child", pricePence: 500 },
        { name: "Table of 8", pricePence: 8000, seatsPerTicket: 8 },
      ],
      clock.now(),
    );
    const ref = await buyTypes(deps, eventId, { [types.Adult!]: 2, [types.Child!]: 2, [types["Table of 8"]!]: 1 });

    const [receipt] = await textOf("booking-receipt");
    expect(receipt).toContain("Admits: 12 people");
    expect(receipt).toContain(
      "2 × Adult £12.50: £25.00\n2 × Child £5.00: £10.00\n1 × Table of 8 £80.00: £80.00\nBooking fee: £0.49\nTotal paid: £115.49\n",
    );

    const [user] = await database.db
      .insert(staffUsers)
      .values({ email: "staff@example.org", passwordHash: "x", createdAt: clock.now() })
      .returning();
    const staff = { id: user!.id, email: user!.email };
    await refundBooking(deps, staff, ref, {
      quantity: 1,
      ticketTypeId: types.Child,
      reason: "Ill",
      key: crypto.randomUUID(),
    });
    await resendReceipt(deps, staff, ref);
    const [again] = await textOf("receipt-sent-again");
    expect(again).toContain("Admits: 11 people");
    expect(again).toContain(
      "2 × Adult £12.50: £25.00\n1 × Child £5.00: £5.00\n1 × Table of 8 £80.00: £80.00\nBooking fee: £0.49\nTotal paid: £110.49\n",
    );
  });
});
