import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { auditLog, outbox, staffInvitations, staffSessions, staffUsers } from "~db/schema";
import type { DatabaseHandle } from "~/infra/db/database.server";
import type { MailMessage } from "~/infra/email/mailer.server";
import { OutboxWorker } from "~/infra/email/outbox.server";
import { MailSeal } from "~/infra/email/sealed-words.server";
import { emailPreview } from "~/features/emails/emails.server";
import { testClock } from "../../../tests/support/clock";
import { engines, freshDatabase } from "../../../tests/support/databases";
import {
  acceptInvitation,
  cancelInvitation,
  changePassword,
  inviteStaff,
  openInvitation,
  removeStaff,
  signOutEverywhere,
  staffList,
} from "./members.server";
import { authenticate, createStaffUser, startSession, userForSession, type StaffUser } from "./staff.server";

const password = "a long enough password";
const newPassword = "another long password";
const now = new Date("2026-11-22T09:00:00Z");
const hour = 3_600_000;
const charity = { name: "Kilele Village Trust", website: "https://kilele.example" };

const seal = new MailSeal("the session secret of these tests, 32+ characters");
/** What inviting needs of the site: its database, the charity, and the outbox's seal. */
const inviting = (database: DatabaseHandle) => ({ db: database.db, charity, outbox: seal });

