import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { refundBooking } from "~/features/booking/refunds.server";
import type { DatabaseHandle } from "~/infra/db/database.server";

import type { Services } from "../../server/services";
import { testClock, type TestClock } from "../../tests/support/clock";
import { engines, freshDatabase, insertEvent } from "../../tests/support/databases";
import { callRoute, testServices, type TestServices, signedInStaff } from "../../tests/support/services";
import { buyTypes, giveTypes } from "../../tests/support/ticket-types";
import { loader as homeLoader } from "./admin._index";
import { loader as eventsLoader } from "./admin.events._index";

// The staff dashboards for an event of several ticket types (decision 082): each event's sold,
// held and left are its seats against its one cap (Tickets available), whatever the types; the
// takings count tickets of every type; a refund of one type's tickets comes off both at once.

describe.each(engines)("the staff dashboards with ticket types on %s", (engine) => {
  let database: DatabaseHandle;
  let clock: TestClock;
  let services: TestServices;
  let site: Services;
  let cookie: string;
  let staff: { id: string; email: string };

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-11-27T10:00:00Z");
    services = await testServices(database, clock);
    site = await services.request();
    ({ staff, cookie } = await signedInStaff(database.db, clock.now()));
  });
  afterEach(() => services.close());

  it("counts an event's seats against its cap and the takings in tickets, and a refund by type comes off both", async () => {
    const eventId = await insertEvent(database.db, { name: "Charity Dinner", totalAvailableTickets: 40 }, clock.now());
    const types = await giveTypes(
      database.db,
      eventId,
      [
        { name: "Single seat", pricePence: 3000 },
        { name: "Table of 8", pricePence: 20000, seatsPerTicket: 8 },
      ],
      clock.now(),
    );
    const tables = await buyTypes(site, eventId, { [types["Table of 8"]!]: 2 }, { email: "tables@example.org" });
    await buyTypes(site, eventId, { [types["Single seat"]!]: 6 }, { email: "seats@example.org" });

    // The takings count what was paid before now.
    clock.advance(60_000);
    const request = (path: string) => new Request(`http://localhost${path}`, { headers: { cookie } });
    const eventsRow = async () =>
      (await callRoute(eventsLoader, request("/admin/events"), site)).current.rows.find((row) => row.id === eventId);
    expect(await eventsRow()).toMatchObject({ sold: 22, held: 0, left: 18, total: 40 });
    const home = await callRoute(homeLoader, request("/admin"), site);
    expect(home.events?.rows.find((event) => event.id === eventId)).toMatchObject({ sold: 22, left: 18, sale: "fast" });
    expect(home.periods?.[0]?.takings).toMatchObject({
      bookings: 2,
      tickets: 8,
      ticketPence: 2 * 20000 + 6 * 3000 + 2 * 49,
    });

    await refundBooking(site, staff, tables, {
      quantity: 1,
      ticketTypeId: types["Table of 8"],
      reason: "A table cannot come",
      key: crypto.randomUUID(),
    });
    expect(await eventsRow()).toMatchObject({ sold: 14, left: 26, takenPence: 20000 + 6 * 3000 + 2 * 49 });
  });
});
