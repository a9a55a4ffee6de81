import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startBooking } from "~/features/booking/checkout.server";
import { settleBooking } from "~/features/booking/settlement.server";
import type { EventFormValues } from "~/features/events/event-form";
import type { StaffTicketType } from "~/features/events/schema";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { offlineProvider } from "~/infra/payments/offline.server";
import { auditLog, bookingItems, events, ticketTypes } from "~db/schema";
import { testClock, type TestClock } from "../../tests/support/clock";
import { testCharity as charity } from "../../tests/support/content";
import { engines, freshDatabase } from "../../tests/support/databases";
import { callRoute, testServices, type TestServices, signedInStaff } from "../../tests/support/services";
import { action as editAction, loader as editLoader } from "./admin.events.id";
import { action as newAction } from "./admin.events.new";

// Staff editing an event's ticket types on /admin/events/new and /admin/events/:id
// (docs/decisions/080-staff-edit-ticket-types.md), through the pages' real loaders and actions
// on a real database: the form posts as the browser does, multipart, with or without JavaScript.

const good = { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" };

/** A type's fields as the form posts them, by its row. */
type Row = Partial<Record<"id" | "name" | "price" | "seatsPerTicket" | "cap" | "saleFrom" | "saleUntil", string>> &
  Partial<Record<"hidden" | "offSale" | "remove", boolean>>;

describe.each(engines)("ticket types on the staff event pages on %s", (engine) => {
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

  /** The event form as the page posts it: the event's fields, then each type's row. */
  function form(fields: Record<string, string>, rows?: Row[]) {
    const body = new FormData();
    const all: Record<string, string> = {
      intent: "save",
      name: "Summer Ceilidh",
      description: "A caller, a band and a hog roast.",
      posterImage: "",
      eventDate: "2026-07-20T19:00",
      ticketSaleExpiry: "2026-07-19T12:00",
      location: "Village hall",
      totalAvailableTickets: "100",
      link: "",
      ...fields,
    };
    for (const [name, value] of Object.entries(all)) body.append(name, value);
    rows?.forEach((row, i) => {
      const at = (part: string) => `ticketTypes.${i}.${part}`;
      body.append(at("id"), row.id ?? "");
      for (const part of ["name", "price", "cap", "saleFrom", "saleUntil"] as const)
        body.append(at(part), row[part] ?? "");
      body.append(at("seatsPerTicket"), row.seatsPerTicket ?? "1");
      for (const part of ["hidden", "offSale", "remove"] as const) if (row[part]) body.append(at(part), "on");
    });
    return body;
  }
  /** What a page's action answers: a redirect's address, or the form's answer. */
  async function post(url: string, body: FormData, params: Record<string, string> = {}) {
    const action = url === "/admin/events/new" ? newAction : editAction;
    const request = new Request(`http://localhost${url}`, { method: "POST", body, headers: { cookie } });
    const answer = (await callRoute(action, request, await services.request(), { params })) as unknown;
    if (answer instanceof Response) return { location: answer.headers.get("location") };
    return (
      answer as {
        data: { ok: boolean; fields?: Record<string, string>; values?: { event: EventFormValues }; focus?: string };
      }
    ).data;
  }
  async function page(id: string) {
    const request = new Request(`http://localhost/admin/events/${id}`, { headers: { cookie } });
    return (await callRoute(editLoader, request, await services.request(), { params: { id } })) as unknown as {
      values: EventFormValues;
      ticketTypes: StaffTicketType[];
      onlineSales: boolean;
    };
  }
  const edit = (id: string, fields: Record<string, string>, rows?: Row[]) =>
    post(`/admin/events/${id}`, form(fields, rows), { id });
  const storedTypes = (eventId: string) =>
    database.db.select().from(ticketTypes).where(eq(ticketTypes.eventId, eventId)).orderBy(ticketTypes.position);
  /** The rows of the saved types as the edit page draws them, with `change` applied to each by name. */
  async function rowsOf(id: string, change: Record<string, Row> = {}): Promise<Row[]> {
    return (await page(id)).values.ticketTypes.map((row) => ({ ...row, ...change[row.name] }));
  }
  async function createCeilidh() {
    const made = await post(
      "/admin/events/new",
      form({}, [
        { name: "Adult", price: "12.50" },
        { name: "Child", price: "5.00", cap: "40" },
      ]),
    );
    const id = /^\/admin\/events\/(.+)\?saved=created$/.exec((made as { location: string }).location)![1]!;
    return id;
  }
  async function buy(eventId: string, tickets: Record<string, number>) {
    const payments = offlineProvider(database.db, clock);
    const deps = { db: database.db, payments, charity, clock };
    const started = await startBooking(deps, { eventId, name: "Amina Mushi", email: "amina@example.org", tickets });
    await payments.confirmCard(started.clientSecret, good);
    expect(await settleBooking(deps, started.bookingRef)).toMatchObject({ outcome: "paid" });
  }

  it("creates an event with its types from the new event form, and its page lists them with what is left", async () => {
    const id = await createCeilidh();
    const shown = await page(id);
    expect(
      shown.ticketTypes.map((t) => [t.name, t.pricePence, t.seatsPerTicket, t.sold, t.held, t.left, t.status]),
    ).toEqual([
      ["Adult", 1250, 1, 0, 0, 100, "on-sale"],
      ["Child", 500, 1, 0, 0, 40, "on-sale"],
    ]);
    expect(shown.values.ticketTypes.map((row) => [row.name, row.price, row.cap, row.seatsPerTicket])).toEqual([
      ["Adult", "12.50", "", "1"],
      ["Child", "5.00", "40", "1"],
    ]);
    expect((await database.db.select().from(events))[0]!.ticketCostPence).toBe(500);
  });

  it("makes one type named Ticket from the ticket cost, as the form always has", async () => {
    const made = await post("/admin/events/new", form({ ticketCost: "8.50" }));
    const id = /events\/(.+)\?/.exec((made as { location: string }).location)![1]!;
    expect(await storedTypes(id)).toMatchObject([{ name: "Ticket", pricePence: 850, seatsPerTicket: 1 }]);
  });

  it("adds a ticket type without JavaScript: the ticket cost typed becomes the first type, nothing is saved", async () => {
    const answer = await post("/admin/events/new", form({ intent: "add-type", ticketCost: "8.50" }));
    expect(answer).toMatchObject({ ok: true, focus: "event-ticketTypes-1-name" });
    const values = (answer as { values: { event: EventFormValues } }).values.event;
    expect(values.ticketCost).toBe("");
    expect(values.name).toBe("Summer Ceilidh");
    expect(values.ticketTypes.map((row) => [row.id, row.name, row.price, row.seatsPerTicket])).toEqual([
      ["", "Ticket", "8.50", "1"],
      ["", "", "", "1"],
    ]);
    expect(await database.db.$count(events)).toBe(0);

    // On an event's page, one more row after its types.
    const id = await createCeilidh();
    const more = await post(`/admin/events/${id}`, form({ intent: "add-type" }, await rowsOf(id)), { id });
    expect((more as { values: { event: EventFormValues } }).values.event.ticketTypes.map((row) => row.name)).toEqual([
      "Adult",
      "Child",
      "",
    ]);
    expect(await storedTypes(id)).toHaveLength(2);
  });

  it("adds, changes, reorders and deletes types, and the audit log says what changed", async () => {
    const id = await createCeilidh();
    const [adult, child] = await rowsOf(id);
    const saved = await edit(id, {}, [
      { ...child, remove: true },
      { ...adult, price: "14.00", seatsPerTicket: "1" },
      { name: "Table of 8", price: "90", seatsPerTicket: "8", saleUntil: "2026-07-10T18:00", hidden: true },
      {}, // a row added and left empty is no type
    ]);
    expect(saved).toEqual({ location: `/admin/events/${id}?saved=saved` });
    const stored = await storedTypes(id);
    expect(stored.map((t) => [t.name, t.pricePence, t.seatsPerTicket, t.hidden, t.position])).toEqual([
      ["Adult", 1400, 1, false, 0],
      ["Table of 8", 9000, 8, true, 1],
    ]);
    // London time: 18:00 in July is 17:00 UTC.
    expect(stored[1]!.saleUntil?.toISOString()).toBe("2026-07-10T17:00:00.000Z");
    const [entry] = await database.db.select().from(auditLog).where(eq(auditLog.action, "event.changed"));
    expect(entry!.summary).toContain(
      "ticket types: deleted “Child”; added “Table of 8” at £90.00; “Adult”: price £12.50 → £14.00",
    );
    // Saving the form as it is now changes nothing, and says so.
    expect(await edit(id, {}, await rowsOf(id))).toEqual({ location: `/admin/events/${id}?saved=unchanged` });
  });

  it("keeps the price sold tickets were bought at when a sold type's price changes", async () => {
    const id = await createCeilidh();
    const shown = await page(id);
    await buy(id, { [shown.ticketTypes[0]!.id]: 2 });
    expect((await page(id)).ticketTypes[0]).toMatchObject({ sold: 2, booked: true, left: 98 });
    expect(await edit(id, {}, await rowsOf(id, { Adult: { price: "15" } }))).toMatchObject({
      location: expect.any(String),
    });
    expect((await storedTypes(id))[0]!.pricePence).toBe(1500);
    expect((await database.db.select().from(bookingItems)).map((item) => item.pricePence)).toEqual([1250]);
  });

  it("takes a sold type off sale and puts it back, and refuses to delete it, saving nothing", async () => {
    const id = await createCeilidh();
    const [adult, child] = (await page(id)).ticketTypes;
    await buy(id, { [child!.id]: 1 });

    const refused = await edit(id, { name: "Renamed" }, await rowsOf(id, { Child: { remove: true } }));
    expect(refused).toMatchObject({
      ok: false,
      fields: { ticketTypes: "must keep “Child”: it has bookings, so it can only be taken off sale, not deleted" },
    });
    expect((await page(id)).values.name).toBe("Summer Ceilidh");
    expect(await storedTypes(id)).toHaveLength(2);

    await edit(id, {}, await rowsOf(id, { Child: { offSale: true } }));
    expect((await page(id)).ticketTypes.map((t) => [t.name, t.status, t.offSale])).toEqual([
      ["Adult", "on-sale", false],
      ["Child", "off-sale", true],
    ]);
    expect((await page(id)).values.ticketTypes[1]!.offSale).toBe(true);
    // The event's price is the lowest on sale.
    expect((await database.db.select().from(events))[0]!.ticketCostPence).toBe(1250);

    await edit(id, {}, await rowsOf(id, { Child: { offSale: false } }));
    expect((await page(id)).ticketTypes[1]).toMatchObject({ status: "on-sale", offSale: false });
    expect(adult).toBeDefined();
  });

  it("names each mistake beside its type's field, by its row on the form, and saves nothing", async () => {
    const id = await createCeilidh();
    const [adult, child] = await rowsOf(id);
    const answer = await edit(id, { name: "Renamed" }, [
      { ...adult, remove: true },
      { ...child, price: "five", cap: "a few" },
      { name: "", price: "3" },
      {
        name: "Early bird",
        price: "9",
        seatsPerTicket: "60",
        saleFrom: "2026-07-05T12:00",
        saleUntil: "2026-07-02T12:00",
      },
      { name: "child", price: "4" },
    ]);
    expect(answer).toMatchObject({
      ok: false,
      fields: {
        "ticketTypes.1.price": "must be an amount in pounds, such as 12.50, or 0 for free",
        "ticketTypes.1.cap": "must be a whole number, or empty for no limit of its own",
        "ticketTypes.2.name": "must not be blank",
        "ticketTypes.3.seatsPerTicket": "must be a whole number from 1 to 50",
        "ticketTypes.4.name": "must differ from the other ticket types' names",
      },
    });
    // The form comes back as typed, the row ticked for deletion still ticked.
    const values = (answer as { values: { event: EventFormValues } }).values.event;
    expect(values.ticketTypes.map((row) => [row.name, row.price, row.remove])).toEqual([
      ["Adult", "12.50", true],
      ["Child", "five", false],
      ["", "3", false],
      ["Early bird", "9", false],
      ["child", "4", false],
    ]);
    expect((await storedTypes(id)).map((t) => t.name)).toEqual(["Adult", "Child"]);

    // The dates are checked once the rest is right.
    const dates = await edit(id, {}, [
      adult!,
      child!,
      { name: "Early bird", price: "9", saleFrom: "2026-07-05T12:00", saleUntil: "2026-07-02T12:00" },
    ]);
    expect(dates).toMatchObject({ fields: { "ticketTypes.2.saleUntil": "must be after the time it goes on sale" } });

    // Every type deleted while tickets are sold here: the event needs one.
    const none = await edit(id, {}, [
      { ...adult, remove: true },
      { ...child, remove: true },
    ]);
    expect(none).toMatchObject({
      fields: { ticketTypes: "must have at least one type while tickets are sold on this site" },
    });
    // Not sold on this site: the types nobody booked can all go.
    expect(
      await edit(id, { notSoldHere: "on" }, [
        { ...adult, remove: true },
        { ...child, remove: true },
      ]),
    ).toMatchObject({
      location: expect.any(String),
    });
    expect(await storedTypes(id)).toEqual([]);
    expect((await page(id)).values).toMatchObject({ ticketCost: "", ticketTypes: [] });
  });

  it("shows a type closed for good as closed, and editing its limit does not re-open it", async () => {
    const made = await post(
      "/admin/events/new",
      form({}, [
        { name: "Early bird", price: "9", cap: "2", saleUntil: "2026-07-10T12:00" },
        { name: "Adult", price: "12" },
      ]),
    );
    const id = /events\/(.+)\?/.exec((made as { location: string }).location)![1]!;
    await buy(id, { [(await page(id)).ticketTypes[0]!.id]: 2 });
    const closed = (await page(id)).ticketTypes[0]!;
    expect(closed).toMatchObject({ status: "ended", closedAt: clock.now().toISOString(), left: null });

    clock.advance(60_000);
    await edit(id, {}, await rowsOf(id, { "Early bird": { cap: "20" } }));
    expect((await page(id)).ticketTypes[0]).toMatchObject({ cap: 20, status: "ended", closedAt: closed.closedAt });
  });

  it("copies an event's types with Duplicate, each new and unsold", async () => {
    const id = await createCeilidh();
    await buy(id, { [(await page(id)).ticketTypes[0]!.id]: 1 });
    await edit(id, {}, await rowsOf(id, { Child: { offSale: true } }));
    const body = new FormData();
    body.append("intent", "duplicate");
    const copied = await post(`/admin/events/${id}`, body, { id });
    const copy = /events\/(.+)\?saved=duplicated$/.exec((copied as { location: string }).location)![1]!;
    expect(
      (await page(copy)).ticketTypes.map((t) => [t.name, t.pricePence, t.cap, t.offSale, t.sold, t.booked]),
    ).toEqual([
      ["Adult", 1250, null, false, 0, false],
      ["Child", 500, 40, true, 0, false],
    ]);
  });
});
