import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { shortCode } from "~/lib/booking-code";
import { bookingHistory, bookings, tickets } from "~db/schema";
import { engines, freshDatabase, insertEvent } from "../../../tests/support/databases";
import { historyLine } from "./history.server";
import { bookingSearchLimit, findBooking, staffBooking } from "./staff-bookings.server";

// Finding a booking by the buyer's name or e-mail, or its code (decision 077), and its history
// as staff read it.

const now = new Date("2026-07-04T18:15:00Z");

describe.each(engines)("finding a booking on %s", (engine) => {
  let database: DatabaseHandle;
  let quiz: string;
  let supper: string;
  beforeEach(async () => {
    database = await freshDatabase(engine);
    quiz = await insertEvent(database.db, { name: "Quiz Night" }, now);
    supper = await insertEvent(
      database.db,
      { name: "Harvest Supper", eventDate: new Date("2026-09-20T18:00:00Z") },
      now,
    );
  });
  afterEach(() => database.close());

  async function sell(name: string, email: string, eventId = quiz, status = "paid") {
    const bookingRef = crypto.randomUUID();
    await database.db.insert(bookings).values({
      bookingRef,
      eventId,
      holderName: name,
      email,
      quantity: 2,
      seats: 2,
      amountPence: 2549,
      status,
      holdExpiresAt: now,
      provider: "offline",
      createdAt: now,
      updatedAt: now,
    });
    return bookingRef;
  }

  const names = async (typed: string) => {
    const found = await findBooking(database, typed);
    return found.outcome === "several" ? found.matches.map((m) => m.name) : found;
  };

  it("finds by a name without its accents, by the surname alone in any case, and by the start of an e-mail", async () => {
    const siobhan = await sell("Siobhán Okafor", "siobhan.okafor@example.org");
    await sell("Chidi Okafor", "chidi@example.net", supper);
    await sell("Amina Mushi", "amina@example.org");
    expect(await names("Siobhan")).toEqual(["Siobhán Okafor"]);
    expect(await names("siobhan okafor")).toEqual(["Siobhán Okafor"]);
    // Both Okafors: the later event first.
    expect(await names("okafor")).toEqual(["Chidi Okafor", "Siobhán Okafor"]);
    expect(await names("OKAF")).toEqual(["Chidi Okafor", "Siobhán Okafor"]);
    expect(await names("siobhan.ok")).toEqual(["Siobhán Okafor"]);
    expect(await names("Chidi@Example")).toEqual(["Chidi Okafor"]);
    const found = await findBooking(database, "amina@");
    expect(found).toMatchObject({
      outcome: "several",
      by: "person",
      more: false,
      matches: [{ name: "Amina Mushi", email: "amina@example.org", eventName: "Quiz Night", quantity: 2 }],
    });
    // A code still opens the booking at once.
    expect(await findBooking(database, shortCode(siobhan).toLowerCase())).toEqual({
      outcome: "found",
      bookingRef: siobhan,
    });
    expect(await findBooking(database, siobhan)).toEqual({ outcome: "found", bookingRef: siobhan });
  });

  it("puts a name that starts with what was typed first, leaves out unpaid attempts, and treats % and _ as letters", async () => {
    await sell("Grace Nwokafor", "grace@example.org");
    await sell("Okafor Emeka", "emeka@example.org");
    await sell("Held Okafor", "held@example.org", quiz, "held");
    await sell("Percy 100%", "percy_p@example.org");
    expect(await names("okafor")).toEqual(["Okafor Emeka", "Grace Nwokafor"]);
    expect(await names("%")).toEqual(["Percy 100%"]);
    expect(await names("percy_")).toEqual(["Percy 100%"]);
    expect(await findBooking(database, "_")).toMatchObject({ outcome: "none" });
  });

  it("says plainly when nothing matches, and what to try", async () => {
    await sell("Amina Mushi", "amina@example.org");
    expect(await findBooking(database, "Okafr")).toEqual({
      outcome: "none",
      message:
        "No booking matches “Okafr”. Try the surname alone, the start of the e-mail address, or the 8-character code on the receipt (such as 3F9A-1C2B).",
    });
    expect(await findBooking(database, "0000-0000")).toMatchObject({ outcome: "none" });
    expect(await findBooking(database, "   ")).toMatchObject({ outcome: "none" });
    // A control character (a NUL, which the database's text cannot hold) is a space, not an error.
    expect(await findBooking(database, "\u0000")).toMatchObject({ outcome: "none" });
    expect(await names("Amina\u0000Mushi\t")).toEqual(["Amina Mushi"]);
  });

  it("lists at most the limit, and says there are more", async () => {
    for (let i = 0; i < bookingSearchLimit + 2; i++)
      await sell(`Guest Okafor ${"abcdefghijklmnopqrstuvwxyz"[i]}`, `g${i}@example.org`);
    const found = await findBooking(database, "okafor");
    expect(found).toMatchObject({ outcome: "several", more: true });
    expect(found.outcome === "several" && found.matches.length).toBe(bookingSearchLimit);
  });

  it("words its history for people: weekdays in London summer time, plurals, a provider's reference named", async () => {
    const ref = await sell("Amina Mushi", "amina@example.org");
    await database.db.insert(tickets).values({
      ticketHolderName: "Amina Mushi",
      email: "amina@example.org",
      eventId: quiz,
      bookingRef: ref,
      quantity: 2,
      isValid: true,
      dateSold: now,
    });
    await database.db.insert(bookingHistory).values([
      { bookingRef: ref, status: "held", note: "2 seat(s) held until 2026-07-04T18:25:00.000Z", at: now },
      { bookingRef: ref, status: "paid", note: "Payment succeeded", at: new Date("2026-07-04T18:17:30Z") },
      {
        bookingRef: ref,
        status: "refund made",
        note: "The card provider gave back £12.50 (re_offline_0647245f1c)",
        at: new Date("2026-07-05T09:02:00Z"),
      },
    ]);
    const view = await staffBooking(database, ref);
    expect(view!.history).toEqual([
      {
        at: "2026-07-04T18:15:00.000Z",
        when: "Saturday 4 July 2026 at 19:15",
        what: "Seats held",
        note: "2 seats held until Saturday 4 July 2026 at 19:25",
        reference: null,
      },
      {
        at: "2026-07-04T18:17:30.000Z",
        when: "Saturday 4 July 2026 at 19:17",
        what: "Paid",
        note: "Payment succeeded",
        reference: null,
      },
      {
        at: "2026-07-05T09:02:00.000Z",
        when: "Sunday 5 July 2026 at 10:02",
        what: "Refund made",
        note: "The card provider gave back £12.50",
        reference: { label: "Test refund reference", id: "re_offline_0647245f1c" },
      },
    ]);
  });
});

describe("a history line", () => {
  it("is worded in winter (GMT) and summer (BST), one seat or many, Stripe's references named", () => {
    expect(
      historyLine({ status: "held", note: "1 seat(s) held until 2026-11-26T17:37:32.163Z", at: now }, "stripe"),
    ).toMatchObject({
      note: "1 seat held until Thursday 26 November 2026 at 17:37",
      when: "Saturday 4 July 2026 at 19:15",
    });
    expect(
      historyLine(
        { status: "held", note: "2 × Adult, 1 × Table of 8 (10 seats) held until 2026-07-04T18:25:00.000Z", at: now },
        "stripe",
      ).note,
    ).toBe("2 × Adult, 1 × Table of 8 (10 seats) held until Saturday 4 July 2026 at 19:25");
    expect(
      historyLine({ status: "refund made", note: "The card provider gave back £5.00 (re_3Nabc)", at: now }, "stripe"),
    ).toMatchObject({
      note: "The card provider gave back £5.00",
      reference: { label: "Stripe refund", id: "re_3Nabc" },
    });
    expect(
      historyLine({ status: "partly refunded", note: "1 ticket (£12.50) given back", at: now }, "stripe").what,
    ).toBe("Partly refunded");
  });
});
