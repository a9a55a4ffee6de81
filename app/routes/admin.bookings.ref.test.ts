import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Services } from "../../server/services";
import type { DatabaseHandle } from "~/infra/db/database.server";

import { testClock, type TestClock } from "../../tests/support/clock";
import { engines, freshDatabase, insertEvent } from "../../tests/support/databases";
import { callRoute, testServices, type TestServices, signedInStaff } from "../../tests/support/services";
import { buyTypes, giveTypes } from "../../tests/support/ticket-types";
import { action, loader } from "./admin.bookings.ref";
import { loader as bookingApi } from "./api.admin.bookings.ref";
import { action as refundsApi } from "./api.admin.bookings.ref.refunds";

// A booking of several ticket types on its staff page and through the staff API (decision 082):
// its tickets by type, and a refund that names its type.

describe.each(engines)("a booking's staff page and API by ticket type on %s", (engine) => {
  let database: DatabaseHandle;
  let clock: TestClock;
  let services: TestServices;
  let site: Services;
  let cookie: string;
  let types: Record<string, string>;
  let ref: string;

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-11-27T10:00:00Z");
    services = await testServices(database, clock);
    site = await services.request();
    ({ cookie } = await signedInStaff(database.db, clock.now()));
    const eventId = await insertEvent(database.db, { name: "Ceilidh", totalAvailableTickets: 40 }, clock.now());
    types = await giveTypes(
      database.db,
      eventId,
      [
        { name: "Adult", pricePence: 1250 },
        { name: "Child", pricePence: 500 },
      ],
      clock.now(),
    );
    ref = await buyTypes(site, eventId, { [types.Adult!]: 2, [types.Child!]: 3 });
  });
  afterEach(() => services.close());

  const params = () => ({ bookingRef: ref });
  const page = async () =>
    (
      await callRoute(loader, new Request(`http://localhost/admin/bookings/${ref}`, { headers: { cookie } }), site, {
        params: params(),
      })
    ).booking;
  async function post(fields: Record<string, string>) {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    const request = new Request(`http://localhost/admin/bookings/${ref}`, {
      method: "POST",
      body: form,
      headers: { cookie },
    });
    const answer = (await callRoute(action, request, await services.request(), { params: params() })) as unknown;
    return (typeof answer === "object" && answer !== null && "data" in answer ? answer.data : answer) as {
      ok: boolean;
      message: string;
      fields?: Record<string, string>;
    };
  }
  const api = (path: string, body?: unknown) =>
    new Request(`http://localhost${path}`, {
      method: body ? "POST" : "GET",
      headers: { cookie, "content-type": "application/json", accept: "application/json" },
      body: body ? JSON.stringify(body) : undefined,
    });

  it("lists the tickets by type with their prices, and refunds the type chosen on the form", async () => {
    const booking = await page();
    expect(booking).toMatchObject({ quantity: 5, validTickets: 5, validPlaces: 5, refundable: 3 });
    expect(
      booking.items.map((item) => [item.name, item.pricePence, item.quantity, item.refunded, item.refundable]),
    ).toEqual([
      ["Adult", 1250, 2, 0, 2],
      ["Child", 500, 3, 0, 3],
    ]);

    const missing = await post({ intent: "refund", quantity: "1", reason: "Ill", key: crypto.randomUUID() });
    expect(missing).toMatchObject({
      ok: false,
      fields: { ticketTypeId: "Choose which tickets to refund: this booking has tickets of more than one type." },
    });
    const done = await post({
      intent: "refund",
      ticketTypeId: types.Child!,
      quantity: "2",
      reason: "Two cannot come",
      key: crypto.randomUUID(),
    });
    expect(done).toMatchObject({
      ok: true,
      message: "Refunded: 2 Child tickets, £10.00. The buyer is told by e-mail.",
    });

    const after = await page();
    expect(after).toMatchObject({ validTickets: 3, refundedPence: 1000 });
    expect(after.items.map((item) => [item.name, item.refunded, item.refundable])).toEqual([
      ["Adult", 0, 2],
      ["Child", 2, 1],
    ]);
    expect(after.refunds).toMatchObject([{ quantity: 2, ticketType: "Child", amountPence: 1000 }]);
  });

  it("the staff API refunds by ticketTypeId and gives the booking's types", async () => {
    const read = (await callRoute(bookingApi, api(`/api/admin/bookings/${ref}`), site, {
      params: params(),
    })) as Response;
    const booking = (await read.json()) as { ticketTypes: { ticketTypeId: string; name: string }[] };
    expect(booking.ticketTypes).toMatchObject([
      { ticketTypeId: types.Adult, name: "Adult", quantity: 2, refunded: 0, pricePence: 1250, seatsPerTicket: 1 },
      { ticketTypeId: types.Child, name: "Child", quantity: 3, refunded: 0, pricePence: 500, seatsPerTicket: 1 },
    ]);

    const refund = (body: unknown) =>
      callRoute(refundsApi, api(`/api/admin/bookings/${ref}/refunds`, body), site, {
        params: params(),
      }) as Promise<Response>;
    const refused = await refund({ quantity: 1, reason: "Ill", key: crypto.randomUUID() });
    expect(refused.status).toBe(400);
    expect((await refused.json()).fields).toEqual({
      ticketTypeId: "Choose which tickets to refund: this booking has tickets of more than one type.",
    });
    const made = await refund({ quantity: 1, ticketTypeId: types.Adult, reason: "Ill", key: crypto.randomUUID() });
    expect(made.status).toBe(201);
    expect(await made.json()).toMatchObject({
      quantity: 1,
      ticketTypeId: types.Adult,
      ticketType: "Adult",
      amountPence: 1250,
      status: "succeeded",
    });
  });
});
