import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { and, asc, eq, sql } from "drizzle-orm";
import type { DatabaseHandle } from "~/infra/db/database.server";
import type { OfflineProvider } from "~/infra/payments/offline.server";
import type { PaymentDeps } from "~/infra/payments/provider.server";
import { takenByType } from "~/infra/db/seats.server";
import { mailKey } from "~/infra/email/mail-kinds";
import { auditLog, bookingItems, bookings, outbox, promoCodes, tickets, ticketTypes } from "~db/schema";
import { testClock, type TestClock } from "../../../tests/support/clock";
import { engines, freshDatabase, insertEvent } from "../../../tests/support/databases";
import { callRoute, signedInStaff, testServices, type TestServices } from "../../../tests/support/services";
import { action as startBookingRoute } from "~/routes/api.bookings";
import { loader as bookingPage } from "~/routes/book-event";
import { action as newCodeAction } from "~/routes/admin.codes.new";
import { action as codeAction, loader as codePage } from "~/routes/admin.codes.id";
import { loader as codesPage } from "~/routes/admin.codes._index";
import { adultTicketEvent, type AdultTicketEvent } from "../../../tests/support/ticket-types";
import { startBooking } from "./checkout.server";
import { refundBooking } from "./refunds.server";
import { settleBooking } from "./settlement.server";
import { promoMessages } from "./promo-pricing";

// Promo codes (decision 084) through the real checkout, the booking page's loader and the staff
// pages: percent, fixed and free, limited to types, expired, used up, a hidden type revealed, the
// last use raced for, a complimentary booking and a refund of a discounted ticket.

