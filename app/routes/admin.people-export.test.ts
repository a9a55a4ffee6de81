import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { refundBooking } from "~/features/booking/refunds.server";
import type { PersonDataExport } from "~/features/people/schema";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { takenByType } from "~/infra/db/seats.server";
import { bookingItems, bookings } from "~db/schema";
import type { Services } from "../../server/services";
import { testClock, type TestClock } from "../../tests/support/clock";
import { engines, freshDatabase, insertEvent } from "../../tests/support/databases";
import { callRoute, testServices, type TestServices, signedInStaff } from "../../tests/support/services";
import { buyTypes, giveTypes } from "../../tests/support/ticket-types";
import { action as peopleAction } from "./admin.people";
import { loader as exportLoader } from "./admin.people-export";

// A person's data and tickets by type (decision 082): the export lists each booking's types and
// what a refund gave back of which; erasure keeps the tickets by type (they name no one).

describe.each(engines)("a person's export and erasure with ticket types on %s", (engine) => {
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

  it("exports the booking's types and the refund's type; erasure keeps the tickets by type", async () => {
    const eventId = await insertEvent(database.db, { name: "Ceilidh" }, clock.now());
    const types = await giveTypes(
      database.db,
      eventId,
      [
        { name: "Adult", pricePence: 1250 },
        { name: "Child", pricePence: 500 },
      ],
      clock.now(),
    );
    const ref = await buyTypes(
      site,
      eventId,
      { [types.Adult!]: 2, [types.Child!]: 1 },
      { name: "Amina Mushi", email: "amina@example.org" },
    );
    await refundBooking(site, staff, ref, {
      quantity: 1,
      ticketTypeId: types.Child,
      reason: "Ill",
      key: crypto.randomUUID(),
    });

    const response = (await callRoute(
      exportLoader,
      new Request("http://localhost/admin/people/export?email=amina@example.org", { headers: { cookie } }),
      site,
    )) as Response;
    const exported = (await response.json()) as PersonDataExport;
    expect(exported.bookings).toHaveLength(1);
    expect(exported.bookings[0]).toMatchObject({
      bookingReference: ref,
      quantity: 3,
      tickets: "2 × Adult, 1 × Child",
      ticketTypes: [
        { type: "Adult", quantity: 2, refunded: 0, price: "£12.50", pricePence: 1250, placesEach: 1 },
        { type: "Child", quantity: 1, refunded: 1, price: "£5.00", pricePence: 500, placesEach: 1 },
      ],
    });
    expect(exported.refunds).toMatchObject([{ places: 1, ticketType: "Child", amount: "£5.00" }]);

    const form = new FormData();
    form.append("intent", "erase");
    form.append("email", "amina@example.org");
    const erased = (await callRoute(
      peopleAction,
      new Request("http://localhost/admin/people", { method: "POST", body: form, headers: { cookie } }),
      site,
    )) as { data?: { ok: boolean } } & { ok?: boolean };
    expect(erased.data?.ok ?? erased.ok).toBe(true);
    const [booking] = await database.db.select().from(bookings).where(eq(bookings.bookingRef, ref));
    expect(booking).toMatchObject({ holderName: "Erased", amountPence: 3049, refundedPence: 500 });
    const kept = await database.db.select().from(bookingItems).where(eq(bookingItems.bookingRef, ref));
    expect(kept.map((item) => [item.quantity, item.refunded, item.pricePence]).sort()).toEqual([
      [1, 1, 500],
      [2, 0, 1250],
    ]);
    const taken = await takenByType(database.db, eventId, clock.now());
    expect([taken.get(types.Adult!)?.sold, taken.get(types.Child!)?.sold ?? 0]).toEqual([2, 0]);
  });
});
