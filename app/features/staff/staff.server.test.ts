import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { staffUsers } from "~db/schema";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { engines, freshDatabase } from "../../../tests/support/databases";
import { hashCheaplyInTests } from "./passwords.server";
import {
  StaffAccountError,
  authenticate,
  createStaffUser,
  endSession,
  ensureFirstStaffUser,
  requireStaff,
  sessionCookie,
  sessionTokenFrom,
  startSession,
  userForSession,
} from "./staff.server";

const password = "a long enough password";
const now = new Date("2026-11-22T09:00:00Z");

describe.each(engines)("staff accounts on %s", (engine) => {
  let database: DatabaseHandle;
  beforeEach(async () => {
    database = await freshDatabase(engine);
  });
  afterEach(() => database.close());

  it("stores the password hashed at OWASP's cost, never as given", async () => {
    // The site's own cost, not the tests' cheaper one (tests/support/vitest-setup.ts).
    hashCheaplyInTests(false);
    try {
      await createStaffUser(database.db, "Trustee@Example.org", password, now);
    } finally {
      hashCheaplyInTests(true);
    }
    const [row] = await database.db.select().from(staffUsers);
    expect(row!.email).toBe("trustee@example.org");
    expect(row!.passwordHash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(row!.passwordHash).not.toContain(password);
  });

  it("signs in with the right password only, whatever the e-mail's case", async () => {
    const user = await createStaffUser(database.db, "trustee@example.org", password, now);
    expect(await authenticate(database.db, "TRUSTEE@example.org", password)).toEqual(user);
    expect(await authenticate(database.db, "trustee@example.org", "a wrong password!")).toBeUndefined();
    expect(await authenticate(database.db, "nobody@example.org", password)).toBeUndefined();
  });

  it("refuses a short password and a second account for the same e-mail", async () => {
    await expect(createStaffUser(database.db, "a@example.org", "short", now)).rejects.toThrow(StaffAccountError);
    await createStaffUser(database.db, "a@example.org", password, now);
    await expect(createStaffUser(database.db, "A@example.org", password, now)).rejects.toThrow(
      "already a staff account",
    );
  });

  it("creates the first account from the configuration only when there is none", async () => {
    await ensureFirstStaffUser(database.db, { email: "first@example.org", password }, now);
    await ensureFirstStaffUser(database.db, { email: "second@example.org", password }, now);
    expect((await database.db.select().from(staffUsers)).map((u) => u.email)).toEqual(["first@example.org"]);
  });

  it("creates the first account once when two processes start together", async () => {
    const first = { email: "first@example.org", password };
    await Promise.all([ensureFirstStaffUser(database.db, first, now), ensureFirstStaffUser(database.db, first, now)]);
    expect((await database.db.select().from(staffUsers)).map((u) => u.email)).toEqual(["first@example.org"]);
  });

  it("keeps a session for eight hours, until signed out", async () => {
    const user = await createStaffUser(database.db, "trustee@example.org", password, now);
    const { token } = await startSession(database.db, user, now);
    expect(await userForSession(database.db, token, new Date("2026-11-22T16:59:00Z"))).toEqual(user);
    expect(await userForSession(database.db, token, new Date("2026-11-22T17:01:00Z"))).toBeUndefined();
    const { token: second } = await startSession(database.db, user, now);
    const request = new Request("http://x/", { headers: { Cookie: `other=1; kt_staff=${second}` } });
    expect(sessionTokenFrom(request)).toBe(second);
    const site = { db: database.db, clock: { now: () => new Date("2026-11-22T12:00:00Z") } };
    expect(await requireStaff(site, request, "signed-in")).toEqual(user);
    // The site's clock, not the machine's, decides when a session has run out.
    const later = { db: database.db, clock: { now: () => new Date("2026-11-22T17:01:00Z") } };
    await expect(requireStaff(later, request, "signed-in")).rejects.toMatchObject({ code: "unauthorised" });
    await endSession(database.db, second);
    await expect(requireStaff(site, request, "signed-in")).rejects.toMatchObject({ code: "unauthorised" });
  });
});

describe("the session cookie", () => {
  it("that cannot be decoded is no session, not an error", () => {
    for (const value of ["%E0%A4%A", "%", "%zz", "%C0%80"]) {
      const request = new Request("http://x/", { headers: { Cookie: `kt_staff=${value}; other=1` } });
      expect(sessionTokenFrom(request)).toBeUndefined();
    }
  });

  it("is HttpOnly and SameSite=Strict, lasts until the session ends, and is Secure when asked", () => {
    const expires = new Date(now.getTime() + 3600_000);
    expect(sessionCookie("t", expires, now, false)).toBe("kt_staff=t; Path=/; HttpOnly; SameSite=Strict; Max-Age=3600");
    expect(sessionCookie("t", expires, now, true)).toMatch(/; Secure$/);
  });
});

describe("where the sign-in page sends staff back to", () => {
  it("is an admin page of this site, or /admin", async () => {
    const { safeReturnPath } = await import("./staff.server");
    expect(safeReturnPath("/admin/events/1?tab=tickets")).toBe("/admin/events/1?tab=tickets");
    expect(safeReturnPath("/admin?from=guide")).toBe("/admin?from=guide");
    for (const unsafe of [
      "https://evil.example/admin",
      "//evil.example",
      "/admins",
      "/about",
      "/admin/sign-in",
      null,
    ]) {
      expect(safeReturnPath(unsafe)).toBe("/admin");
    }
  });
});
