import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import type { Services } from "../../../server/services";
import type { DatabaseHandle } from "~/infra/db/database.server";
import type { OfflineProvider } from "~/infra/payments/offline.server";
import { amountMessages } from "~/lib/donation-amount";
import { giftAidMessages } from "~/lib/gift-aid-declaration";
import {
  bookings,
  donations,
  events,
  giftAidDeclarations,
  offlineRefunds,
  outbox,
  ticketTypes,
  tickets,
} from "~db/schema";
import { donationsReadyToClaim } from "~/features/donations/gift-aid-claims.server";
import { refundDonation } from "~/features/donations/refunds.server";
import { loadDonationsAndDeclarations } from "~/features/donations/staff-donations.server";
import { action as startBookingRoute } from "~/routes/api.bookings";
import { action as bookingPage } from "~/routes/admin.bookings.ref";
import { action as eventPage } from "~/routes/admin.events.id";
import { action as refundsApi } from "~/routes/api.admin.bookings.ref.refunds";
import { testClock, type TestClock } from "../../../tests/support/clock";
import { engines, freshDatabase, insertEvent } from "../../../tests/support/databases";
import { callRoute, signedInStaff, testServices, type TestServices } from "../../../tests/support/services";
import { refundBooking } from "./refunds.server";
import { resendReceipt } from "./staff-bookings.server";
import { refundCancelledEvent } from "./cancellation.server";
import { settleBooking } from "./settlement.server";

// A gift at checkout (decision 085): a donation added on the booking page, recorded with the booking
// and its Gift Aid declaration, paid by the booking's one payment, and from then on a donation like
// any other; a refund of the tickets leaves it unless staff ask.

