import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backupRuns, outbox, siteErrors } from "~db/schema";
import type { DatabaseHandle } from "./db/database.server";
import { queueMail } from "./email/outbox.server";
import { logUnexpectedError, onUnexpectedError, type NotedError } from "./log.server";
import { alertRules, errorsKeptMs, errorsSince, raiseAlerts, recordError } from "./signals.server";
import { testClock, type TestClock } from "../../tests/support/clock";
import { engines, freshDatabase } from "../../tests/support/databases";

// What tells whoever looks after the site that something is wrong (issue: operations, "Alerts by
// e-mail"): unexpected errors kept, and an alert e-mailed when e-mails stop going out or errors
// pile up, at most one of a kind an hour, the next saying how many were held back.

const minutes = (n: number) => n * 60_000;

describe("an unexpected error", () => {
  it("is told to whoever listens, with its reference and without any e-mail address", () => {
    const heard: NotedError[] = [];
    const stop = onUnexpectedError((error) => heard.push(error));
    const ref = logUnexpectedError(new Error("duplicate key for amina@example.org"), "a test");
    stop();
    logUnexpectedError(new Error("not heard"), "a test");
    expect(heard).toEqual([{ ref, requestId: undefined, where: "a test", message: "duplicate key for [e-mail]" }]);
  });
});

describe.each(engines)("the site's signals on %s", (engine) => {
  let database: DatabaseHandle;
  let clock: TestClock;
  const deps = () => ({
    db: database.db,
    now: clock.now(),
    to: { name: "Kilele Village Trust", address: "office@example.org" },
    siteName: "Kilele Village Trust",
    website: "https://tickets.example.org",
  });
  const alertMails = async () => (await database.db.select().from(outbox)).filter((row) => row.kind === "site-alert");

  beforeEach(async () => {
    database = await freshDatabase(engine);
    clock = testClock("2026-07-01T10:00:00Z");
  });
  afterEach(() => database.close());

  it("keeps unexpected errors for 30 days, newest first", async () => {
    const error = (ref: string) => ({ ref, requestId: `${ref}-request`, where: "a route", message: "it broke" });
    await recordError(database.db, error("aaaa1111"), new Date(clock.now().getTime() - errorsKeptMs + minutes(1)));
    await recordError(database.db, error("bbbb2222"), clock.now());
    expect((await errorsSince(database.db, new Date(0))).map((e) => e.ref)).toEqual(["bbbb2222", "aaaa1111"]);

    clock.advance(minutes(2));
    await recordError(database.db, error("cccc3333"), clock.now());
    // The first is now older than 30 days: gone.
    expect((await errorsSince(database.db, new Date(0))).map((e) => e.ref)).toEqual(["cccc3333", "bbbb2222"]);
    expect(await database.db.$count(siteErrors)).toBe(2);
  });

  it("e-mails an alert when an e-mail has waited over 30 minutes, then at most one an hour, saying how many were held back", async () => {
    expect(await raiseAlerts(deps())).toEqual([]);
    await queueMail(database.db, {
      kind: "booking-receipt",
      about: "one",
      message: { to: { address: "amina@example.org" }, subject: "Receipt", text: "-", html: "-" },
      now: clock.now(),
    });
    clock.advance(alertRules.unsentMs);
    expect(await raiseAlerts(deps())).toEqual([]);

    clock.advance(minutes(1));
    expect(await raiseAlerts(deps())).toEqual(["e-mails-unsent"]);
    const [first] = await alertMails();
    expect(first!.recipient).toContain("office@example.org");
    expect(first!.payload).toMatchObject({
      subject: "Kilele Village Trust website: 1 e-mail has not gone out; the oldest has waited 31 minutes.",
    });
    expect((first!.payload as { text: string }).text).toContain("https://tickets.example.org/admin/system");

    // Still true a minute later, and twice more: held back, counted.
    for (let i = 0; i < 3; i += 1) {
      clock.advance(minutes(1));
      expect(await raiseAlerts(deps())).toEqual([]);
    }
    expect(await alertMails()).toHaveLength(1);

    clock.advance(alertRules.quietMs - minutes(3));
    expect(await raiseAlerts(deps())).toEqual(["e-mails-unsent"]);
    const second = (await alertMails()).find((row) => row.id !== first!.id)!;
    expect((second.payload as { text: string }).text).toContain(
      "This alert was raised 3 more times since the last e-mail about it; at most one is sent an hour.",
    );
  });

  it("e-mails an alert when more than 5 unexpected errors came in 10 minutes, and not for 5", async () => {
    const error = { ref: "abcd1234", requestId: undefined, where: "a route", message: "it broke" };
    for (let i = 0; i < alertRules.errors; i += 1) await recordError(database.db, error, clock.now());
    expect(await raiseAlerts(deps())).toEqual([]);
    await recordError(database.db, error, clock.now());
    expect(await raiseAlerts(deps())).toEqual(["errors"]);
    expect((await alertMails())[0]!.payload).toMatchObject({
      subject: "Kilele Village Trust website: 6 unexpected errors in the last 10 minutes.",
    });
    // An hour on, they no longer count (the alert e-mail itself, never sent here, now has).
    clock.advance(alertRules.quietMs);
    expect(await raiseAlerts(deps())).toEqual(["e-mails-unsent"]);
  });

  it("sends one e-mail when several processes raise the same alert at once", async () => {
    const error = { ref: "abcd1234", requestId: undefined, where: "a route", message: "it broke" };
    for (let i = 0; i <= alertRules.errors; i += 1) await recordError(database.db, error, clock.now());
    const raised = await Promise.all([raiseAlerts(deps()), raiseAlerts(deps()), raiseAlerts(deps())]);
    expect(raised.flat()).toEqual(["errors"]);
    expect(await alertMails()).toHaveLength(1);
  });

  it("e-mails a backup alert only when the site makes backups: a failed one, then one over 36 hours old", async () => {
    const at = new Date(clock.now().getTime() - minutes(5));
    await database.db.insert(backupRuns).values([
      {
        kind: "daily",
        startedAt: at,
        finishedAt: at,
        ok: false,
        error: "EACCES: permission denied, mkdir '/backups'",
      },
    ]);
    expect(await raiseAlerts(deps())).toEqual([]);
    expect(await raiseAlerts({ ...deps(), backupsSetUp: true })).toEqual(["backup-failed"]);
    expect((await alertMails())[0]).toMatchObject({
      payload: {
        subject:
          "Kilele Village Trust website: The backup of 01/07/2026 at 10:55 failed: EACCES: permission denied, mkdir '/backups'",
      },
    });

    const good = new Date(clock.now().getTime() + minutes(60));
    await database.db
      .insert(backupRuns)
      .values({ kind: "daily", startedAt: good, finishedAt: good, ok: true, file: "/backups/b", bytes: 10 });
    clock.advance(minutes(60 + 36 * 60 + 1));
    // The good backup is newer than the failure, so only its age is a problem (beside the unsent alert e-mail).
    expect(await raiseAlerts({ ...deps(), backupsSetUp: true })).toEqual(["e-mails-unsent", "backup-late"]);
  });
});
