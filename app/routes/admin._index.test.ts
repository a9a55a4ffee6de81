import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StaffRole } from "~/features/staff/roles";
import { sessionCookieName, startSession } from "~/features/staff/staff.server";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { staffUsers } from "~db/schema";
import { testClock, type TestClock } from "../../tests/support/clock";
import { engines, freshDatabase } from "../../tests/support/databases";
import { callRoute, testServices, type TestServices } from "../../tests/support/services";
import { loader as frameLoader } from "./admin";
import { loader as homeLoader } from "./admin._index";

// The staff home and the staff area's frame, by role (decisions 073 and 074): each member gets only
// the parts their role may open, and the frame says what is not real on a site with no mail server
// and the offline test cards.

describe.each(engines)("the staff home by role on %s", (engine) => {
  let database: DatabaseHandle;
  let clock: TestClock;
  let services: TestServices;

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-11-25T10:00:00Z");
    services = await testServices(database, clock);
  });
  afterEach(() => services.close());

  async function signedIn(role: StaffRole) {
    const [member] = await database.db
      .insert(staffUsers)
      .values({ email: `${role}@example.org`, passwordHash: "not used here", role, createdAt: clock.now() })
      .returning({ id: staffUsers.id });
    const { token } = await startSession(database.db, member!, clock.now());
    return new Request("http://localhost/admin", { headers: { cookie: `${sessionCookieName}=${token}` } });
  }

  it("gives an Owner everything, a Treasurer money but no events, an Events member events but no money", async () => {
    const owner = await callRoute(homeLoader, await signedIn("owner"), await services.request());
    expect(owner.emails).toEqual({ failing: 0, waiting: 0 });
    expect(owner.giftAid).toMatchObject({ count: 0, giftAidPence: 0 });
    expect(owner.invitationsWaiting).toBe(0);
    expect(owner.events).toMatchObject({ total: 0 });
    expect(owner.sinceLastVisit).toMatchObject({ returning: false });

    const treasurer = await callRoute(homeLoader, await signedIn("treasurer"), await services.request());
    expect(treasurer.giftAid).not.toBeNull();
    expect(treasurer.periods?.[0]?.takings.giftPence).toBe(0);
    expect([treasurer.events, treasurer.emails, treasurer.invitationsWaiting]).toEqual([null, null, null]);

    const events = await callRoute(homeLoader, await signedIn("events"), await services.request());
    expect(events.events).toMatchObject({ total: 0 });
    expect(events.periods?.[0]?.takings.ticketPence).toBeNull();
    expect([events.giftAid, events.emails, events.invitationsWaiting]).toEqual([null, null, null]);
  });

  it("the frame gives the member's role and says e-mail goes to the outbox folder and payments are a demo", async () => {
    const frame = await callRoute(frameLoader, await signedIn("treasurer"), await services.request());
    expect(frame).toEqual({
      email: "treasurer@example.org",
      role: "treasurer",
      status: { mail: "folder", payments: "demo" },
    });
  });
});