describe.each(engines)("staff members on %s", (engine) => {
  let database: DatabaseHandle;
  let first: StaffUser;
  let received: MailMessage[];
  let outboxWorker: OutboxWorker;
  beforeEach(async () => {
    database = await freshDatabase(engine);
    received = [];
    const mailer = { describe: () => "a list", send: async (message: MailMessage) => void received.push(message) };
    outboxWorker = new OutboxWorker(database.db, mailer, testClock(now), { seal });
    first = await createStaffUser(database.db, "first@example.org", password, now);
  });
  afterEach(() => database.close());

  /** The token in the link of the invitation e-mail to this address, as it arrives (the outbox sends what is due). */
  async function linkToken(email: string) {
    await outboxWorker.deliverDue();
    const mail = received.filter((message) => message.to.address === email).at(-1)!;
    return /https:\/\/kilele\.example\/admin\/join\/([\w-]+)/.exec(mail.text)![1]!;
  }

  it("invites by a link that works once, until it expires 72 hours later, keeping only the token's hash", async () => {
    const invited = await inviteStaff(inviting(database), first, { email: " New@Example.org " }, now);
    expect(invited).toMatchObject({ email: "new@example.org", replaced: false });
    const token = await linkToken("new@example.org");
    expect(token).toMatch(/^[\w-]{43}$/);
    const [stored] = await database.db.select().from(staffInvitations);
    expect(stored!.tokenHash).not.toContain(token);
    expect(stored!.expiresAt.getTime() - now.getTime()).toBe(72 * hour);
    expect((await staffList(database, now)).invitations).toEqual([
      expect.objectContaining({ email: "new@example.org", invitedBy: "first@example.org" }),
    ]);

    // Expired: refused, and nothing is made.
    const late = new Date(now.getTime() + 72 * hour + 1000);
    expect(await openInvitation(database, token, late)).toBeUndefined();
    await expect(
      acceptInvitation(database, token, { newPassword, repeatPassword: newPassword }, late),
    ).rejects.toMatchObject({ code: "not-found", message: expect.stringContaining("has expired") });
    expect(await database.db.$count(staffUsers)).toBe(1);

    // In time: the account, with the chosen password; then the link is used up.
    const soon = new Date(now.getTime() + hour);
    expect(await openInvitation(database, token, soon)).toEqual({ email: "new@example.org" });
    const joined = await acceptInvitation(database, token, { newPassword, repeatPassword: newPassword }, soon);
    expect(await authenticate(database.db, "new@example.org", newPassword)).toEqual(joined);
    await expect(
      acceptInvitation(database, token, { newPassword, repeatPassword: newPassword }, soon),
    ).rejects.toMatchObject({ code: "not-found" });
    expect((await staffList(database, soon)).invitations).toEqual([]);
    expect((await database.db.select().from(auditLog)).map((e) => e.action).sort()).toEqual([
      "staff.invited",
      "staff.joined",
    ]);
  });

  it("keeps no readable link: the outbox and staff's preview hold only its mark, and once sent nothing can make it again", async () => {
    const invited = await inviteStaff(inviting(database), first, { email: "new@example.org" }, now);
    const [queued] = await database.db.select().from(outbox).where(eq(outbox.recipient, "new@example.org"));
    const stored = JSON.stringify(queued);
    expect(queued!.payload.text).toContain("https://kilele.example/admin/join/{{token}}");
    const preview = await emailPreview(database, queued!.id);
    expect(preview.text).toContain("https://kilele.example/admin/join/••••••••");
    expect(preview.html).toContain("https://kilele.example/admin/join/••••••••");

    const token = await linkToken("new@example.org");
    expect(stored).not.toContain(token);
    expect(JSON.stringify(preview)).not.toContain(token);
    expect(received.at(-1)!.html).toContain(`https://kilele.example/admin/join/${token}`);
    const [sent] = await database.db.select().from(outbox).where(eq(outbox.id, queued!.id));
    expect(sent!.sentAt).not.toBeNull();
    expect(sent!.sealed).toBeNull();
    expect(JSON.stringify(sent)).not.toContain(token);
    expect(JSON.stringify(await database.db.select().from(staffInvitations))).not.toContain(token);
    expect(invited.id).not.toContain(token);
    // The link still works for the person it was sent to.
    expect(await openInvitation(database, token, now)).toEqual({ email: "new@example.org" });
  });

  it("refuses an unknown link, a weak or mismatched password, and makes one account from a link used twice at once", async () => {
    await expect(
      acceptInvitation(database, "x".repeat(43), { newPassword, repeatPassword: newPassword }, now),
    ).rejects.toMatchObject({ code: "not-found" });
    await inviteStaff(inviting(database), first, { email: "new@example.org" }, now);
    const token = await linkToken("new@example.org");
    await expect(
      acceptInvitation(database, token, { newPassword: "short", repeatPassword: "short" }, now),
    ).rejects.toMatchObject({ fields: { newPassword: "The password must be at least 12 characters." } });
    await expect(
      acceptInvitation(database, token, { newPassword, repeatPassword: `${newPassword}!` }, now),
    ).rejects.toMatchObject({ fields: { repeatPassword: "The two passwords are not the same." } });
    const results = await Promise.allSettled([
      acceptInvitation(database, token, { newPassword, repeatPassword: newPassword }, now),
      acceptInvitation(database, token, { newPassword, repeatPassword: newPassword }, now),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(await database.db.$count(staffUsers)).toBe(2);
  });

  it("refuses to invite a member or a bad address, and replaces a live invitation (the old link stops working)", async () => {
    await expect(inviteStaff(inviting(database), first, { email: "FIRST@example.org" }, now)).rejects.toMatchObject({
      code: "conflict",
      fields: { email: "first@example.org is already a member of staff." },
    });
    await expect(inviteStaff(inviting(database), first, { email: "not an address" }, now)).rejects.toMatchObject({
      code: "invalid",
    });
    await inviteStaff(inviting(database), first, { email: "new@example.org" }, now);
    const oldToken = await linkToken("new@example.org");
    const again = await inviteStaff(inviting(database), first, { email: "new@example.org" }, now);
    expect(again.replaced).toBe(true);
    expect(await openInvitation(database, oldToken, now)).toBeUndefined();
    expect(await openInvitation(database, await linkToken("new@example.org"), now)).toEqual({
      email: "new@example.org",
    });
    expect(await cancelInvitation(database, first, again.id, now)).toBe(true);
    expect(await cancelInvitation(database, first, again.id, now)).toBe(false);
    expect((await staffList(database, now)).invitations).toEqual([]);
  });

  it("never removes the last member, and a removed member's sessions end at once", async () => {
    await expect(removeStaff(database, first, first.id, now)).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("last member of staff"),
    });
    const second = await createStaffUser(database.db, "second@example.org", password, now);
    const { token } = await startSession(database.db, second, now);
    expect(await userForSession(database.db, token, now)).toEqual(second);
    expect(await removeStaff(database, first, second.id, now)).toEqual({ removed: true, self: false });
    expect(await userForSession(database.db, token, now)).toBeUndefined();
    expect(await removeStaff(database, first, second.id, now)).toEqual({ removed: false, self: false });
    const [entry] = await database.db.select().from(auditLog).where(eq(auditLog.action, "staff.removed"));
    expect(entry!.summary).not.toContain("second@");
  });

  it("records the last sign-in with each new session", async () => {
    expect((await staffList(database, now)).members[0]!.lastSignInAt).toBeNull();
    await startSession(database.db, first, new Date(now.getTime() + hour));
    expect((await staffList(database, now)).members[0]!.lastSignInAt).toBe("2026-11-22T10:00:00.000Z");
  });

  it("changes the password after checking the current one, ending every other session", async () => {
    const here = await startSession(database.db, first, now);
    const phone = await startSession(database.db, first, now);
    await expect(
      changePassword(
        database,
        first,
        { currentPassword: "not my password!", newPassword, repeatPassword: newPassword },
        { now, sessionToken: here.token },
      ),
    ).rejects.toMatchObject({ fields: { currentPassword: "That is not your current password." } });
    await changePassword(
      database,
      first,
      { currentPassword: password, newPassword, repeatPassword: newPassword },
      { now, sessionToken: here.token },
    );
    expect(await authenticate(database.db, first.email, password)).toBeUndefined();
    expect(await authenticate(database.db, first.email, newPassword)).toEqual(first);
    expect(await userForSession(database.db, here.token, now)).toEqual(first);
    expect(await userForSession(database.db, phone.token, now)).toBeUndefined();
  });

  it("signs out of every device, this one too", async () => {
    const other = await createStaffUser(database.db, "other@example.org", password, now);
    await startSession(database.db, first, now);
    await startSession(database.db, first, now);
    const theirs = await startSession(database.db, other, now);
    await signOutEverywhere(database, first, now);
    expect(await database.db.$count(staffSessions, eq(staffSessions.userId, first.id))).toBe(0);
    expect(await userForSession(database.db, theirs.token, now)).toEqual(other);
  });
});
