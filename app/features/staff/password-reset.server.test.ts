import fs from "node:fs";
import path from "node:path";
import { simpleParser } from "mailparser";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { auditLog, outbox, staffInvitations } from "~db/schema";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { callRoute, testServices, type TestServices } from "../../../tests/support/services";
import { testClock, type TestClock } from "../../../tests/support/clock";
import { engines, freshDatabase } from "../../../tests/support/databases";
import { action as forgotAction } from "../../routes/admin.forgot-password";
import { action as resetAction, loader as resetLoader } from "../../routes/admin.reset-password.token";
import { acceptInvitation, inviteStaff } from "./members.server";
import { openPasswordReset, resetPassword, sendPasswordReset } from "./password-reset.server";
import { resetAsked } from "./schema";
import { authenticate, createStaffUser, startSession, userForSession, type StaffUser } from "./staff.server";

// A forgotten password (docs/decisions/072-password-reset.md): a one-time link by e-mail with the
// invitation's rules, through the site's own services and the pages' own handlers.

const password = "a long enough password";
const newPassword = "another long password";
const hour = 3_600_000;

describe.each(engines)("password reset on %s", (engine) => {
  let database: DatabaseHandle;
  let clock: TestClock;
  let services: TestServices;
  let member: StaffUser;

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-11-22T09:00:00Z");
    services = await testServices(database, clock);
    member = await createStaffUser(database.db, "member@example.org", password, clock.now(), "events");
  });
  afterEach(() => services.close());

  const form = (path: string, fields: Record<string, string>, address = "203.0.113.7") =>
    new Request(`http://localhost${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Test": address },
      body: new URLSearchParams(fields).toString(),
    });

  /** The forgotten-password page's answer to this address: its status and what it says. */
  async function ask(email: string, clientAddress = "203.0.113.7") {
    const answer = (await callRoute(forgotAction, form("/admin/forgot-password", { email }), await services.request(), {
      clientAddress,
    })) as { data: { ok: boolean; message: string }; init: { status: number } };
    return { status: answer.init.status, ...answer.data };
  }

  const seen = new Set<string>();
  /** The token in the link of the newest e-mail to this address, as it arrives (written to the outbox folder). */
  async function tokenFor(email: string, kind: "reset-password" | "join" = "reset-password") {
    const site = await services.request();
    // Twice: a round already running may have looked for due e-mails before this one was written.
    await site.outbox.deliverDue();
    await site.outbox.deliverDue();
    const folder = path.join(site.config.dataDir, "outbox");
    const file = (await fs.promises.readdir(folder))
      .filter((name) => name.endsWith(`-${email}.eml`) && !seen.has(name))
      .sort()
      .at(-1)!;
    seen.add(file);
    const mail = await simpleParser(await fs.promises.readFile(path.join(folder, file)));
    return new RegExp(`/admin/${kind}/([\\w-]+)`).exec(mail.text ?? "")![1]!;
  }

  it("answers the same whether or not the address has an account, and writes an e-mail only for a member", async () => {
    const known = await ask("Member@Example.org");
    const unknown = await ask("nobody@example.org");
    expect(known).toEqual(unknown);
    expect(known).toMatchObject({ status: 200, ok: true, message: resetAsked });
    const token = await tokenFor("member@example.org");
    const mails = await database.db.select().from(outbox);
    expect(mails.map((m) => [m.kind, m.recipient])).toEqual([["staff-password-reset", "member@example.org"]]);
    // The stored e-mail holds only the link's mark (the token was sealed until sent); the table only its hash.
    expect(mails[0]!.payload.text).toContain("http://localhost:3000/admin/reset-password/{{token}}");
    expect(mails[0]!.sealed).toBeNull();
    expect(JSON.stringify(mails)).not.toContain(token);
    const [link] = await database.db.select().from(staffInvitations);
    expect(link).toMatchObject({ purpose: "reset", email: "member@example.org" });
    expect(link!.tokenHash).not.toContain(token);
    expect(link!.expiresAt.getTime() - clock.now().getTime()).toBe(72 * hour);
    expect((await database.db.select().from(auditLog)).map((e) => [e.action, e.summary])).toEqual([
      ["staff.password-reset-sent", "Asked for a link to choose a new password"],
    ]);
  });

  it("works once, signs the member in, ends every other session of theirs, and keeps the old password until then", async () => {
    const phone = await startSession(database.db, member, clock.now());
    await ask("member@example.org");
    const token = await tokenFor("member@example.org");
    expect(await authenticate(database.db, member.email, password)).toEqual(member);
    expect(await userForSession(database.db, phone.token, clock.now())).toEqual(member);

    const site = await services.request();
    const page = await callRoute(resetLoader, new Request("http://localhost/x"), site, { params: { token } });
    expect(page).toEqual({ gone: false, email: "member@example.org" });
    const mismatched = await callRoute(
      resetAction,
      form("/x", { newPassword, repeatPassword: `${newPassword}!` }),
      site,
      { params: { token } },
    );
    expect(mismatched).toMatchObject({
      data: { ok: false, fields: { repeatPassword: "The two passwords are not the same." } },
    });
    const done = (await callRoute(resetAction, form("/x", { newPassword, repeatPassword: newPassword }), site, {
      params: { token },
    })) as Response;
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/admin");
    const cookie = /kt_staff=([^;]+)/.exec(done.headers.get("Set-Cookie")!)![1]!;
    expect(await userForSession(database.db, decodeURIComponent(cookie), clock.now())).toEqual(member);
    expect(await userForSession(database.db, phone.token, clock.now())).toBeUndefined();
    expect(await authenticate(database.db, member.email, password)).toBeUndefined();
    expect(await authenticate(database.db, member.email, newPassword)).toEqual(member);

    // Used: the page says so, and the link changes nothing again.
    expect(await callRoute(resetLoader, new Request("http://localhost/x"), site, { params: { token } })).toMatchObject({
      data: { gone: true },
      init: { status: 410 },
    });
    await expect(
      resetPassword(database, token, { newPassword: password, repeatPassword: password }, clock.now()),
    ).rejects.toMatchObject({ code: "not-found" });
    expect(await authenticate(database.db, member.email, newPassword)).toEqual(member);
    expect((await database.db.select().from(auditLog)).map((e) => e.action).sort()).toEqual([
      "staff.password-reset",
      "staff.password-reset-sent",
    ]);
  });

  it("stops working after 72 hours, and a newer link replaces an older one", async () => {
    const site = await services.request();
    const first = await sendPasswordReset(site, member.email, undefined, clock.now());
    const older = await tokenFor(member.email);
    await sendPasswordReset(site, member.email, undefined, clock.now());
    const newer = await tokenFor(member.email);
    expect(first).toBeDefined();
    expect(await openPasswordReset(database, older, clock.now())).toBeUndefined();
    expect(await openPasswordReset(database, newer, clock.now())).toEqual({ email: member.email });
    const late = new Date(clock.now().getTime() + 72 * hour + 1000);
    expect(await openPasswordReset(database, newer, late)).toBeUndefined();
    await expect(
      resetPassword(database, newer, { newPassword, repeatPassword: newPassword }, late),
    ).rejects.toMatchObject({ code: "not-found" });
    expect(await authenticate(database.db, member.email, password)).toEqual(member);
  });

  it("is not an invitation: neither link opens the other's page", async () => {
    const site = await services.request();
    const owner = await createStaffUser(database.db, "owner@example.org", password, clock.now());
    await inviteStaff(site, owner, { email: "new@example.org" }, clock.now());
    await sendPasswordReset(site, member.email, owner, clock.now());
    const reset = await tokenFor(member.email);
    await expect(
      acceptInvitation(database, reset, { newPassword, repeatPassword: newPassword }, clock.now()),
    ).rejects.toMatchObject({ code: "not-found" });
    const invitation = await tokenFor("new@example.org", "join");
    expect(await openPasswordReset(database, invitation, clock.now())).toBeUndefined();
  });

  it("sent by an Owner says so in the e-mail and the audit log", async () => {
    const owner = await createStaffUser(database.db, "owner@example.org", password, clock.now());
    await sendPasswordReset(await services.request(), member.email, owner, clock.now());
    const [mail] = await database.db.select().from(outbox);
    expect(mail!.payload.text).toContain("owner@example.org has sent you a link to choose a new password");
    const [entry] = await database.db.select().from(auditLog);
    expect(entry).toMatchObject({
      staffEmail: "owner@example.org",
      action: "staff.password-reset-sent",
      summary: "Sent member@example.org a link to choose a new password",
    });
  });

  it("is limited as sign-in is: per address asking, and quietly per account asked for", async () => {
    for (let i = 0; i < 3; i++) expect(await ask("member@example.org", "198.51.100.1")).toMatchObject({ ok: true });
    // A fourth in the hour for the same account: the same words, and no e-mail.
    expect(await ask("member@example.org", "198.51.100.2")).toMatchObject({ ok: true, message: resetAsked });
    expect(await database.db.$count(outbox)).toBe(3);
    for (let i = 0; i < 10; i++) await ask(`someone${i}@example.org`, "198.51.100.9");
    expect(await ask("member@example.org", "198.51.100.9")).toMatchObject({
      status: 429,
      ok: false,
      message: expect.stringContaining("Too many requests from your address"),
    });
  });
});
