import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { auditLog, outbox, staffUsers } from "~db/schema";
import type { DatabaseHandle } from "~/infra/db/database.server";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { folderMailer, smtpMailer } from "~/infra/email/mailer.server";
import { OutboxWorker, queueMail } from "~/infra/email/outbox.server";
import { testClock } from "../../../tests/support/clock";
import { engines, freshDatabase } from "../../../tests/support/databases";
import { TestSmtpServer } from "../../../tests/support/smtp";
import { emailPreview, emailsPage, retryEmail, unsentEmails } from "./emails.server";
import { deliveredText, mailMode } from "./mail-mode";

const receipt = {
  to: { address: "amina@example.org" },
  subject: "Your booking",
  text: "We have received your booking.",
  html: "<p>We have received your booking.</p>",
};

describe.each(engines)("the e-mails page's rules on %s", (engine) => {
  let database: DatabaseHandle;
  let smtp: TestSmtpServer;
  beforeEach(async () => {
    database = await freshDatabase(engine);
    smtp = new TestSmtpServer();
  });
  afterEach(async () => {
    await smtp.stop();
    await database.close();
  });

  it("lists a failing e-mail with its error, retries it now when asked, and it is sent", async () => {
    const clock = testClock("2026-11-22T10:00:00Z");
    const [staff] = await database.db
      .insert(staffUsers)
      .values({ email: "staff@example.org", passwordHash: "not used here", createdAt: clock.now() })
      .returning({ id: staffUsers.id, email: staffUsers.email });
    await smtp.start();
    const port = smtp.port;
    await smtp.stop(); // the mail server is down
    const worker = new OutboxWorker(
      database.db,
      smtpMailer(`smtp://127.0.0.1:${port}`, { from: "t@example.org", replyTo: () => "kilele@example.org" }),
      clock,
    );
    await queueMail(database.db, { kind: "booking-receipt", about: "1", message: receipt, now: clock.now() });
    await worker.deliverDue();

    const failing = await emailsPage(database, { page: 1, status: "failing" });
    expect(failing.total).toBe(1);
    expect(failing.rows[0]).toMatchObject({ kindLabel: "Booking receipt", attempts: 1, status: "failing" });
    expect(failing.rows[0]!.lastError).toMatch(/ECONNREFUSED/);
    expect((await emailsPage(database, { page: 1, status: "sent" })).total).toBe(0);
    const id = failing.rows[0]!.id;

    // Still down: Retry now says what the mail server said, and the e-mail waits on.
    const stillDown = await retryEmail({ db: database.db, outbox: worker }, staff!, id, clock.now());
    expect(stillDown).toMatchObject({ sent: false, error: expect.stringMatching(/ECONNREFUSED/) });

    // Up again: not due for a while by its backoff, but Retry now sends it at once.
    await smtp.start(port);
    await worker.deliverDue();
    expect(smtp.received).toHaveLength(0);
    expect(await retryEmail({ db: database.db, outbox: worker }, staff!, id, clock.now())).toEqual({ sent: true });
    expect(smtp.received.map((m) => m.subject)).toEqual(["Your booking"]);
    expect((await emailsPage(database, { page: 1, status: "sent" })).rows[0]!.attempts).toBe(3);
    expect((await emailPreview(database, id)).text).toBe(receipt.text);

    // A sent e-mail is not sent again.
    await expect(retryEmail({ db: database.db, outbox: worker }, staff!, id, clock.now())).rejects.toMatchObject({
      code: "conflict",
    });
    expect(smtp.received).toHaveLength(1);
    const entries = await database.db.select().from(auditLog);
    expect(entries.map((e) => e.action)).toEqual(["email.retried", "email.retried"]);
    expect(entries[0]!.summary).not.toContain("amina");
    await worker.stop();
  });

  it("says an e-mail written to the outbox folder was written there, never sent, and counts those still to go", async () => {
    const clock = testClock("2026-11-22T10:00:00Z");
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-emails-"));
    try {
      const worker = new OutboxWorker(
        database.db,
        folderMailer(dir, { from: "t@example.org", replyTo: () => "kilele@example.org" }),
        clock,
      );
      expect(mailMode({ outbox: worker })).toBe("folder");
      await queueMail(database.db, { kind: "booking-receipt", about: "file", message: receipt, now: clock.now() });
      await worker.deliver("booking-receipt", "file");
      // An e-mail that left before the site kept how (delivered_by null), one waiting, one failing.
      await queueMail(database.db, { kind: "booking-receipt", about: "old", message: receipt, now: clock.now() });
      await queueMail(database.db, { kind: "booking-receipt", about: "wait", message: receipt, now: clock.now() });
      await queueMail(database.db, { kind: "booking-receipt", about: "fail", message: receipt, now: clock.now() });
      await database.db.update(outbox).set({ sentAt: clock.now() }).where(eq(outbox.dedupeKey, "booking-receipt:old"));
      await database.db
        .update(outbox)
        .set({ lastError: "Connection refused", attempts: 1 })
        .where(eq(outbox.dedupeKey, "booking-receipt:fail"));

      const sent = await emailsPage(database, { page: 1, status: "sent" });
      const texts = sent.rows.map((row) => deliveredText({ sentAt: row.sentAt!, deliveredBy: row.deliveredBy }));
      expect(texts.sort()).toEqual([
        "Left the outbox at Sun 22 Nov 2026, 10:00",
        "Written to the outbox folder (no mail server is set) at Sun 22 Nov 2026, 10:00",
      ]);
      expect(texts.join(" ")).not.toMatch(/Sent/);
      expect(await unsentEmails(database)).toEqual({ failing: 1, waiting: 1 });
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it("answers not-found for an unknown e-mail", async () => {
    await expect(emailPreview(database, "00000000-0000-4000-8000-000000000000")).rejects.toMatchObject({
      code: "not-found",
    });
    await expect(emailPreview(database, "not-an-id")).rejects.toMatchObject({ code: "not-found" });
    expect(await database.db.$count(outbox)).toBe(0);
  });
});
