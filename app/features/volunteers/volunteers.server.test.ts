import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { RateLimiter } from "~/infra/rate-limit.server";
import { engines, freshDatabase } from "../../../tests/support/databases";
import { testCharity } from "../../../tests/support/content";
import { outbox } from "~db/schema";
import { createStaffUser } from "~/features/staff/staff.server";
import { auditPage } from "~/infra/audit/audit.server";
import { deleteVolunteer, listVolunteers, submitVolunteer, volunteersPage } from "./volunteers.server";

const now = new Date("2026-11-22T10:00:00Z");
const good = { name: "Grace Kimaro", email: "grace@example.org", reason: "I would love to help at the quiz night." };

describe.each(engines)("volunteer sign-ups on %s", (engine) => {
  let database: DatabaseHandle;
  let limiter: RateLimiter;
  beforeEach(async () => {
    database = await freshDatabase(engine);
    limiter = new RateLimiter(database.db, { name: "volunteer-sign-ups", limit: 3, windowMs: 60_000 });
  });
  afterEach(() => database.close());

  const submit = (input: Record<string, unknown>, clientAddress = "203.0.113.7") =>
    submitVolunteer(
      { db: database.db, clock: { now: () => now }, charity: testCharity, limits: { volunteerSignUps: limiter } },
      input,
      clientAddress,
    );

  it("stores a valid sign-up, trimmed", async () => {
    expect(await submit({ ...good, name: " Grace Kimaro " })).toEqual({ status: "ok" });
    const rows = await listVolunteers(database);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject(good);
  });

  it("queues a confirmation e-mail with the sign-up, and none for a bad sign-up or a robot", async () => {
    await submit(good);
    await submit({ name: "", email: "nope", reason: good.reason });
    await submit({ ...good, website: "http://spam.example" });
    const mails = await database.db.select().from(outbox);
    expect(mails).toHaveLength(1);
    const [grace] = await listVolunteers(database);
    expect(mails[0]).toMatchObject({
      kind: "volunteer-confirmation",
      dedupeKey: `volunteer-confirmation:${grace!.id}`,
      recipient: "Grace Kimaro <grace@example.org>",
    });
    const message = mails[0]!.payload as { subject: string; text: string };
    expect(message.subject).toBe("Thank you for offering to volunteer with Kilele Village Trust");
    expect(message.text).toContain(`“${good.reason}”`);
  });

  it("answers a bad sign-up with the field messages and stores nothing", async () => {
    const result = await submit({ name: "", email: "nope", reason: good.reason });
    expect(result).toEqual({
      status: "invalid",
      errors: { name: "Name must not be left blank.", email: "Invalid email." },
    });
    expect(await listVolunteers(database)).toEqual([]);
  });

  it.each([
    "one@attacker.example, two@attacker.example, Bob",
    "Friends: a@attacker.example, b@attacker.example;",
    "Bob <evil@attacker.example>",
  ])("refuses a name that could address the welcome e-mail elsewhere (%j), and queues nothing", async (name) => {
    expect(await submit({ ...good, name })).toEqual({
      status: "invalid",
      errors: { name: "Name may only contain letters, spaces, hyphens, apostrophes and full stops." },
    });
    expect(await submit({ ...good, email: "bob@example.org, eve@attacker.example" })).toEqual({
      status: "invalid",
      errors: { email: "Invalid email." },
    });
    expect(await listVolunteers(database)).toEqual([]);
    expect(await database.db.select().from(outbox)).toEqual([]);
  });

  it("thanks a robot that filled the hidden field, and stores nothing", async () => {
    expect(await submit({ ...good, website: "http://spam.example" })).toEqual({ status: "ok" });
    expect(await listVolunteers(database)).toEqual([]);
  });

  it("turns away a flood from one address but not from another", async () => {
    for (let i = 0; i < 3; i++) expect((await submit({ ...good, email: `g${i}@example.org` })).status).toBe("ok");
    expect((await submit(good)).status).toBe("limited");
    expect((await submit(good, "198.51.100.1")).status).toBe("ok");
    expect(await listVolunteers(database)).toHaveLength(4);
  });

  it("refuses over-long text at the database too", async () => {
    const { volunteers } = await import("~db/schema");
    await expect(
      database.db.insert(volunteers).values({ ...good, name: "n".repeat(81), createdAt: now }),
    ).rejects.toThrow();
  });

  it("gives staff 50 sign-ups a page, newest first", async () => {
    for (let i = 0; i < 52; i++) {
      await submitVolunteer(
        {
          db: database.db,
          clock: { now: () => new Date(now.getTime() + i * 60_000) },
          charity: testCharity,
          limits: {
            volunteerSignUps: new RateLimiter(database.db, {
              name: "volunteer-sign-ups",
              limit: 100,
              windowMs: 60_000,
            }),
          },
        },
        { ...good, name: `Grace ${String.fromCharCode(65 + (i % 26))}` },
        "203.0.113.8",
      );
    }
    const first = await volunteersPage(database, 1);
    expect(first).toMatchObject({ total: 52, pages: 2 });
    expect(first.rows).toHaveLength(50);
    expect(first.rows[0]!.createdAt).toBe(new Date(now.getTime() + 51 * 60_000).toISOString());
    expect((await volunteersPage(database, 2)).rows).toHaveLength(2);
  });

  it("deletes a sign-up on request and logs who did it without naming the volunteer", async () => {
    const staff = await createStaffUser(database.db, "sam@example.org", "a long staff password", now);
    await submit(good);
    const [grace] = await listVolunteers(database);
    expect(await deleteVolunteer(database, staff, grace!.id, now)).toBe(true);
    expect(await listVolunteers(database)).toEqual([]);
    expect(await deleteVolunteer(database, staff, grace!.id, now)).toBe(false);
    expect(await deleteVolunteer(database, staff, "not-an-id", now)).toBe(false);
    const log = await auditPage(database.db, 1);
    expect(log.rows).toEqual([
      expect.objectContaining({
        by: "sam@example.org",
        action: "volunteer.deleted",
        subject: `volunteer:${grace!.id}`,
      }),
    ]);
    expect(JSON.stringify(log)).not.toMatch(/Grace|grace@/);
  });
});
