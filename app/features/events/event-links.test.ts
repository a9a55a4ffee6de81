import path from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { PictureLibrary } from "~/infra/images/uploads.server";
import { action as editEventRoute } from "~/routes/admin.events.id";
import { events, staffUsers } from "~db/schema";
import { testClock, type TestClock } from "../../../tests/support/clock";
import { engines, freshDatabase, insertEvent } from "../../../tests/support/databases";
import { sessionCookieName, startSession, type StaffUser } from "../staff/staff.server";
import { saveEventForm } from "./event-form.server";
import { findEvent } from "./events.server";

// An event's ticketing link is an https address (docs/decisions/056-one-rule-for-staff-links.md);
// events saved before that rule may hold an http one. Through the staff page's action, as its form posts.

describe.each(engines)("an event's link on the staff pages on %s", (engine) => {
  let database: DatabaseHandle;
  let clock: TestClock;
  let cookie: string;
  let staff: StaffUser;

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-11-27T09:00:00Z");
    const [member] = await database.db
      .insert(staffUsers)
      .values({ email: "staff@example.org", passwordHash: "not used here", createdAt: clock.now() })
      .returning({ id: staffUsers.id, email: staffUsers.email, role: staffUsers.role });
    staff = member!;
    cookie = `${sessionCookieName}=${(await startSession(database.db, staff, clock.now())).token}`;
  });
  afterEach(() => database.close());

  async function duplicate(id: string) {
    const request = new Request(`http://localhost/admin/events/${id}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
      body: new URLSearchParams({ intent: "duplicate" }),
    });
    const services = {
      config: { publicUrl: "http://localhost" },
      db: database.db,
      clock,
      pictures: new PictureLibrary(path.resolve("content/images")),
    };
    const response = (await editEventRoute({ request, context: { services }, params: { id } } as unknown as Parameters<
      typeof editEventRoute
    >[0])) as Response;
    expect(response.status).toBe(302);
    const copyId = /^\/admin\/events\/([0-9a-f-]{36})\?saved=duplicated$/.exec(response.headers.get("Location")!)![1]!;
    return findEvent(database, copyId);
  }

  it("is copied by Duplicate when it passes today's rule, and left out when it does not", async () => {
    const current = await insertEvent(database.db, { link: "https://tickets.example.org/quiz" }, clock.now());
    const older = await insertEvent(database.db, { link: "http://tickets.example.org/quiz" }, clock.now());

    expect(await duplicate(current)).toMatchObject({
      name: "Copy of Quiz Night",
      link: "https://tickets.example.org/quiz",
    });
    expect(await duplicate(older)).toMatchObject({ name: "Copy of Quiz Night", link: null });
    const [original] = await database.db.select().from(events).where(eq(events.id, older));
    expect(original!.link).toBe("http://tickets.example.org/quiz");
  });

  it("is asked for again beside Link when an event saved with an http one is saved, and nothing changes until it is", async () => {
    const id = await insertEvent(database.db, { link: "http://tickets.example.org/quiz" }, clock.now());
    const event = (await findEvent(database, id))!;
    const save = (link: string) => {
      const form = new FormData();
      const fields = {
        intent: "save",
        name: "Grand Quiz Night",
        description: event.description,
        posterImage: event.posterImage,
        eventDate: "2026-12-05T19:00",
        ticketSaleExpiry: "2026-12-04T12:00",
        location: event.location,
        ticketCost: "12.50",
        totalAvailableTickets: "50",
        link,
      };
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      const pictures = new PictureLibrary(path.resolve("content/images"));
      return saveEventForm(form, { id }, { db: database.db, clock, pictures }, staff);
    };

    const refused = await save("http://tickets.example.org/quiz");
    expect(refused).toMatchObject({
      errors: { link: expect.stringContaining("must be an address starting with https://") },
    });
    expect(await findEvent(database, id)).toMatchObject({
      name: "Quiz Night",
      link: "http://tickets.example.org/quiz",
    });

    expect(await save("https://tickets.example.org/quiz")).toMatchObject({
      event: { name: "Grand Quiz Night", link: "https://tickets.example.org/quiz" },
    });
  });
});
