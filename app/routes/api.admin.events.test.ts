import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startBooking } from "~/features/booking/checkout.server";
import { settleBooking } from "~/features/booking/settlement.server";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { offlineProvider } from "~/infra/payments/offline.server";
import { auditLog, bookingItems, bookings, events, ticketTypes } from "~db/schema";
import { testClock, type TestClock } from "../../tests/support/clock";
import { testCharity as charity } from "../../tests/support/content";
import { engines, freshDatabase } from "../../tests/support/databases";
import { callRoute, testServices, type TestServices, signedInStaff } from "../../tests/support/services";
import { action as createRoute, loader as listRoute } from "./api.admin.events";
import { action as changeRoute, loader as readRoute } from "./api.admin.events.id";

// The staff API's ticket types (docs/decisions/080-staff-edit-ticket-types.md), through the real
// handlers on a real database: POST and PATCH take `ticketTypes`, the whole list in order; without
// it `ticketCost` prices an event of one type, as it always has.

const good = { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" };

interface TypeOut {
  id: string;
  name: string;
  price: number;
  pricePence: number;
  seatsPerTicket: number;
  cap: number | null;
  hidden: boolean;
  offSale: boolean;
  closedAt: string | null;
  sold: number;
  held: number;
  left: number | null;
  status: string;
  booked: boolean;
}
interface EventOut {
  id: string;
  ticketCost: number | null;
  ticketCostPence: number | null;
  ticketTypes: TypeOut[];
}

describe.each(engines)("ticket types through the staff API on %s", (engine) => {
  let database: DatabaseHandle;
  let clock: TestClock;
  let services: TestServices;
  let cookie: string;

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-07-01T10:00:00Z");
    services = await testServices(database, clock);
    ({ cookie } = await signedInStaff(database.db, clock.now()));
  });
  afterEach(() => services.close());

  /** A handler's answer as the API sends it: its status and JSON. */
  async function answer(work: Promise<unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = (await work.catch((error: unknown) => error)) as Response;
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  const json = (method: string, url: string, body: unknown) =>
    new Request(`http://localhost${url}`, {
      method,
      headers: { cookie, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  const create = async (body: Record<string, unknown>) =>
    answer(
      callRoute(createRoute, json("POST", "/api/admin/events", { ...ceilidh, ...body }), await services.request()),
    );
  const change = async (id: string, body: Record<string, unknown>) =>
    answer(
      callRoute(changeRoute, json("PATCH", `/api/admin/events/${id}`, body), await services.request(), {
        params: { id },
      }),
    );
  const read = async (id: string) =>
    (
      await answer(
        callRoute(
          readRoute,
          new Request(`http://localhost/api/admin/events/${id}`, { headers: { cookie } }),
          await services.request(),
          { params: { id } },
        ),
      )
    ).body as unknown as EventOut;
  const storedTypes = (eventId: string) =>
    database.db.select().from(ticketTypes).where(eq(ticketTypes.eventId, eventId)).orderBy(ticketTypes.position);
  const eventCount = () => database.db.$count(events);

  const ceilidh = {
    name: "Summer Ceilidh",
    description: "A caller, a band and a hog roast.",
    eventDate: "2026-07-20T18:00:00Z",
    ticketSaleExpiry: "2026-07-19T12:00:00Z",
    location: "Village hall",
    totalAvailableTickets: 100,
  };
  const adultAndChild = [
    { name: "Adult", price: 12.5 },
    { name: "Child", price: 5 },
  ];

  /** A paid booking of these tickets (by type id), made by the site's own checkout. */
  async function buy(eventId: string, tickets: Record<string, number>) {
    const payments = offlineProvider(database.db, clock);
    const deps = { db: database.db, payments, charity, clock };
    const started = await startBooking(deps, { eventId, name: "Amina Mushi", email: "amina@example.org", tickets });
    await payments.confirmCard(started.clientSecret, good);
    expect(await settleBooking(deps, started.bookingRef)).toMatchObject({ outcome: "paid" });
    return started.bookingRef;
  }

  it("creates an event with its types in order, priced from the lowest, and audits them", async () => {
    const { status, body } = await create({
      ticketTypes: [
        { name: "Adult", price: 12.5 },
        { name: "Child", price: 5, cap: 40 },
        { name: "Table of 8", price: 90, seatsPerTicket: 8, saleUntil: "2026-07-10T12:00:00Z", hidden: true },
      ],
    });
    expect(status).toBe(201);
    const event = body as unknown as EventOut;
    expect(event.ticketCost).toBe(5);
    expect(event.ticketTypes.map((t) => [t.name, t.pricePence, t.seatsPerTicket, t.cap, t.hidden])).toEqual([
      ["Adult", 1250, 1, null, false],
      ["Child", 500, 1, 40, false],
      ["Table of 8", 9000, 8, null, true],
    ]);
    expect(event.ticketTypes[0]).toMatchObject({ sold: 0, held: 0, left: 100, status: "on-sale", booked: false });
    expect(event.ticketTypes[2]).toMatchObject({ left: 12 });
    expect((await storedTypes(event.id)).map((t) => t.position)).toEqual([0, 1, 2]);
    const [entry] = await database.db.select().from(auditLog);
    expect(entry!.summary).toBe(
      "Created “Summer Ceilidh”; ticket types: added “Adult” at £12.50; added “Child” at £5.00; added “Table of 8” at £90.00",
    );
  });

  it("without ticketTypes makes one type named Ticket at ticketCost, or none when it is null", async () => {
    const one = (await create({ ticketCost: 8.5 })).body as unknown as EventOut;
    expect(one.ticketTypes.map((t) => [t.name, t.pricePence])).toEqual([["Ticket", 850]]);
    expect(one.ticketCostPence).toBe(850);
    const elsewhere = (await create({ ticketCost: null })).body as unknown as EventOut;
    expect(elsewhere.ticketTypes).toEqual([]);
    expect(elsewhere.ticketCost).toBeNull();
    // Free tickets are a price like any other.
    const free = (await create({ ticketTypes: [{ name: "Volunteer", price: 0 }] })).body as unknown as EventOut;
    expect(free.ticketCostPence).toBe(0);
  });

  const refusals: [Record<string, unknown>, string, string][] = [
    [{ ticketCost: 10, ticketTypes: adultAndChild }, "ticketCost", "must be left out when ticketTypes is given"],
    [{ ticketTypes: [{ name: "Adult" }] }, "ticketTypes.0.price", "must be given for a new ticket type"],
    [{ ticketTypes: [{ price: 4 }] }, "ticketTypes.0.name", "must be given for a new ticket type"],
    [{ ticketTypes: [{ name: "Adult", price: -1 }] }, "ticketTypes.0.price", "must be an amount in pounds, 0 or more"],
    [{ ticketTypes: [{ name: "Adult", price: 1.234 }] }, "ticketTypes.0.price", "with at most two decimals"],
    [
      { ticketTypes: [{ name: "Table", price: 80, seatsPerTicket: 51 }] },
      "ticketTypes.0.seatsPerTicket",
      "from 1 to 50",
    ],
    [{ ticketTypes: [{ name: "Adult", price: 5, cap: 0 }] }, "ticketTypes.0.cap", "must be 1 or more"],
    [
      {
        ticketTypes: [
          { name: "Adult", price: 5 },
          { name: " adult ", price: 6 },
        ],
      },
      "ticketTypes.1.name",
      "must differ from the other ticket types' names",
    ],
    [
      {
        ticketTypes: [
          { name: "Early bird", price: 9, saleFrom: "2026-07-05T12:00:00Z", saleUntil: "2026-07-02T12:00:00Z" },
        ],
      },
      "ticketTypes.0.saleUntil",
      "must be after the time it goes on sale",
    ],
    [
      { ticketTypes: [{ id: "00000000-0000-4000-8000-000000000000", name: "Adult", price: 5 }] },
      "ticketTypes.0.id",
      "must be left out: the event is new",
    ],
    [{ ticketTypes: [] }, "ticketTypes", "must have at least one type while tickets are sold on this site"],
  ];
  it("refuses each mistake in a new event's types with a message for its field, and creates nothing", async () => {
    for (const [body, field, message] of refusals) {
      const { status, body: refusal } = await create(body);
      expect(status, JSON.stringify(body)).toBe(400);
      expect((refusal.fields as Record<string, string>)[field], JSON.stringify(body)).toContain(message);
    }
    expect(await eventCount()).toBe(0);
  });

  it("changes a sold type's price for tickets sold after, keeping the sold tickets' price", async () => {
    const event = (await create({ ticketTypes: adultAndChild })).body as unknown as EventOut;
    const [adult, child] = event.ticketTypes;
    const first = await buy(event.id, { [adult!.id]: 2, [child!.id]: 1 });

    const { status, body } = await change(event.id, {
      ticketTypes: [{ id: adult!.id, price: 14 }, { id: child!.id }],
    });
    expect(status).toBe(200);
    expect((body as unknown as EventOut).ticketTypes.map((t) => [t.name, t.pricePence, t.sold])).toEqual([
      ["Adult", 1400, 2],
      ["Child", 500, 1],
    ]);
    const second = await buy(event.id, { [adult!.id]: 1 });
    const items = await database.db.select().from(bookingItems).where(eq(bookingItems.ticketTypeId, adult!.id));
    expect(items.map((item) => [item.bookingRef, item.pricePence]).sort()).toEqual(
      [
        [first, 1250],
        [second, 1400],
      ].sort(),
    );
    // The first booking's amount is as it was paid: 2 × £12.50 + £5.00 + the £0.49 fee.
    const [paid] = await database.db.select().from(bookings).where(eq(bookings.bookingRef, first));
    expect(paid!.amountPence).toBe(3049);
    const entries = await database.db.select().from(auditLog).orderBy(auditLog.at);
    expect(entries.at(-1)!.summary).toBe(
      "Changed “Summer Ceilidh”: ticketTypes; ticket types: “Adult”: price £12.50 → £14.00",
    );
  });

  it("takes a sold type off sale and back, never deletes it, and deletes a type nobody booked", async () => {
    const event = (await create({ ticketTypes: [...adultAndChild, { name: "Concession", price: 8 }] }))
      .body as unknown as EventOut;
    const [adult, child, concession] = event.ticketTypes;
    await buy(event.id, { [child!.id]: 1 });

    // Leaving out the sold Child type is refused, and nothing changes, not even the rest.
    const refused = await change(event.id, { name: "Renamed", ticketTypes: [{ id: adult!.id }] });
    expect(refused.status).toBe(400);
    expect(refused.body.fields).toEqual({
      ticketTypes: "must keep “Child”: it has bookings, so it can only be taken off sale, not deleted",
    });
    expect((await storedTypes(event.id)).map((t) => t.name)).toEqual(["Adult", "Child", "Concession"]);
    expect((await read(event.id)) as unknown).toMatchObject({ name: "Summer Ceilidh" });

    // Off sale instead; Concession, never booked, is deleted; the order is as listed.
    const off = await change(event.id, {
      ticketTypes: [{ id: child!.id, offSale: true }, { id: adult!.id }],
    });
    expect(off.status).toBe(200);
    const stored = await storedTypes(event.id);
    expect(stored.map((t) => [t.name, t.position, t.offSaleAt?.toISOString() ?? null])).toEqual([
      ["Child", 0, clock.now().toISOString()],
      ["Adult", 1, null],
    ]);
    expect(stored.map((t) => t.id)).not.toContain(concession!.id);
    // The event's price is the lowest of the types on sale.
    expect((await read(event.id)).ticketCostPence).toBe(1250);
    expect((await read(event.id)).ticketTypes[0]).toMatchObject({ status: "off-sale", offSale: true, left: null });

    clock.advance(60_000);
    const back = await change(event.id, { ticketTypes: [{ id: child!.id, offSale: false }, { id: adult!.id }] });
    expect(back.status).toBe(200);
    expect((await read(event.id)).ticketTypes[0]).toMatchObject({ name: "Child", offSale: false, status: "on-sale" });
    expect((await read(event.id)).ticketCostPence).toBe(500);
    const summaries = (await database.db.select().from(auditLog).orderBy(auditLog.at)).map((e) => e.summary);
    expect(summaries).toContain(
      "Changed “Summer Ceilidh”: ticketTypes; ticket types: deleted “Concession”; “Child”: taken off sale",
    );
    expect(summaries.at(-1)).toBe("Changed “Summer Ceilidh”: ticketTypes; ticket types: “Child”: put back on sale");
  });

  it("refuses a type's own limit below what it has sold, and an id that is not the event's", async () => {
    const event = (await create({ ticketTypes: adultAndChild })).body as unknown as EventOut;
    const [adult, child] = event.ticketTypes;
    await buy(event.id, { [adult!.id]: 3 });
    const other = (await create({ ticketCost: 4 })).body as unknown as EventOut;
    const { status, body } = await change(event.id, {
      ticketTypes: [{ id: adult!.id, cap: 2 }, { id: child!.id }, { id: other.ticketTypes[0]!.id }],
    });
    expect(status).toBe(400);
    expect(body.fields).toEqual({
      "ticketTypes.0.cap": "must be at least 3: 3 tickets of this type are already sold",
      "ticketTypes.2.id": "is not a ticket type of this event",
    });
    expect((await storedTypes(event.id)).map((t) => t.cap)).toEqual([null, null]);
    expect((await change(event.id, { ticketTypes: [{ id: adult!.id, cap: 3 }, { id: child!.id }] })).status).toBe(200);
    expect((await read(event.id)).ticketTypes[0]).toMatchObject({ cap: 3, left: 0, status: "sold-out" });
  });

  it("keeps a type that closed for good closed, whatever its limit or dates are changed to", async () => {
    const event = (
      await create({ ticketTypes: [{ name: "Early bird", price: 9, cap: 2, saleUntil: "2026-07-10T12:00:00Z" }] })
    ).body as unknown as EventOut;
    const [early] = event.ticketTypes;
    await buy(event.id, { [early!.id]: 2 });
    const closed = (await read(event.id)).ticketTypes[0]!;
    expect(closed).toMatchObject({ status: "ended", closedAt: clock.now().toISOString() });

    clock.advance(60_000);
    const { status } = await change(event.id, {
      ticketTypes: [{ id: early!.id, cap: 10, saleUntil: "2026-07-15T12:00:00Z" }],
    });
    expect(status).toBe(200);
    expect((await read(event.id)).ticketTypes[0]).toMatchObject({
      cap: 10,
      status: "ended",
      closedAt: closed.closedAt,
    });
  });

  it("changes the price of an event's only type through ticketCost, and refuses it for several types", async () => {
    const one = (await create({ ticketCost: 8.5 })).body as unknown as EventOut;
    const changed = await change(one.id, { ticketCost: 9.75 });
    expect(changed.status).toBe(200);
    expect(await storedTypes(one.id)).toMatchObject([{ name: "Ticket", pricePence: 975 }]);
    expect((changed.body as unknown as EventOut).ticketCostPence).toBe(975);

    const several = (await create({ ticketTypes: adultAndChild })).body as unknown as EventOut;
    const refused = await change(several.id, { ticketCost: 7 });
    expect(refused.status).toBe(400);
    expect(refused.body.fields).toEqual({
      ticketCost: "cannot be set on an event with 2 ticket types: change each type's price (ticketTypes)",
    });
    // The price it already shows, sent back with the rest of the event, is no change.
    expect((await change(several.id, { ticketCost: 5, name: "Summer Ceilidh" })).status).toBe(200);
    expect(await storedTypes(several.id)).toMatchObject([{ pricePence: 1250 }, { pricePence: 500 }]);
  });

  it("stops and starts sales on this site: ticketCost null keeps the types, a price on an event with none adds one", async () => {
    const elsewhere = (await create({ ticketCost: null })).body as unknown as EventOut;
    const started = await change(elsewhere.id, { ticketCost: 6 });
    expect((started.body as unknown as EventOut).ticketTypes.map((t) => [t.name, t.pricePence])).toEqual([
      ["Ticket", 600],
    ]);

    const event = (await create({ ticketTypes: adultAndChild })).body as unknown as EventOut;
    const stopped = (await change(event.id, { ticketCost: null })).body as unknown as EventOut;
    expect(stopped.ticketCost).toBeNull();
    expect(stopped.ticketTypes).toHaveLength(2);
    // The whole list again means sold here once more, unless ticketCost stays null.
    const ids = stopped.ticketTypes.map((t) => ({ id: t.id }));
    expect(
      ((await change(event.id, { ticketTypes: ids, ticketCost: null })).body as unknown as EventOut).ticketCost,
    ).toBeNull();
    expect(((await change(event.id, { ticketTypes: ids })).body as unknown as EventOut).ticketCost).toBe(5);
    // No types at all while sold here is refused; with sales stopped, the types nobody booked can go.
    expect((await change(event.id, { ticketTypes: [] })).body.fields).toEqual({
      ticketTypes: "must have at least one type while tickets are sold on this site",
    });
    expect((await change(event.id, { ticketTypes: [], ticketCost: null })).status).toBe(200);
    expect(await storedTypes(event.id)).toEqual([]);
  });

  it("lists every event with its ticket types", async () => {
    const event = (await create({ ticketTypes: adultAndChild })).body as unknown as EventOut;
    await create({ ticketCost: null, name: "Open day" });
    const { body } = await answer(
      callRoute(
        listRoute,
        new Request("http://localhost/api/admin/events", { headers: { cookie } }),
        await services.request(),
      ),
    );
    const listed = (body.events as EventOut[]).map((e) => [e.id === event.id, e.ticketTypes.map((t) => t.name)]);
    expect(listed).toEqual(
      expect.arrayContaining([
        [true, ["Adult", "Child"]],
        [false, []],
      ]),
    );
  });
});
