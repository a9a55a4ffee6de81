import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DoorList, CheckInResult } from "~/features/door/schema";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { refundBooking } from "~/features/booking/refunds.server";

import type { Services } from "../../server/services";
import { testClock, type TestClock } from "../../tests/support/clock";
import { engines, freshDatabase, insertEvent } from "../../tests/support/databases";
import { callRoute, testServices, type TestServices, signedInStaff } from "../../tests/support/services";
import { buyTypes, giveTypes } from "../../tests/support/ticket-types";
import { loader as ticketsCsv } from "./admin.events.id.tickets-csv";
import { loader as doorListPage } from "./admin.events.id.door-list";
import { loader as eventPage } from "./admin.events.id";
import { action as checkInsPost, loader as checkInsGet } from "./api.admin.events.id.check-ins";
import { loader as guests } from "./api.admin.events.id.guests";
import { loader as ticketsApi } from "./api.admin.events.id.tickets";

// An event's tickets by type after the sale (decision 082): the CSV, the printed door list, the
// event's page, and the door's list, check-in and search, through their route handlers.

describe.each(engines)("an event's tickets by type on %s", (engine) => {
  let database: DatabaseHandle;
  let clock: TestClock;
  let services: TestServices;
  let site: Services;
  let cookie: string;
  let eventId: string;
  let types: Record<string, string>;
  let staff: { id: string; email: string };

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-11-27T10:00:00Z");
    services = await testServices(database, clock);
    site = await services.request();
    ({ staff, cookie } = await signedInStaff(database.db, clock.now()));
    eventId = await insertEvent(database.db, { name: "Harvest Supper", totalAvailableTickets: 60 }, clock.now());
    types = await giveTypes(
      database.db,
      eventId,
      [
        { name: "Adult", pricePence: 1250 },
        { name: "Child", pricePence: 500 },
        { name: "Table of 8", pricePence: 8000, seatsPerTicket: 8 },
      ],
      clock.now(),
    );
  });
  afterEach(() => services.close());

  const get = (path: string) =>
    new Request(`http://localhost${path}`, { headers: { cookie, accept: "application/json" } });
  const params = () => ({ id: eventId });

  async function sell() {
    const okafor = await buyTypes(
      site,
      eventId,
      { [types.Adult!]: 2, [types.Child!]: 1 },
      { name: "Chidi Okafor", email: "chidi@example.org" },
    );
    clock.advance(60_000);
    const table = await buyTypes(
      site,
      eventId,
      { [types["Table of 8"]!]: 4 },
      { name: "Bea Tanner", email: "bea@example.org" },
    );
    return { okafor, table };
  }

  it("the CSV keeps its columns and appends each booking's ticket types", async () => {
    const { okafor } = await sell();
    await refundBooking(site, staff, okafor, {
      quantity: 1,
      ticketTypeId: types.Child,
      reason: "Ill",
      key: crypto.randomUUID(),
    });
    const response = (await callRoute(ticketsCsv, get(`/admin/events/${eventId}/tickets.csv`), site, {
      params: params(),
    })) as Response;
    const lines = (await response.text())
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toBe(
      "Buyer,E-mail,Quantity,Booking reference,Booking code,Date sold,Checked in,Refunded,Ticket types",
    );
    expect(lines[1]).toMatch(/^Chidi Okafor,chidi@example\.org,2,.*,0,no,2 × Adult$/);
    expect(lines[2]).toMatch(/^Bea Tanner,bea@example\.org,32,.*,0,no,4 × Table of 8$/);
  });

  it("the staff API's ticket list gives each booking's tickets by type", async () => {
    const { okafor } = await sell();
    const response = (await callRoute(ticketsApi, get(`/api/admin/events/${eventId}/tickets`), site, {
      params: params(),
    })) as Response;
    const { tickets } = (await response.json()) as {
      tickets: { bookingRef: string; quantity: number; ticketTypes: Record<string, unknown>[] }[];
    };
    expect(tickets.map((t) => [t.quantity, t.ticketTypes])).toEqual([
      [
        3,
        [
          { id: types.Adult, name: "Adult", quantity: 2, refunded: 0, pricePence: 1250, seatsPerTicket: 1 },
          { id: types.Child, name: "Child", quantity: 1, refunded: 0, pricePence: 500, seatsPerTicket: 1 },
        ],
      ],
      [
        32,
        [
          {
            id: types["Table of 8"],
            name: "Table of 8",
            quantity: 4,
            refunded: 0,
            pricePence: 8000,
            seatsPerTicket: 8,
          },
        ],
      ],
    ]);
    expect(tickets[0]!.bookingRef).toBe(okafor);
  });

  it("the printed door list and the event's ticket list say the types", async () => {
    await sell();
    const list = await callRoute(doorListPage, get(`/admin/events/${eventId}/door-list`), site, { params: params() });
    expect(list.tickets.map((t) => [t.name, t.quantity, t.types.map((x) => `${x.quantity} × ${x.name}`)])).toEqual([
      ["Bea Tanner", 32, ["4 × Table of 8"]],
      ["Chidi Okafor", 3, ["2 × Adult", "1 × Child"]],
    ]);
    const page = await callRoute(eventPage, get(`/admin/events/${eventId}`), site, { params: params() });
    expect(page.tickets.rows.map((t) => [t.name, t.types.map((x) => x.name)])).toEqual([
      ["Chidi Okafor", ["Adult", "Child"]],
      ["Bea Tanner", ["Table of 8"]],
    ]);
  });

  it("the door's list, a check-in's answer and a search by e-mail carry the types; four tables check in thirty-two at once", async () => {
    const { okafor, table } = await sell();
    const list = (await (
      (await callRoute(checkInsGet, get(`/api/admin/events/${eventId}/check-ins`), site, {
        params: params(),
      })) as Response
    ).json()) as DoorList;
    expect(list.tickets.find((t) => t.bookingRef === okafor)).toMatchObject({
      quantity: 3,
      types: [
        { name: "Adult", quantity: 2, seatsPerTicket: 1 },
        { name: "Child", quantity: 1, seatsPerTicket: 1 },
      ],
    });

    const body = {
      checkIns: [
        {
          id: crypto.randomUUID(),
          bookingRef: table,
          count: 32,
          scannedAt: clock.now().toISOString(),
          device: "door-1",
        },
      ],
    };
    const posted = (await callRoute(
      checkInsPost,
      new Request(`http://localhost/api/admin/events/${eventId}/check-ins`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body),
      }),
      site,
      { params: params() },
    )) as Response;
    expect(posted.status).toBe(200);
    const [result] = ((await posted.json()) as { results: CheckInResult[] }).results;
    expect(result).toMatchObject({
      outcome: "checked-in",
      ticket: { quantity: 32, checkedIn: 32, types: [{ name: "Table of 8", quantity: 4, seatsPerTicket: 8 }] },
    });

    const found = (await (
      (await callRoute(guests, get(`/api/admin/events/${eventId}/guests?q=chidi@example.org`), site, {
        params: params(),
      })) as Response
    ).json()) as { bookingRefs: string[] };
    expect(found.bookingRefs).toEqual([okafor]);
  });
});
