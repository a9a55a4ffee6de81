import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { and, asc, eq } from "drizzle-orm";
import type { DatabaseHandle } from "~/infra/db/database.server";
import type { OfflineProvider } from "~/infra/payments/offline.server";
import {
  auditLog,
  bookingAnswers,
  bookingItems,
  bookings,
  eventQuestions,
  events,
  ticketTypes,
  waitingListEntries,
  waitingListOffers,
} from "~db/schema";
import { testClock, type TestClock } from "../../../tests/support/clock";
import { engines, freshDatabase, insertEvent } from "../../../tests/support/databases";
import { callRoute, signedInStaff, testServices, type TestServices } from "../../../tests/support/services";
import { TestSmtpServer } from "../../../tests/support/smtp";
import type { Services } from "../../../server/services";
import { action as joinApi } from "~/routes/api.waiting-list";
import { action as joinPage } from "~/routes/fundraising-event.waiting-list";
import { action as payOfferApi } from "~/routes/api.waiting-list.offer";
import { action as declinePage } from "~/routes/waiting-list.decline";
import { action as releaseApi } from "~/routes/api.bookings.ref.release";
import { action as refundApi } from "~/routes/api.admin.bookings.ref.refunds";
import { action as listAction, loader as listLoader } from "~/routes/admin.events.id.waiting-list";
import { startBooking } from "./checkout.server";
import { settleBooking } from "./settlement.server";
import { offerFreedSeats, sweepWaitingLists } from "./waiting-list.server";
import { waitingListMessages } from "./waiting-list";

// The waiting list (docs/decisions/086-a-waiting-list.md), against the real handlers: joining, the
// offers made when seats come back, and what becomes of them.