const card = { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" };
const buyer = (i: number) => ({ name: "Amina Mushi", email: `buyer${i}@example.org` });

describe.each(engines)("promo codes on %s", (engine) => {
  let database: DatabaseHandle;
  let payments: OfflineProvider;
  let deps: PaymentDeps;
  let clock: TestClock;
  let eventId: string;
  let adult: string;

  let addType: AdultTicketEvent["addType"];

  beforeEach(async () => {
    ({ database, clock, payments, deps, eventId, adult, addType } = await adultTicketEvent(engine, 20));
  });
  afterEach(() => database.close());
  const addCode = async (
    values: Partial<typeof promoCodes.$inferInsert> & Pick<typeof promoCodes.$inferInsert, "code" | "kind">,
  ) => {
    const [row] = await database.db
      .insert(promoCodes)
      .values({
        eventId,
        createdByEmail: "trustee@example.org",
        createdAt: clock.now(),
        updatedAt: clock.now(),
        ...values,
      })
      .returning();
    return row!;
  };
  const pay = async (started: { bookingRef: string; clientSecret: string }) => {
    await payments.confirmCard(started.clientSecret, card);
    return settleBooking(deps, started.bookingRef);
  };
  const bookingOf = async (ref: string) =>
    (await database.db.select().from(bookings).where(eq(bookings.bookingRef, ref)))[0]!;
  const itemsOf = async (ref: string) =>
    database.db
      .select({
        typeId: bookingItems.ticketTypeId,
        quantity: bookingItems.quantity,
        pricePence: bookingItems.pricePence,
      })
      .from(bookingItems)
      .where(eq(bookingItems.bookingRef, ref))
      .orderBy(asc(bookingItems.pricePence));

  it("takes a percentage off each ticket, typed in any case; the fee stays once; the items keep the prices paid", async () => {
    const code = await addCode({ code: "SAVE20", kind: "percent", percentOff: 20 });
    const started = await startBooking(deps, { eventId, ...buyer(1), quantity: 2, promoCode: " save20 " });
    expect(started.amountPence).toBe(2 * 1000 + 49);
    expect(await bookingOf(started.bookingRef)).toMatchObject({ promoCodeId: code.id, discountPence: 500 });
    expect(await itemsOf(started.bookingRef)).toEqual([{ typeId: adult, quantity: 2, pricePence: 1000 }]);
    // Without a code, the same tickets cost the full price.
    const plain = await startBooking(deps, { eventId, ...buyer(2), quantity: 2 });
    expect(plain.amountPence).toBe(2 * 1250 + 49);
    expect(await bookingOf(plain.bookingRef)).toMatchObject({ promoCodeId: null, discountPence: 0 });
  });

  it("takes a fixed amount off each ticket of the types it is limited to, never below £0; a code for none of the tickets chosen is refused", async () => {
    const child = await addType({ name: "Child", pricePence: 500 });
    await addCode({ code: "ADULT3", kind: "fixed", amountOffPence: 300, ticketTypeIds: [adult] });
    const started = await startBooking(deps, {
      eventId,
      ...buyer(1),
      tickets: { [adult]: 2, [child]: 1 },
      promoCode: "adult3",
    });
    expect(started.amountPence).toBe(2 * 950 + 500 + 49);
    expect(await itemsOf(started.bookingRef)).toEqual([
      { typeId: child, quantity: 1, pricePence: 500 },
      { typeId: adult, quantity: 2, pricePence: 950 },
    ]);
    await expect(
      startBooking(deps, { eventId, ...buyer(2), tickets: { [child]: 1 }, promoCode: "ADULT3" }),
    ).rejects.toMatchObject({
      code: "invalid",
      message: promoMessages.noTickets,
      fields: { promoCode: promoMessages.noTickets },
    });
    // £6 off a £5 ticket makes it free, and a booking of free tickets pays no fee.
    await addCode({ code: "CHILD6", kind: "fixed", amountOffPence: 600, ticketTypeIds: [child] });
    const free = await startBooking(deps, { eventId, ...buyer(3), tickets: { [child]: 1 }, promoCode: "child6" });
    expect(free).toMatchObject({ amountPence: 0, free: true });
    expect(await bookingOf(free.bookingRef)).toMatchObject({ discountPence: 500, status: "paid" });
    expect(await database.db.select().from(bookings)).toHaveLength(2);
  });

  it("a complimentary code: £0, no card, the ticket and its receipt at once; it counts against seats and never as income", async () => {
    await addCode({ code: "VOLUNTEER", kind: "free" });
    const started = await startBooking(deps, { eventId, ...buyer(1), quantity: 3, promoCode: "Volunteer" });
    expect(started).toMatchObject({ amountPence: 0, free: true, clientSecret: "" });
    expect(await bookingOf(started.bookingRef)).toMatchObject({
      status: "paid",
      provider: "free",
      providerPaymentId: null,
      amountPence: 0,
      discountPence: 3 * 1250,
    });
    const [ticket] = await database.db.select().from(tickets).where(eq(tickets.bookingRef, started.bookingRef));
    expect(ticket).toMatchObject({ quantity: 3, isValid: true });
    const receipts = await database.db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupeKey, mailKey("booking-receipt", started.bookingRef)));
    expect(receipts.map((mail) => mail.kind)).toEqual(["booking-receipt"]);
    expect((await takenByType(database.db, eventId, clock.now())).get(adult)).toEqual({ sold: 3, held: 0 });
  });

  it("refuses, holding nothing, a code unknown, switched off, expired or for another event", async () => {
    const otherEvent = await insertEvent(database.db, {}, clock.now());
    await addCode({ code: "OTHER", kind: "percent", percentOff: 10, eventId: otherEvent });
    await addCode({ code: "OLD", kind: "percent", percentOff: 10, validUntil: new Date("2026-07-01T09:00:00Z") });
    await addCode({ code: "OFF", kind: "percent", percentOff: 10, disabledAt: clock.now() });
    const attempt = (promoCode: string) => startBooking(deps, { eventId, ...buyer(1), quantity: 1, promoCode });
    await expect(attempt("NOPE")).rejects.toMatchObject({ message: promoMessages.unknown });
    await expect(attempt("other")).rejects.toMatchObject({ message: promoMessages.otherEvent });
    await expect(attempt("old")).rejects.toMatchObject({ message: promoMessages.expired });
    await expect(attempt("off")).rejects.toMatchObject({ message: promoMessages.disabled });
    expect(await database.db.select().from(bookings)).toEqual([]);
    // A code for all events works for any.
    await addCode({ code: "EVERYONE", kind: "percent", percentOff: 10, eventId: null });
    expect((await attempt("everyone")).amountPence).toBe(1125 + 49);
  });

  it("counts uses as seats are counted: a hold uses the code until it lapses, a paid booking for good, a refunded one gives it back", async () => {
    await addCode({ code: "ONCE", kind: "percent", percentOff: 50, maxUses: 1 });
    const first = await startBooking(deps, { eventId, ...buyer(1), quantity: 1, promoCode: "ONCE" });
    await expect(startBooking(deps, { eventId, ...buyer(2), quantity: 1, promoCode: "ONCE" })).rejects.toMatchObject({
      code: "conflict",
      message: promoMessages.usedUp,
    });
    // The hold (15 minutes) and its settling window (10) pass unpaid: the use comes back.
    clock.advance(26 * 60_000);
    const second = await startBooking(deps, { eventId, ...buyer(2), quantity: 1, promoCode: "ONCE" });
    expect(await pay(second)).toMatchObject({ outcome: "paid" });
    await expect(startBooking(deps, { eventId, ...buyer(3), quantity: 1, promoCode: "ONCE" })).rejects.toMatchObject({
      message: promoMessages.usedUp,
    });
    expect(first.bookingRef).not.toBe(second.bookingRef);
    await database.db.update(bookings).set({ status: "refunded" }).where(eq(bookings.bookingRef, second.bookingRef));
    expect((await startBooking(deps, { eventId, ...buyer(3), quantity: 1, promoCode: "ONCE" })).amountPence).toBe(
      625 + 49,
    );
  });

  it("a payment settling after its hold lapsed keeps its code's use only if the code still has one; otherwise it is refunded", async () => {
    await addCode({ code: "ONCE", kind: "fixed", amountOffPence: 250, maxUses: 1 });
    await addCode({ code: "TWICE", kind: "fixed", amountOffPence: 250, maxUses: 2 });
    const late = await startBooking(deps, { eventId, ...buyer(1), quantity: 2, promoCode: "ONCE" });
    const lateTwice = await startBooking(deps, { eventId, ...buyer(2), quantity: 2, promoCode: "TWICE" });
    await payments.confirmCard(late.clientSecret, card);
    await payments.confirmCard(lateTwice.clientSecret, card);
    // Their holds and settling windows pass before the payments are heard of; meanwhile another
    // buyer takes each code's use freed by the lapsed hold.
    clock.advance(26 * 60_000);
    for (const [i, code] of [
      [3, "ONCE"],
      [4, "TWICE"],
    ] as const) {
      expect(await pay(await startBooking(deps, { eventId, ...buyer(i), quantity: 1, promoCode: code }))).toMatchObject(
        {
          outcome: "paid",
        },
      );
    }
    // Seats are plenty, but ONCE has been used once already: the late payment is given back.
    expect((await settleBooking(deps, late.bookingRef)).outcome).toMatch(/^refund/);
    expect((await bookingOf(late.bookingRef)).status).toMatch(/^refund/);
    const paidWithOnce = await database.db
      .select({ ref: bookings.bookingRef })
      .from(bookings)
      .innerJoin(promoCodes, eq(promoCodes.id, bookings.promoCodeId))
      .where(and(eq(promoCodes.code, "ONCE"), eq(bookings.status, "paid")));
    expect(paidWithOnce).toHaveLength(1);
    // TWICE had a use left: the late payment keeps it, and its receipt names the code and the discount.
    expect(await settleBooking(deps, lateTwice.bookingRef)).toMatchObject({ outcome: "paid" });
    const [receipt] = await database.db
      .select()
      .from(outbox)
      .where(eq(outbox.dedupeKey, mailKey("booking-receipt", lateTwice.bookingRef)));
    expect(String(receipt!.payload.text)).toContain("Promo code TWICE: -£5.00");
    expect(String(receipt!.payload.text)).toContain("2 × Adult £10.00: £20.00");
  });

  it("a code limited to a hidden type reveals it; without the code it stays unbuyable, and a code for every type does not reveal it", async () => {
    const sponsor = await addType({ name: "Sponsor table", pricePence: 20000, hidden: true });
    await addCode({ code: "SPONSOR", kind: "free", ticketTypeIds: [sponsor] });
    await addCode({ code: "TENOFF", kind: "percent", percentOff: 10 });
    const noSuchType = "There is no such ticket type for this event.";
    await expect(startBooking(deps, { eventId, ...buyer(1), tickets: { [sponsor]: 1 } })).rejects.toMatchObject({
      message: noSuchType,
    });
    await expect(
      startBooking(deps, { eventId, ...buyer(1), tickets: { [sponsor]: 1 }, promoCode: "TENOFF" }),
    ).rejects.toMatchObject({ message: noSuchType });
    const started = await startBooking(deps, { eventId, ...buyer(1), tickets: { [sponsor]: 1 }, promoCode: "sponsor" });
    expect(started).toMatchObject({ amountPence: 0, free: true });
  });

  it("races: ten buyers at once, for five events, for the last use of a code for all events: it is used once", async () => {
    // A code for all events: the events' own locks do not serialise these checkouts, the code's does.
    await addCode({ code: "LAST", kind: "percent", percentOff: 20, maxUses: 3, eventId: null });
    for (const i of [100, 101]) await startBooking(deps, { eventId, ...buyer(i), quantity: 1, promoCode: "LAST" });
    const others = [eventId];
    for (let i = 0; i < 4; i++) others.push(await insertEvent(database.db, {}, clock.now()));
    // Every connection of the pool open first, so the ten checkouts run side by side.
    await Promise.all(Array.from({ length: 10 }, () => database.db.execute(sql`select 1`)));
    const attempts = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        startBooking(deps, { eventId: others[i % 5]!, ...buyer(i), quantity: 1, promoCode: "last" }),
      ),
    );
    const started = attempts.filter((a) => a.status === "fulfilled");
    expect(started).toHaveLength(1);
    for (const refused of attempts.filter((a) => a.status === "rejected")) {
      expect((refused as PromiseRejectedResult).reason).toMatchObject({
        code: "conflict",
        message: promoMessages.usedUp,
      });
    }
    const [code] = await database.db.select().from(promoCodes).where(eq(promoCodes.code, "LAST"));
    expect(await database.db.select().from(bookings).where(eq(bookings.promoCodeId, code!.id))).toHaveLength(3);
  });

  it("a checkout for another event waits on the code's row, and counts the last use taken while it waited", async () => {
    // What makes the race above safe, step by step: a code for all events is not behind one event's lock.
    const code = await addCode({ code: "LAST", kind: "percent", percentOff: 20, maxUses: 1, eventId: null });
    const otherEvent = await insertEvent(database.db, {}, clock.now());
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = database.db.transaction(async (tx) => {
      await tx.select().from(promoCodes).where(eq(promoCodes.id, code.id)).for("update");
      locked();
      await released;
      // Another checkout's booking, using the code's last use, written while the row is locked.
      await tx.insert(bookings).values({
        bookingRef: crypto.randomUUID(),
        eventId,
        holderName: "Grace Kimaro",
        email: "grace@example.org",
        quantity: 1,
        seats: 1,
        amountPence: 1049,
        status: "held",
        holdExpiresAt: new Date(clock.now().getTime() + 15 * 60_000),
        provider: "offline",
        promoCodeId: code.id,
        discountPence: 250,
        createdAt: clock.now(),
        updatedAt: clock.now(),
      });
    });
    await isLocked;
    const checkout = startBooking(deps, { eventId: otherEvent, ...buyer(1), quantity: 1, promoCode: "last" });
    const outcome = checkout.then(
      () => "booked",
      (error: { message: string }) => error.message,
    );
    if (engine === "postgres") {
      // PostgreSQL: the checkout is seen waiting for the code's row (PGlite runs one transaction at a time).
      await expect
        .poll(async () => {
          const rows = await database.db.execute(sql`select count(*)::int as waiting from pg_locks where not granted`);
          const list = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as { waiting: number }[];
          return Number(list[0]?.waiting ?? 0);
        })
        .toBeGreaterThan(0);
    }
    release();
    await holder;
    expect(await outcome).toBe(promoMessages.usedUp);
  });

  it("a refund of a discounted ticket gives back what was paid for it, never the full price", async () => {
    await addCode({ code: "SAVE20", kind: "percent", percentOff: 20 });
    const started = await startBooking(deps, { eventId, ...buyer(1), quantity: 2, promoCode: "SAVE20" });
    await pay(started);
    const staff = { id: null, email: "trustee@example.org" };
    const one = await refundBooking(deps, staff, started.bookingRef, {
      quantity: 1,
      reason: "Ill",
      key: crypto.randomUUID(),
    });
    expect(one.refund.amountPence).toBe(1000);
    const rest = await refundBooking(deps, staff, started.bookingRef, {
      quantity: 1,
      reason: "Ill",
      key: crypto.randomUUID(),
    });
    expect(rest.refund.amountPence).toBe(1000 + 49);
    expect(await bookingOf(started.bookingRef)).toMatchObject({ amountPence: 2049, refundedPence: 2049 });
  });
});

