import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { auditLog, staffUsers } from "~db/schema";
import type { DatabaseHandle } from "~/infra/db/database.server";
import type { MailMessage } from "~/infra/email/mailer.server";
import { OutboxWorker } from "~/infra/email/outbox.server";
import { MailSeal } from "~/infra/email/sealed-words.server";
import { testClock } from "../../../tests/support/clock";
import { engines, freshDatabase } from "../../../tests/support/databases";
import { acceptInvitation, changeRole, inviteStaff, removeStaff, staffList } from "./members.server";
import { createStaffUser, ensureFirstStaffUser, requireStaff, startSession, type StaffUser } from "./staff.server";

// Roles on the staff page (docs/decisions/071-staff-roles.md): an invitation's role, changing a
// member's role at once, and never a site without an Owner.

const password = "a long enough password";
const now = new Date("2026-11-22T09:00:00Z");
const charity = { name: "Kilele Village Trust", website: "https://kilele.example" };
const seal = new MailSeal("the session secret of these tests, 32+ characters");

describe.each(engines)("staff roles on %s", (engine) => {
  let database: DatabaseHandle;
  let first: StaffUser;
  beforeEach(async () => {
    database = await freshDatabase(engine);
    await ensureFirstStaffUser(database.db, { email: "first@example.org", password }, now);
    const [row] = await database.db.select().from(staffUsers);
    first = { id: row!.id, email: row!.email, role: row!.role };
  });
  afterEach(() => database.close());

  it("makes the first account an Owner, and an invited member joins with the role they were given (Events unless chosen)", async () => {
    expect(first.role).toBe("owner");
    const received: MailMessage[] = [];
    const worker = new OutboxWorker(
      database.db,
      { describe: () => "a list", send: async (message: MailMessage) => void received.push(message) },
      testClock(now),
      { seal },
    );
    await inviteStaff(
      { db: database.db, charity, outbox: seal },
      first,
      { email: "t@example.org", role: "treasurer" },
      now,
    );
    await inviteStaff({ db: database.db, charity, outbox: seal }, first, { email: "e@example.org" }, now);
    await expect(
      inviteStaff({ db: database.db, charity, outbox: seal }, first, { email: "x@example.org", role: "boss" }, now),
    ).rejects.toMatchObject({ code: "invalid", fields: { role: "Choose one of the four roles." } });
    expect((await staffList(database, now)).invitations.map((i) => [i.email, i.role]).sort()).toEqual([
      ["e@example.org", "events"],
      ["t@example.org", "treasurer"],
    ]);
    await worker.deliverDue();
    const token = (email: string) =>
      /\/admin\/join\/([\w-]+)/.exec(received.find((m) => m.to.address === email)!.text)![1]!;
    const repeat = { newPassword: password, repeatPassword: password };
    expect((await acceptInvitation(database, token("t@example.org"), repeat, now)).role).toBe("treasurer");
    expect((await acceptInvitation(database, token("e@example.org"), repeat, now)).role).toBe("events");
    expect((await staffList(database, now)).members.map((m) => [m.email, m.role])).toEqual([
      ["e@example.org", "events"],
      ["first@example.org", "owner"],
      ["t@example.org", "treasurer"],
    ]);
  });

  it("changes a member's role at once, and the audit log says whose, from what to what", async () => {
    const second = await createStaffUser(database.db, "second@example.org", password, now, "events");
    const { token } = await startSession(database.db, second, now);
    const request = new Request("http://x/api/admin/donations", { headers: { Cookie: `kt_staff=${token}` } });
    const site = { db: database.db, clock: testClock(now) };
    await expect(requireStaff(site, request, "money")).rejects.toMatchObject({ code: "forbidden" });

    expect(await changeRole(database, first, { id: second.id, role: "treasurer" }, now)).toEqual({
      email: "second@example.org",
      from: "events",
      to: "treasurer",
    });
    // The same session, its next request: the new role holds.
    expect((await requireStaff(site, request, "money")).role).toBe("treasurer");
    await expect(requireStaff(site, request, "events")).rejects.toMatchObject({
      code: "forbidden",
      message: "This needs the Owner or Events roles; your role is Treasurer.",
    });
    const [entry] = await database.db.select().from(auditLog).where(eq(auditLog.action, "staff.role-changed"));
    expect(entry).toMatchObject({
      staffEmail: "first@example.org",
      subject: `staff:${second.id}`,
      summary: "Changed second@example.org's role from Events to Treasurer",
    });
    // Unchanged, unknown member, or not a role: nothing is written.
    expect(await changeRole(database, first, { id: second.id, role: "treasurer" }, now)).toMatchObject({
      from: "treasurer",
      to: "treasurer",
    });
    expect(await changeRole(database, first, { id: "00000000-0000-4000-8000-000000000000", role: "door" }, now)).toBe(
      undefined,
    );
    await expect(changeRole(database, first, { id: second.id, role: "admin" }, now)).rejects.toMatchObject({
      code: "invalid",
    });
    expect(await database.db.$count(auditLog, eq(auditLog.action, "staff.role-changed"))).toBe(1);
  });

  it("never leaves the site without an Owner: the last Owner's role cannot be changed, nor the Owner removed", async () => {
    const second = await createStaffUser(database.db, "second@example.org", password, now, "events");
    await expect(changeRole(database, first, { id: first.id, role: "door" }, now)).rejects.toMatchObject({
      code: "conflict",
      message: "This is the last Owner, so their role cannot be changed. Make another member an Owner first.",
    });
    await expect(removeStaff(database, first, first.id, now)).rejects.toMatchObject({
      code: "conflict",
      message: "This is the last Owner, so they cannot be removed. Make another member an Owner first.",
    });
    // With a second Owner, the first may step down; then the second is the last.
    await changeRole(database, first, { id: second.id, role: "owner" }, now);
    await changeRole(database, first, { id: first.id, role: "events" }, now);
    await expect(changeRole(database, first, { id: second.id, role: "door" }, now)).rejects.toMatchObject({
      code: "conflict",
    });
    expect(await removeStaff(database, second, first.id, now)).toEqual({ removed: true, self: false });
  });

  it("keeps an Owner when two Owners are demoted at once", async () => {
    const second = await createStaffUser(database.db, "second@example.org", password, now, "owner");
    const results = await Promise.allSettled([
      changeRole(database, first, { id: first.id, role: "events" }, now),
      changeRole(database, second, { id: second.id, role: "events" }, now),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(await database.db.$count(staffUsers, eq(staffUsers.role, "owner"))).toBe(1);
  });
});