const card = { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" };
const hour = 3_600_000;

let smtp: TestSmtpServer;
beforeAll(async () => {
  smtp = await new TestSmtpServer().start();
});
afterAll(() => smtp.stop());

describe.each(engines)("the waiting list on %s", (engine) => {
  let database: DatabaseHandle;
  let clock: TestClock;
  let site: TestServices;
  let services: Services;
  let eventId: string;
  let cookie: string;
  let plainType: string;
  let ip = 0;

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-07-01T10:00:00Z");
    site = await testServices(database, clock, { SMTP_URL: smtp.url });
    services = await site.request();
    eventId = await insertEvent(database.db, { totalAvailableTickets: 4 }, clock.now());
    cookie = (await signedInStaff(database.db, clock.now())).cookie;
    plainType = (
      await database.db.select({ id: ticketTypes.id }).from(ticketTypes).where(eq(ticketTypes.eventId, eventId))
    )[0]!.id;
    smtp.received.length = 0;
  });
  afterEach(() => site.close());

  const join = async (body: Record<string, unknown>) => {
    const answer = (await callRoute(
      joinApi,
      new Request("http://localhost/api/waiting-list", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ eventId, ...body }),
      }),
      services,
      // Each join from an address of its own: the limit per address is not what these tests are about.
      { clientAddress: `198.51.100.${++ip}` },
    )) as Response;
    return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
  };
  const names = ["", "Ada Smith", "Ben Smith", "Cara Smith"];
  const person = (n: number, tickets = 2) => ({ name: names[n]!, email: `person${n}@example.org`, tickets });
  const buy = async (quantity: number, n = 0) => {
    const started = await startBooking(services, {
      eventId,
      name: "Amina Mushi",
      email: `buyer${n}@example.org`,
      tickets: { [plainType]: quantity },
    });
    await (services.payments as OfflineProvider).confirmCard(started.clientSecret, card);
    expect((await settleBooking(services, started.bookingRef)).outcome).toBe("paid");
    return started.bookingRef;
  };
  const refund = async (bookingRef: string, quantity: number) => {
    const answer = (await callRoute(
      refundApi,
      new Request(`http://localhost/api/admin/bookings/${bookingRef}/refunds`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Cookie: cookie },
        body: JSON.stringify({ quantity, reason: "Cannot come", key: crypto.randomUUID() }),
      }),
      services,
      { params: { bookingRef } },
    )) as Response;
    expect(answer.status).toBe(201);
  };
  const entries = () =>
    database.db
      .select()
      .from(waitingListEntries)
      .where(eq(waitingListEntries.eventId, eventId))
      .orderBy(asc(waitingListEntries.joinedAt));
  const offers = () =>
    database.db
      .select({ offer: waitingListOffers, email: waitingListEntries.email })
      .from(waitingListOffers)
      .innerJoin(waitingListEntries, eq(waitingListEntries.id, waitingListOffers.entryId))
      .where(eq(waitingListOffers.eventId, eventId))
      .orderBy(asc(waitingListOffers.createdAt));
  /** The offer e-mail's link, as the person reads it (delivered to the loopback SMTP server). */
  const offerToken = async (email: string) => {
    await services.outbox.deliverDue();
    const mail = smtp.sentTo(email).at(-1);
    expect(mail?.subject).toMatch(/are yours to book/);
    const token = /book-event\/[0-9a-f-]+\?offer=([A-Za-z0-9_-]+)/.exec(mail!.text ?? "")?.[1];
    expect(token).toBeTruthy();
    expect(mail!.text).toContain(`/waiting-list/decline?offer=${token}`);
    return token!;
  };
  const soldOut = async () => {
    const refs = [await buy(2, 1), await buy(2, 2)];
    return refs;
  };

  it("takes a name, an address and a number of tickets once sold out; joining again updates the entry and keeps its place", async () => {
    const early = await join(person(1));
    expect(early.status).toBe(409);
    expect(early.body.error).toBe(waitingListMessages.onSale);
    await soldOut();
    expect((await join(person(1))).status).toBe(201);
    clock.advance(60_000);
    expect((await join(person(2, 1))).status).toBe(201);
    clock.advance(60_000);
    const again = await join({ ...person(1, 3), email: "PERSON1@example.org", name: "Ada Jones" });
    expect(again.status).toBe(200);
    expect(again.body.message).toMatch(/place on the waiting list .* is kept, now for 3 tickets/);
    const list = await entries();
    expect(list.map((e) => [e.name, e.email, e.tickets, e.state])).toEqual([
      ["Ada Jones", "person1@example.org", 3, "waiting"],
      ["Ben Smith", "person2@example.org", 1, "waiting"],
    ]);
    const refused = await join({ name: "", email: "not an address", tickets: 40 });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.fields as object).sort()).toEqual(["email", "name", "tickets"]);
    expect(await entries()).toHaveLength(2);
  });

  it("joins through the event page's form, without JavaScript, and says so", async () => {
    await soldOut();
    const form = new URLSearchParams({ name: "Amina Mushi", email: "amina@example.org", tickets: "2" });
    const answer = (await callRoute(
      joinPage,
      new Request(`http://localhost/fundraising-event/${eventId}/waiting-list`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: form,
      }),
      services,
      { params: { id: eventId } },
    )) as { data: { ok: boolean; message: string } };
    expect(answer.data.ok).toBe(true);
    expect(answer.data.message).toMatch(/You are on the waiting list for Quiz Night \(2 tickets\)/);
    expect(await entries()).toHaveLength(1);
  });

  it("offers seats a refund frees to the first person whose request fits, holding them from everyone else", async () => {
    const [first] = await soldOut();
    await join(person(1, 3));
    clock.advance(60_000);
    await join(person(2, 2));
    await refund(first!, 2);
    // Person 1 asked for 3: too many for the 2 freed; Person 2 fits and is offered them, Person 1 keeps their place.
    const made = await offers();
    expect(made.map(({ offer, email }) => [email, offer.tickets, offer.state])).toEqual([
      ["person2@example.org", 2, "open"],
    ]);
    expect(made[0]!.offer.expiresAt.getTime()).toBe(clock.now().getTime() + 24 * hour);
    expect((await entries()).map((e) => e.state)).toEqual(["waiting", "offered"]);
    expect(made[0]!.offer.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    await offerToken("person2@example.org");
    // Nobody else can buy the seats the offer holds.
    await expect(
      startBooking(services, { eventId, name: "Someone Else", email: "else@example.org", quantity: 1 }),
    ).rejects.toThrow(/reserved|sold out/i);
  });

  it("passes an offer that runs out to the next person who fits, and never back", async () => {
    const [first] = await soldOut();
    await join(person(1, 2));
    clock.advance(60_000);
    await join(person(2, 2));
    await refund(first!, 2);
    expect((await offers()).map(({ email }) => email)).toEqual(["person1@example.org"]);
    clock.advance(24 * hour + 1_000);
    // The server's periodic work notices without a request.
    expect(await sweepWaitingLists(services)).toBe(1);
    let made = await offers();
    expect(made.map(({ email, offer }) => [email, offer.state])).toEqual([
      ["person1@example.org", "expired"],
      ["person2@example.org", "open"],
    ]);
    clock.advance(24 * hour + 1_000);
    await sweepWaitingLists(services);
    made = await offers();
    // Person 2's ran out too, and nobody is left waiting: it does not go back to Person 1.
    expect(made.map(({ email, offer }) => [email, offer.state])).toEqual([
      ["person1@example.org", "expired"],
      ["person2@example.org", "expired"],
    ]);
    expect((await entries()).map((e) => e.state)).toEqual(["passed", "passed"]);
    const [held] = await database.db
      .select({ status: bookings.status })
      .from(bookings)
      .where(eq(bookings.bookingRef, made[0]!.offer.bookingRef));
    expect(held!.status).toBe("cancelled");
  });

  it("passes a declined offer on at once", async () => {
    const [first] = await soldOut();
    await join(person(1, 2));
    clock.advance(60_000);
    await join(person(2, 1));
    await refund(first!, 1);
    // One seat: Person 1 wants 2, so Person 2 (1) is offered it. Person 2 declines.
    const token = await offerToken("person2@example.org");
    const declined = (await callRoute(
      declinePage,
      new Request("http://localhost/waiting-list/decline", {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ offer: token }),
      }),
      services,
    )) as { data: { ok: boolean } };
    expect(declined.data.ok).toBe(true);
    expect((await offers()).map(({ email, offer }) => [email, offer.state])).toEqual([
      ["person2@example.org", "declined"],
    ]);
    // A second seat comes back: Person 1 (2) now fits and is offered both, Person 2 nothing again.
    const [second] = await database.db.select().from(bookings).where(eq(bookings.email, "buyer2@example.org"));
    await refund(second!.bookingRef, 1);
    expect((await offers()).map(({ email, offer }) => [email, offer.state, offer.tickets])).toEqual([
      ["person2@example.org", "declined", 1],
      ["person1@example.org", "open", 2],
    ]);
  });

  it("makes no offer once the sale has closed, and none that outlasts it", async () => {
    const [first, second] = await soldOut();
    const saleEnd = new Date(clock.now().getTime() + 2 * hour);
    await database.db.update(events).set({ ticketSaleExpiry: saleEnd }).where(eq(events.id, eventId));
    await join(person(1, 1));
    clock.advance(60_000);
    await join(person(2, 1));
    await refund(first!, 1);
    const [offer] = await offers();
    // 24 hours would outlast the sale: the offer ends with it.
    expect(offer!.offer.expiresAt).toEqual(saleEnd);
    clock.advance(3 * hour);
    await refund(second!, 1);
    await sweepWaitingLists(services);
    expect((await offers()).map(({ email, offer }) => [email, offer.state])).toEqual([
      ["person1@example.org", "expired"],
    ]);
    expect((await entries()).map((e) => e.state)).toEqual(["passed", "waiting"]);
  });

  it("keeps the place of someone waiting for a type that has ended, and serves those behind them", async () => {
    const now = clock.now();
    const [early] = await database.db
      .insert(ticketTypes)
      .values({
        eventId,
        name: "Early bird",
        pricePence: 800,
        position: 1,
        saleUntil: new Date(now.getTime() + hour),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const [first] = await soldOut();
    await join({ ...person(1, 1), ticketTypeId: early!.id });
    clock.advance(60_000);
    await join({ ...person(2, 1), ticketTypeId: "any" });
    clock.advance(2 * hour);
    await refund(first!, 1);
    expect((await offers()).map(({ email, offer }) => [email, offer.ticketTypeId])).toEqual([
      ["person2@example.org", plainType],
    ]);
    expect((await entries()).map((e) => [e.email, e.state])).toEqual([
      ["person1@example.org", "waiting"],
      ["person2@example.org", "offered"],
    ]);
  });

  it("offers the seats of a checkout that ran out, noticed by the server's periodic work", async () => {
    await buy(2, 1);
    const started = await startBooking(services, {
      eventId,
      name: "Neema Mollel",
      email: "neema@example.org",
      tickets: { [plainType]: 2 },
    });
    await join(person(1, 2));
    expect(await offers()).toEqual([]);
    // Past the hold and its settling window: the sweep of expired holds would free it; the count already does.
    clock.advance(26 * 60_000);
    expect(await sweepWaitingLists(services)).toBe(1);
    expect((await offers()).map(({ email }) => email)).toEqual(["person1@example.org"]);
    expect(started.bookingRef).toBeTruthy();
  });

  it("offers the seats of a checkout the visitor gives up at once, and a release with nobody waiting offers nothing", async () => {
    await buy(2, 1);
    const hold = () =>
      startBooking(services, {
        eventId,
        name: "Neema Mollel",
        email: "neema@example.org",
        tickets: { [plainType]: 2 },
      });
    const release = async (started: { bookingRef: string; clientSecret: string }) => {
      const answer = (await callRoute(
        releaseApi,
        new Request(`http://localhost/api/bookings/${started.bookingRef}/release`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ clientSecret: started.clientSecret, reason: "left" }),
        }),
        services,
        { params: { bookingRef: started.bookingRef } },
      )) as Response;
      expect(await answer.json()).toEqual({ status: "released" });
    };
    // Nobody waiting: the seats simply go back on sale.
    await release(await hold());
    expect(await offers()).toEqual([]);

    const started = await hold();
    await join(person(1, 2));
    expect(await offers()).toEqual([]);
    // The visitor leaves the booking page: the seats are offered without waiting for the sweep.
    await release(started);
    expect((await offers()).map(({ email }) => email)).toEqual(["person1@example.org"]);
  });

  it("makes one offer when two processes match at once", async () => {
    const [first] = await soldOut();
    await join(person(1, 2));
    clock.advance(60_000);
    await join(person(2, 2));
    // The refund's own matching is what the race is about: free the seats behind its back.
    await database.db.update(events).set({ totalAvailableTickets: 6 }).where(eq(events.id, eventId));
    const made = await Promise.all([offerFreedSeats(services, eventId), offerFreedSeats(services, eventId)]);
    expect(made.sort()).toEqual([0, 1]);
    expect((await offers()).map(({ email }) => email)).toEqual(["person1@example.org"]);
    expect(first).toBeTruthy();
  });

  it("books exactly the offered tickets through the offer's link", async () => {
    const child = await database.db
      .insert(ticketTypes)
      .values({ eventId, name: "Child", pricePence: 500, position: 1, createdAt: clock.now(), updatedAt: clock.now() })
      .returning();
    const childId = child[0]!.id;
    const [first] = await soldOut();
    await join({ ...person(1, 2), ticketTypeId: childId });
    await refund(first!, 2);
    const token = await offerToken("person1@example.org");
    const answer = (await callRoute(
      payOfferApi,
      new Request("http://localhost/api/waiting-list/offer", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ offer: token }),
      }),
      services,
    )) as Response;
    expect(answer.status).toBe(201);
    const started = (await answer.json()) as { bookingRef: string; clientSecret: string; amountPence: number };
    expect(started.amountPence).toBe(2 * 500 + 49);
    await (services.payments as OfflineProvider).confirmCard(started.clientSecret, card);
    expect((await settleBooking(services, started.bookingRef)).outcome).toBe("paid");
    const [booking] = await database.db.select().from(bookings).where(eq(bookings.bookingRef, started.bookingRef));
    expect(booking).toMatchObject({ status: "paid", quantity: 2, email: "person1@example.org", amountPence: 1049 });
    const items = await database.db.select().from(bookingItems).where(eq(bookingItems.bookingRef, started.bookingRef));
    expect(items.map((i) => [i.ticketTypeId, i.quantity])).toEqual([[childId, 2]]);
    await sweepWaitingLists(services);
    expect((await offers()).map(({ offer }) => offer.state)).toEqual(["accepted"]);
    expect((await entries()).map((e) => e.state)).toEqual(["booked"]);
    // The link is spent.
    const again = (await callRoute(
      payOfferApi,
      new Request("http://localhost/api/waiting-list/offer", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ offer: token }),
      }),
      services,
    )) as Response;
    expect(again.status).toBe(409);
  });

  it("asks the event's questions of an offer's tickets and keeps the answers with its booking", async () => {
    const [first] = await soldOut();
    const at = () => ({ createdAt: clock.now(), updatedAt: clock.now() });
    const [meal, diet] = await database.db
      .insert(eventQuestions)
      .values([
        { ...at(), eventId, question: "Meal", answerType: "choice", choices: ["Beef", "Fish"], required: true },
        {
          ...at(),
          eventId,
          question: "Dietary needs",
          answerType: "text",
          required: true,
          perAttendee: true,
          position: 1,
        },
      ])
      .returning({ id: eventQuestions.id });
    await join(person(1, 2));
    await refund(first!, 2);
    const token = await offerToken("person1@example.org");
    const pay = async (body: Record<string, unknown>) => {
      const answer = (await callRoute(
        payOfferApi,
        new Request("http://localhost/api/waiting-list/offer", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ offer: token, ...body }),
        }),
        services,
      )) as Response;
      return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
    };
    // Unanswered, or answered for one attendee of two: refused, field by field, and no payment asked for.
    const refused = await pay({ answers: { [diet!.id]: ["Vegan"] } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: "Please answer the questions marked below." });
    expect(Object.keys(refused.body.fields as object).sort()).toEqual(
      [`answers.${diet!.id}.2`, `answers.${meal!.id}`].sort(),
    );
    const [held] = await database.db.select().from(bookings).where(eq(bookings.status, "held"));
    expect(held!.providerPaymentId).toBeNull();
    // Answered: paid for, with its answers; given again on a second try, the latest are kept.
    const answers = { [meal!.id]: "Beef", [diet!.id]: ["Vegan", "None"] };
    expect((await pay({ answers })).status).toBe(201);
    const started = await pay({ answers: { ...answers, [meal!.id]: "Fish" } });
    expect(started.status).toBe(201);
    const bookingRef = started.body.bookingRef as string;
    await (services.payments as OfflineProvider).confirmCard(started.body.clientSecret as string, card);
    expect((await settleBooking(services, bookingRef)).outcome).toBe("paid");
    const stored = await database.db
      .select({
        questionId: bookingAnswers.questionId,
        attendee: bookingAnswers.attendee,
        answer: bookingAnswers.answer,
      })
      .from(bookingAnswers)
      .where(eq(bookingAnswers.bookingRef, bookingRef))
      .orderBy(asc(bookingAnswers.questionId), asc(bookingAnswers.attendee));
    expect(stored).toEqual(
      [
        { questionId: meal!.id, attendee: 0, answer: "Fish" },
        { questionId: diet!.id, attendee: 1, answer: "Vegan" },
        { questionId: diet!.id, attendee: 2, answer: "None" },
      ].sort((a, b) => a.questionId.localeCompare(b.questionId) || a.attendee - b.attendee),
    );
    // The receipt lists them, as any booking's.
    await services.outbox.deliverDue();
    const receipt = smtp.sentTo("person1@example.org").find((mail) => /Your booking for/.test(mail.subject ?? ""));
    expect(receipt?.text).toContain("Fish");
    expect(receipt?.text).toContain("Vegan");
  });

  it("shows staff the list in order, and Remove withdraws an offer, passes it on and is audit logged", async () => {
    const [first] = await soldOut();
    await join(person(1, 2));
    clock.advance(60_000);
    await join(person(2, 2));
    await refund(first!, 2);
    const page = (await callRoute(
      listLoader,
      new Request(`http://localhost/admin/events/${eventId}/waiting-list`, { headers: { Cookie: cookie } }),
      services,
      { params: { id: eventId } },
    )) as {
      entries: { name: string; place: number | null; tickets: number; state: string; offers: { state: string }[] }[];
    };
    expect(page.entries.map((e) => [e.place, e.name, e.tickets, e.state, e.offers.map((o) => o.state)])).toEqual([
      [1, "Ada Smith", 2, "offered", ["open"]],
      [2, "Ben Smith", 2, "waiting", []],
    ]);
    const [entry] = await entries();
    await callRoute(
      listAction,
      new Request(`http://localhost/admin/events/${eventId}/waiting-list`, {
        method: "POST",
        headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: `remove ${entry!.id}` }),
      }),
      services,
      { params: { id: eventId } },
    );
    expect((await offers()).map(({ email, offer }) => [email, offer.state])).toEqual([
      ["person1@example.org", "withdrawn"],
      ["person2@example.org", "open"],
    ]);
    const audit = await database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "waiting-list.removed"), eq(auditLog.subject, `event:${eventId}`)));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.summary).not.toMatch(/Smith|@/);
  });
});
