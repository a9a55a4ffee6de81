import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sessionCookieName, startSession } from "~/features/staff/staff.server";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { queueMail } from "~/infra/email/outbox.server";
import { logUnexpectedError } from "~/infra/log.server";
import { errorsSince } from "~/infra/signals.server";
import os from "node:os";
import path from "node:path";
import { backupRuns, staffUsers } from "~db/schema";
import { testClock, type TestClock } from "../../tests/support/clock";
import { engines, freshDatabase } from "../../tests/support/databases";
import { callRoute, testServices, type TestServices } from "../../tests/support/services";
import { loader as homeLoader } from "./admin._index";
import { loader as systemLoader } from "./admin.system";

// /admin/system and the staff home's "needs attention" (issue: operations): what whoever looks
// after the site sees of it, from the site's own services on a real database.

describe.each(engines)("the system page on %s", (engine) => {
  let database: DatabaseHandle;
  let clock: TestClock;
  let services: TestServices;
  let cookie: string;

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-07-01T10:00:00Z");
    services = await testServices(database, clock, { ALERT_EMAIL: "it@example.org" });
    const [member] = await database.db
      .insert(staffUsers)
      .values({ email: "trustee@example.org", passwordHash: "not used here", createdAt: clock.now() })
      .returning({ id: staffUsers.id, email: staffUsers.email });
    const { token } = await startSession(database.db, member!, clock.now());
    cookie = `${sessionCookieName}=${token}`;
  });
  afterEach(() => services.close());

  const get = (path: string) => new Request(`http://localhost${path}`, { headers: { cookie } });

  it("shows the version, the database, the e-mails waiting and the day's errors, and the home says what needs attention", async () => {
    // An error in some request: kept by the site's own listener.
    const ref = logUnexpectedError(new Error("the card provider answered nonsense"), "a payment");
    await expect.poll(async () => (await errorsSince(database.db, new Date(0))).length).toBe(1);
    await queueMail(database.db, {
      kind: "booking-receipt",
      about: "one",
      message: { to: { address: "amina@example.org" }, subject: "Receipt", text: "-", html: "-" },
      now: clock.now(),
    });
    clock.advance(45 * 60_000);

    const report = await callRoute(systemLoader, get("/admin/system"), await services.request());
    expect(report.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(report.engine).toBe(engine === "postgres" ? "PostgreSQL" : "the embedded database (PGlite)");
    expect(report.database.version).toMatch(/^PostgreSQL \d+/);
    expect(report.database.sizeBytes).toBeGreaterThan(1024 * 1024);
    expect(report.outbox.unsent).toBe(1);
    expect(report.errors).toEqual([
      expect.objectContaining({ ref, where: "a payment", message: "the card provider answered nonsense" }),
    ]);
    expect(report.problems).toEqual([
      { kind: "e-mails-unsent", problem: "1 e-mail has not gone out; the oldest has waited 45 minutes." },
    ]);
    expect(report.alertsTo).toBe("it@example.org");

    const home = await callRoute(homeLoader, get("/admin"), await services.request());
    expect(home.problems.map((problem) => problem.kind)).toEqual(["e-mails-unsent"]);
  });

  it("says backups are not set up without BACKUP_DIR, and nothing on the home page outside production", async () => {
    const report = await callRoute(systemLoader, get("/admin/system"), await services.request());
    expect(report.backupSettings).toEqual({ dir: null, hour: 2, keep: 14, encrypted: false });
    expect(report.backups).toEqual({ lastGood: undefined, lastFailure: undefined });
    const home = await callRoute(homeLoader, get("/admin"), await services.request());
    expect(home.backupsNotSetUp).toBe(false);
    expect(home.problems).toEqual([]);
  });

  it("shows the last good backup and a failed attempt, and the home warns of it", async () => {
    const backupDir = path.join(os.tmpdir(), "kilele-system-backups");
    // The site as BACKUP_DIR, BACKUP_HOUR=3, BACKUP_KEEP=7 and BACKUP_PASSPHRASE configure it.
    const withBackups = async () => {
      const request = await services.request();
      const backups = { dir: backupDir, hour: 3, keep: 7, passphrase: "a passphrase of some length" };
      return { ...request, config: { ...request.config, backups } };
    };
    const file = path.join(backupDir, "kilele-2026-06-30T0300Z.backup.gz.age");
    const day = (at: string) => new Date(at);
    await database.db.insert(backupRuns).values([
      {
        kind: "daily",
        startedAt: day("2026-06-30T03:00:00Z"),
        finishedAt: day("2026-06-30T03:00:05Z"),
        ok: true,
        file,
        bytes: 2_500_000,
      },
      {
        kind: "daily",
        startedAt: day("2026-07-01T03:00:00Z"),
        finishedAt: day("2026-07-01T03:00:01Z"),
        ok: false,
        error: "ENOSPC: no space left on device",
      },
    ]);
    const report = await callRoute(systemLoader, get("/admin/system"), await withBackups());
    expect(report.backupSettings).toEqual({ dir: backupDir, hour: 3, keep: 7, encrypted: true });
    expect(report.backups.lastGood).toEqual({ at: day("2026-06-30T03:00:05Z"), file, bytes: 2_500_000 });
    expect(report.backups.lastFailure).toEqual({
      at: day("2026-07-01T03:00:00Z"),
      error: "ENOSPC: no space left on device",
    });
    expect(report.problems).toEqual([
      { kind: "backup-failed", problem: "The backup of 01/07/2026 at 04:00 failed: ENOSPC: no space left on device" },
    ]);
    const home = await callRoute(homeLoader, get("/admin"), await withBackups());
    expect(home.problems.map((problem) => problem.kind)).toEqual(["backup-failed"]);
  });

  it("is for staff only", async () => {
    const stranger = new Request("http://localhost/admin/system");
    await expect(callRoute(systemLoader, stranger, await services.request())).rejects.toMatchObject({ status: 302 });
  });
});