describe.each(engines)("promo codes on the booking page, POST /api/bookings and the staff pages on %s", (engine) => {
  let site: TestServices;
  let database: DatabaseHandle;
  let clock: TestClock;

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-07-01T10:00:00Z");
    site = await testServices(database, clock);
  });
  afterEach(() => site.close());

  it("staff make codes (each field checked, the audit log told), visitors apply them, staff see the uses and the money given away and switch one off", async () => {
    const services = await site.request();
    const eventId = await insertEvent(database.db, {}, clock.now());
    const [adult] = await database.db.select().from(ticketTypes).where(eq(ticketTypes.eventId, eventId));
    const sponsor = await database.db
      .insert(ticketTypes)
      .values({
        eventId,
        name: "Sponsor",
        pricePence: 5000,
        hidden: true,
        position: 1,
        createdAt: clock.now(),
        updatedAt: clock.now(),
      })
      .returning();
    const { cookie } = await signedInStaff(database.db, clock.now(), { role: "events" });
    const make = async (fields: Record<string, string | string[]>) => {
      const body = new FormData();
      for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) body.append(name, v);
      const request = new Request("http://localhost/admin/codes/new", { method: "POST", body, headers: { cookie } });
      const answer = (await callRoute(newCodeAction, request, services)) as unknown;
      if (answer instanceof Response) return { location: answer.headers.get("location")! };
      return (answer as { data: { ok: boolean; fields?: Record<string, string> } }).data;
    };
    const blank = {
      code: "",
      eventId: "",
      kind: "percent",
      percentOff: "",
      amountOff: "",
      maxUses: "",
      validUntil: "",
    };
    expect(
      await make({
        ...blank,
        code: "x",
        percentOff: "120",
        maxUses: "0",
        validUntil: "2026-06-30",
        ticketTypeIds: adult!.id,
      }),
    ).toMatchObject({
      ok: false,
      fields: {
        code: expect.stringContaining("3 to 30"),
        percentOff: expect.stringContaining("1 to 100"),
        maxUses: expect.stringContaining("whole number"),
        validUntil: expect.stringContaining("future"),
        ticketTypeIds: expect.stringContaining("event chosen"),
      },
    });
    expect(await database.db.select().from(promoCodes)).toEqual([]);
    const made = await make({
      ...blank,
      code: "save20",
      eventId,
      percentOff: "20",
      maxUses: "5",
      validUntil: "2026-07-31",
    });
    expect(made).toMatchObject({ location: expect.stringMatching(/^\/admin\/codes\/[0-9a-f-]+\?saved=created$/) });
    expect(await make({ ...blank, code: "Save20", percentOff: "10" })).toMatchObject({
      ok: false,
      fields: { code: "There is already a code like this one: choose another." },
    });
    await make({ ...blank, code: "SPONSOR", eventId, kind: "free", ticketTypeIds: sponsor[0]!.id });
    const audit = await database.db.select().from(auditLog).where(eq(auditLog.action, "promo-code.created"));
    expect(audit.map((entry) => entry.summary)).toEqual(
      expect.arrayContaining([
        "Made the code SAVE20: 20% off, for “Quiz Night”, at most 5 uses, until the end of 2026-07-31",
        "Made the code SPONSOR: Free (complimentary), for “Quiz Night”, on “Sponsor”",
      ]),
    );

    // The booking page with ?code= prices by it, and a code that reveals a hidden type offers it.
    const page = async (code: string) =>
      (await callRoute(bookingPage, new Request(`http://localhost/book-event/${eventId}?code=${code}`), services, {
        params: { id: eventId },
      })) as {
        promo: { applied: { words: string } | null; error: string | null };
        revealed: { name: string }[] | null;
      };
    expect(await page("save20")).toMatchObject({
      promo: { applied: { words: "20% off" }, error: null },
      revealed: null,
    });
    expect(await page("nothing")).toMatchObject({ promo: { applied: null, error: promoMessages.unknown } });
    expect((await page("sponsor")).revealed?.map((type) => type.name)).toEqual(["Ticket", "Sponsor"]);

    // POST /api/bookings takes `promoCode`.
    const post = async (body: Record<string, unknown>, address: string) => {
      const request = new Request("http://localhost/api/bookings", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ eventId, name: "Amina Mushi", email: `${address}@example.org`, ...body }),
      });
      const response = await callRoute(startBookingRoute, request, services, { clientAddress: address });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    expect(await post({ quantity: 2, promoCode: "nothing" }, "192.0.2.1")).toMatchObject({
      status: 400,
      body: { error: promoMessages.unknown, fields: { promoCode: promoMessages.unknown } },
    });
    const paid = await post({ quantity: 2, promoCode: "Save20" }, "192.0.2.2");
    expect(paid).toMatchObject({ status: 201, body: { amountPence: 2049 } });
    await (services.payments as OfflineProvider).confirmCard(paid.body.clientSecret as string, card);
    await settleBooking(services, paid.body.bookingRef as string);
    const comp = await post({ tickets: { [sponsor[0]!.id]: 1 }, promoCode: "sponsor" }, "192.0.2.3");
    expect(comp).toMatchObject({ status: 201, body: { amountPence: 0, free: true } });

    // Staff see each code's uses and the money it gave away.
    const list = (await callRoute(
      codesPage,
      new Request("http://localhost/admin/codes", { headers: { cookie } }),
      services,
    )) as {
      codes: { code: string; uses: number; givenPence: number }[];
    };
    expect(list.codes.map(({ code, uses, givenPence }) => ({ code, uses, givenPence }))).toEqual(
      expect.arrayContaining([
        { code: "SAVE20", uses: 1, givenPence: 500 },
        { code: "SPONSOR", uses: 1, givenPence: 5000 },
      ]),
    );
    const id = (made as { location: string }).location.split("/")[3]!.split("?")[0]!;
    const switchOff = new FormData();
    switchOff.append("intent", "off");
    await callRoute(
      codeAction,
      new Request(`http://localhost/admin/codes/${id}`, { method: "POST", body: switchOff, headers: { cookie } }),
      services,
      { params: { codeId: id } },
    );
    const detail = (await callRoute(
      codePage,
      new Request(`http://localhost/admin/codes/${id}`, { headers: { cookie } }),
      services,
      { params: { codeId: id } },
    )) as { code: { off: boolean; uses: number }; bookings: unknown[] };
    expect(detail).toMatchObject({ code: { off: true, uses: 1 }, bookings: [expect.anything()] });
    expect(await post({ quantity: 1, promoCode: "save20" }, "192.0.2.4")).toMatchObject({
      status: 400,
      body: { error: promoMessages.disabled },
    });
    expect(
      await database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "promo-code.switched-off"), eq(auditLog.subject, id))),
    ).toHaveLength(1);
  });

  it("staff change a code's limits on its page: never below its uses (holds counted), a bad value changes nothing, the audit log says what was and is", async () => {
    const services = await site.request();
    const eventId = await insertEvent(database.db, {}, clock.now());
    const { cookie } = await signedInStaff(database.db, clock.now(), { role: "events" });
    const [code] = await database.db
      .insert(promoCodes)
      .values({
        code: "SAVE20",
        eventId,
        kind: "percent",
        percentOff: 20,
        maxUses: 2,
        validUntil: new Date("2026-07-31T23:00:00Z"), // the end of 31 July in London (BST)
        createdByEmail: "events@example.org",
        createdAt: clock.now(),
        updatedAt: clock.now(),
      })
      .returning();
    const post = async (address: string) => {
      const request = new Request("http://localhost/api/bookings", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({
          eventId,
          name: "Amina Mushi",
          email: `${address}@example.org`,
          quantity: 1,
          promoCode: "save20",
        }),
      });
      const response = await callRoute(startBookingRoute, request, services, { clientAddress: address });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const change = async (fields: Record<string, string>) => {
      const body = new FormData();
      body.append("intent", "limits");
      for (const [name, value] of Object.entries(fields)) body.append(name, value);
      const request = new Request(`http://localhost/admin/codes/${code!.id}`, {
        method: "POST",
        body,
        headers: { cookie },
      });
      const answer = (await callRoute(codeAction, request, services, { params: { codeId: code!.id } })) as {
        data: { ok: boolean; message: string; fields?: Record<string, string> };
      };
      return answer.data;
    };
    const row = async () => (await database.db.select().from(promoCodes).where(eq(promoCodes.id, code!.id)))[0]!;
    const changes = async () =>
      (
        await database.db
          .select()
          .from(auditLog)
          .where(eq(auditLog.action, "promo-code.changed"))
          .orderBy(asc(auditLog.at))
      ).map((entry) => entry.summary);

    // Two holds use it up; a third buyer is refused.
    expect((await post("192.0.2.1")).status).toBe(201);
    expect((await post("192.0.2.2")).status).toBe(201);
    expect(await post("192.0.2.3")).toMatchObject({ status: 409, body: { error: promoMessages.usedUp } });

    // Below its uses, not a number, or a last day already over: refused field by field, nothing changed.
    const before = await row();
    expect(await change({ maxUses: "1", validUntil: "2026-07-31" })).toMatchObject({
      ok: false,
      message: "The limits could not be changed: correct the fields marked.",
      fields: { maxUses: "This code has been used 2 times: enter at least 2, or leave it empty for no limit." },
    });
    expect(await change({ maxUses: "lots", validUntil: "2026-06-30" })).toMatchObject({
      ok: false,
      fields: {
        maxUses: expect.stringContaining("whole number"),
        validUntil: expect.stringContaining("in the future"),
      },
    });
    for (const validUntil of ["9999-99-99", "2027-02-30", "9999-12-31", "\u0000"]) {
      expect(await change({ maxUses: "99999999999", validUntil })).toMatchObject({
        ok: false,
        fields: { maxUses: expect.stringContaining("whole number"), validUntil: expect.stringContaining("last day") },
      });
    }
    expect(await row()).toEqual(before);
    expect(await changes()).toEqual([]);

    // Raised and moved: the third buyer gets the discount.
    expect(await change({ maxUses: "3", validUntil: "2026-08-15" })).toMatchObject({
      ok: true,
      message: "The code's limits are changed.",
    });
    expect(await row()).toMatchObject({ maxUses: 3, validUntil: new Date("2026-08-15T23:00:00Z") });
    expect(await post("192.0.2.3")).toMatchObject({ status: 201, body: { amountPence: 1049 } }); // £12.50 less 20%, and the fee
    const detail = (await callRoute(
      codePage,
      new Request(`http://localhost/admin/codes/${code!.id}`, { headers: { cookie } }),
      services,
      { params: { codeId: code!.id } },
    )) as { code: { maxUses: number; uses: number; validUntil: string } };
    expect(detail.code).toMatchObject({ maxUses: 3, uses: 3, validUntil: "2026-08-15T23:00:00.000Z" });

    // Emptied: no limit and no end. The same limits again change nothing and tell nobody.
    clock.advance(60_000);
    await change({ maxUses: "", validUntil: "" });
    await change({ maxUses: "", validUntil: "" });
    expect(await row()).toMatchObject({ maxUses: null, validUntil: null, percentOff: 20, kind: "percent" });
    expect(await changes()).toEqual([
      "Changed the limits of the code SAVE20: at most 3 uses, until the end of 2026-08-15 (were at most 2 uses, until the end of 2026-07-31)",
      "Changed the limits of the code SAVE20: no limit of uses, no end date (were at most 3 uses, until the end of 2026-08-15)",
    ]);
  });

  it("a Door member may not open the codes pages", async () => {
    const services = await site.request();
    const { cookie } = await signedInStaff(database.db, clock.now(), { role: "door" });
    await expect(
      callRoute(codesPage, new Request("http://localhost/admin/codes", { headers: { cookie } }), services),
    ).rejects.toBeDefined();
  });
});