const card = { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" };
const giftAid = {
  giftAid: true,
  firstName: "Amina",
  surname: "Mushi",
  houseNameOrNumber: "12",
  postcode: "hr8 1aa",
  scope: "this-donation",
};

describe.each(engines)("a gift at checkout on %s", (engine) => {
  let database: DatabaseHandle;
  let clock: TestClock;
  let services: TestServices;
  let site: Services;
  let eventId: string;
  let staff: { id: string; email: string };
  let cookie: string;

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-11-27T10:00:00Z");
    services = await testServices(database, clock);
    site = await services.request();
    eventId = await insertEvent(database.db, { name: "Ceilidh", totalAvailableTickets: 40 }, clock.now());
    ({ staff, cookie } = await signedInStaff(database.db, clock.now()));
  });
  afterEach(() => services.close());

  /** POST /api/bookings as the booking page sends it: 2 tickets at £12.50 and what `extra` adds. */
  async function start(extra: Record<string, unknown>) {
    const request = new Request("http://localhost/api/bookings", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ eventId, name: "Amina Mushi", email: "amina@example.org", quantity: 2, ...extra }),
    });
    const response = (await callRoute(startBookingRoute, request, site)) as Response;
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  async function bookAndPay(extra: Record<string, unknown>) {
    const { status, body } = await start(extra);
    expect(status).toBe(201);
    const ref = body.bookingRef as string;
    expect((await (site.payments as OfflineProvider).confirmCard(body.clientSecret as string, card)).error).toBeFalsy();
    expect(await settleBooking(site, ref)).toMatchObject({ outcome: "paid" });
    return { ref, body };
  }
  const giftOf = async (ref: string) =>
    (await database.db.select().from(donations).where(eq(donations.bookingRef, ref)))[0]!;
  const bookingOf = async (ref: string) =>
    (await database.db.select().from(bookings).where(eq(bookings.bookingRef, ref)))[0]!;
  const refundedAtProvider = async (ref: string) => {
    const paymentId = (await bookingOf(ref)).providerPaymentId!;
    const rows = await database.db.select().from(offlineRefunds).where(eq(offlineRefunds.paymentId, paymentId));
    return rows.map((row) => row.amountPence).sort((a, b) => a - b);
  };
  async function staffForm(
    action: (args: never) => Promise<unknown>,
    path: string,
    fields: Record<string, string>,
    params: Record<string, string>,
  ) {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    const request = new Request(`http://localhost${path}`, { method: "POST", body: form, headers: { cookie } });
    const answer = (await callRoute(action, request, await services.request(), { params }).catch(
      (thrown: unknown) => thrown,
    )) as unknown;
    return (typeof answer === "object" && answer !== null && "data" in answer ? answer.data : answer) as {
      ok?: boolean;
      message?: string;
    };
  }

  it("records the gift with its Gift Aid declaration beside the booking, and one payment takes both", async () => {
    const { status, body } = await start({ donationAmount: "10", ...giftAid });
    expect(status).toBe(201);
    // The payment is for the tickets (2 × £12.50 and the fee) and the gift; the booking keeps the tickets' total.
    expect(body.amountPence).toBe(2549 + 1000);
    const ref = body.bookingRef as string;
    expect(await bookingOf(ref)).toMatchObject({ amountPence: 2549, status: "held" });
    const gift = await giftOf(ref);
    expect(gift).toMatchObject({
      amountPence: 1000,
      status: "pending",
      donorName: "Amina Mushi",
      email: "amina@example.org",
    });
    const [declaration] = await database.db
      .select()
      .from(giftAidDeclarations)
      .where(eq(giftAidDeclarations.donationId, gift.id));
    expect(declaration).toMatchObject({
      firstName: "Amina",
      surname: "Mushi",
      postcode: "HR8 1AA",
      scope: "this-donation",
    });
    expect(declaration!.wording).toContain("I want to Gift Aid my donation of £10.00 to");
    const payment = await site.payments.retrievePayment((await bookingOf(ref)).providerPaymentId!);
    expect(payment.amountPence).toBe(3549);
  });

  it("marks the gift paid with the booking, from the one payment, and lists it apart on the one receipt", async () => {
    const { ref } = await bookAndPay({ donationAmount: "10", ...giftAid });
    const booking = await bookingOf(ref);
    const gift = await giftOf(ref);
    expect(booking.status).toBe("paid");
    expect(gift).toMatchObject({ status: "paid", providerPaymentId: booking.providerPaymentId, cardLast4: "4242" });
    expect(gift.paidAt!.getTime()).toBe(booking.paidAt!.getTime());
    // One e-mail for the booking: the tickets, then the donation apart with its Gift Aid words.
    const mails = await database.db.select().from(outbox);
    expect(mails.map((mail) => mail.kind)).toEqual(["booking-receipt"]);
    const text = String(mails[0]!.payload.text);
    expect(text).toContain(
      "Tickets: 2 × £12.50 = £25.00\nBooking fee: £0.49\nTickets total: £25.49\nYour donation: £10.00\nTotal paid: £35.49",
    );
    expect(text).toMatch(
      /Your donation\n+Thank you for your donation of £10\.00 to .*: a gift, apart from your tickets\./,
    );
    expect(text).toContain('Gift Aid: you declared, "I want to Gift Aid my donation of £10.00 to');
    // Sent again by staff, the receipt still lists the gift apart.
    await resendReceipt(site, staff, ref);
    const [again] = await database.db.select().from(outbox).where(eq(outbox.kind, "receipt-sent-again"));
    expect(String(again!.payload.text)).toContain("Your donation: £10.00\nTotal paid: £35.49");
    // A donation like any other: on the staff list, and in the next Gift Aid claim.
    const { donations: listed } = await loadDonationsAndDeclarations(database.db);
    expect(listed.map((d) => d.id)).toEqual([gift.id]);
    const claimable = await donationsReadyToClaim(site);
    expect(claimable.map((d) => [d.donationId, d.amountPence, d.row[4]])).toEqual([[gift.id, 1000, "HR8 1AA"]]);
  });

  it("refuses a gift amount or a Gift Aid declaration that is not right, and holds nothing", async () => {
    const small = await start({ donationAmount: "0.50" });
    expect(small.status).toBe(400);
    expect(small.body.fields).toEqual({ donationAmount: amountMessages.tooSmall });
    const words = await start({ donationAmount: "ten" });
    expect(words.body.fields).toEqual({ donationAmount: amountMessages.invalid });
    const postcode = await start({ donationAmount: "10", ...giftAid, postcode: "nowhere" });
    expect(postcode.status).toBe(400);
    expect(postcode.body.fields).toEqual({ postcode: giftAidMessages.postcode });
    expect(await database.db.select().from(bookings)).toEqual([]);
    expect(await database.db.select().from(donations)).toEqual([]);
    // No amount is no gift: the booking as before.
    const none = await start({ donationAmount: "  ", ...giftAid });
    expect(none.status).toBe(201);
    expect(none.body.amountPence).toBe(2549);
    expect(await database.db.select().from(donations)).toEqual([]);
  });

  it("free tickets with a gift are paid by card for the gift alone", async () => {
    await database.db.update(ticketTypes).set({ pricePence: 0 }).where(eq(ticketTypes.eventId, eventId));
    await database.db.update(events).set({ ticketCostPence: 0 }).where(eq(events.id, eventId));
    const { status, body } = await start({ donationAmount: "5" });
    expect(status).toBe(201);
    expect(body).toMatchObject({ amountPence: 500 });
    expect(body.free).toBeUndefined();
    const ref = body.bookingRef as string;
    expect(await giftOf(ref)).toMatchObject({ status: "pending" });
    await (site.payments as OfflineProvider).confirmCard(body.clientSecret as string, card);
    expect(await settleBooking(site, ref)).toMatchObject({ outcome: "paid" });
    expect(await giftOf(ref)).toMatchObject({ status: "paid" });
    expect((await bookingOf(ref)).amountPence).toBe(0);
  });

  it("a refund of the tickets leaves the gift; ticked, the staff form refunds it too, each its own part", async () => {
    const first = await bookAndPay({ donationAmount: "10", ...giftAid });
    await refundBooking(site, staff, first.ref, { quantity: 2, reason: "Ill", key: crypto.randomUUID() });
    expect(await bookingOf(first.ref)).toMatchObject({ status: "refunded", refundedPence: 2549 });
    expect(await giftOf(first.ref)).toMatchObject({ status: "paid" });
    expect(await refundedAtProvider(first.ref)).toEqual([2549]);

    const second = await bookAndPay({ donationAmount: "10", email: "bea@example.org", name: "Bea Lowe" });
    const answer = await staffForm(
      bookingPage,
      `/admin/bookings/${second.ref}`,
      { intent: "refund", quantity: "2", reason: "Cannot come", key: crypto.randomUUID(), refundDonation: "on" },
      { bookingRef: second.ref },
    );
    expect(answer.message).toContain("The donation of £10.00 is refunded too.");
    expect(await giftOf(second.ref)).toMatchObject({ status: "refunded" });
    expect(await refundedAtProvider(second.ref)).toEqual([1000, 2549]);
  });

  it("the staff API refunds the donation with the tickets when asked, as the form does, and only for who may refund donations", async () => {
    const { ref } = await bookAndPay({ donationAmount: "10", ...giftAid });
    const refundByApi = async (as: string, extra: Record<string, unknown>) => {
      const request = new Request(`http://localhost/api/admin/bookings/${ref}/refunds`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: as },
        body: JSON.stringify({ quantity: 1, reason: "Cannot come", key: crypto.randomUUID(), ...extra }),
      });
      const response = (await callRoute(refundsApi, request, await services.request(), {
        params: { bookingRef: ref },
      })) as Response;
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    // An Events member may refund tickets, not donations: refused before anything is refunded.
    const events = await signedInStaff(database.db, clock.now(), { email: "events@example.org", role: "events" });
    const refused = await refundByApi(events.cookie, { refundDonation: true });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe("Only a member of staff who may refund donations can refund the donation too.");
    expect(await refundedAtProvider(ref)).toEqual([]);
    // Without the choice, a ticket refund leaves the gift.
    expect((await refundByApi(events.cookie, {})).status).toBe(201);
    expect(await giftOf(ref)).toMatchObject({ status: "paid" });
    // A Treasurer asks for it: the gift's own refund, its own part of the payment.
    const treasurer = await signedInStaff(database.db, clock.now(), { email: "money@example.org", role: "treasurer" });
    const both = await refundByApi(treasurer.cookie, { refundDonation: true });
    expect(both.status).toBe(201);
    expect(both.body.donationRefund).toEqual({
      donationId: (await giftOf(ref)).id,
      amountPence: 1000,
      outcome: "refunded",
    });
    expect(await giftOf(ref)).toMatchObject({ status: "refunded" });
    expect(await refundedAtProvider(ref)).toEqual([1000, 1250, 1299]);
  });

  it("refunding the donation from its own page gives back its part of the payment only", async () => {
    const { ref } = await bookAndPay({ donationAmount: "10", ...giftAid });
    const gift = await giftOf(ref);
    const done = await refundDonation(site, staff, { donationId: gift.id, key: crypto.randomUUID(), reason: "Asked" });
    expect(done.outcome).toBe("refunded");
    expect(await refundedAtProvider(ref)).toEqual([1000]);
    expect(await giftOf(ref)).toMatchObject({ status: "refunded" });
    // The tickets stand, and can still be refunded in full: never more than was taken in all.
    const [ticket] = await database.db.select().from(tickets).where(eq(tickets.bookingRef, ref));
    expect(ticket!.isValid).toBe(true);
    await refundBooking(site, staff, ref, { quantity: 2, reason: "Ill", key: crypto.randomUUID() });
    expect(await refundedAtProvider(ref)).toEqual([1000, 2549]);
    // Refunded, it is never claimed.
    expect(await donationsReadyToClaim(site)).toEqual([]);
  });

  it("cancelling the event refunds the tickets and keeps the gifts, unless staff tick the box", async () => {
    const kept = await bookAndPay({ donationAmount: "10" });
    const other = await insertEvent(database.db, { name: "Golf day", totalAvailableTickets: 40 }, clock.now());
    const keptEvent = eventId;
    eventId = other;
    const given = await bookAndPay({ donationAmount: "20", email: "bea@example.org", name: "Bea Lowe" });

    await staffForm(eventPage, `/admin/events/${keptEvent}`, { intent: "cancel", reason: "Storm" }, { id: keptEvent });
    await refundCancelledEvent(site, keptEvent);
    expect(await bookingOf(kept.ref)).toMatchObject({ status: "refunded" });
    expect(await giftOf(kept.ref)).toMatchObject({ status: "paid" });
    expect(await refundedAtProvider(kept.ref)).toEqual([2549]);

    await staffForm(
      eventPage,
      `/admin/events/${other}`,
      { intent: "cancel", reason: "Flooded", refundDonations: "on" },
      { id: other },
    );
    await refundCancelledEvent(site, other);
    expect(await giftOf(given.ref)).toMatchObject({ status: "refunded" });
    expect(await refundedAtProvider(given.ref)).toEqual([2000, 2549]);
  });

  it("a gift whose hold is given up is cancelled; one paid after its seats had gone is refunded with them", async () => {
    const { body } = await start({ donationAmount: "10" });
    const ref = body.bookingRef as string;
    await site.payments.cancelPayment((await bookingOf(ref)).providerPaymentId!);
    const { releaseUnpaidHold } = await import("./release.server");
    expect(await releaseUnpaidHold(site, ref, "left")).toBe("released");
    expect(await giftOf(ref)).toMatchObject({ status: "cancelled" });

    // Paid, but only after the event was cancelled: the whole payment goes back, the gift with it.
    const late = await start({ donationAmount: "10", email: "late@example.org" });
    const lateRef = late.body.bookingRef as string;
    await (site.payments as OfflineProvider).confirmCard(late.body.clientSecret as string, card);
    await database.db.update(events).set({ cancelledAt: clock.now() }).where(eq(events.id, eventId));
    expect(await settleBooking(site, lateRef)).toMatchObject({ outcome: "refunded" });
    expect(await giftOf(lateRef)).toMatchObject({ status: "refunded" });
    expect(await refundedAtProvider(lateRef)).toEqual([3549]);
    expect(
      await database.db
        .select()
        .from(donations)
        .where(and(eq(donations.bookingRef, lateRef), eq(donations.status, "paid"))),
    ).toEqual([]);
  });
});
