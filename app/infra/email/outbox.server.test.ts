import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { eq, isNull } from "drizzle-orm";
import { outbox } from "~db/schema";
import { systemClock } from "~/lib/clock";
import { testClock } from "../../../tests/support/clock";
import { engines, freshDatabase } from "../../../tests/support/databases";
import { TestSmtpServer } from "../../../tests/support/smtp";
import type { DatabaseHandle } from "../db/database.server";
import { folderMailer, smtpMailer, type Mailer } from "./mailer.server";
import { OutboxWorker, queueMail, retryDelaySeconds } from "./outbox.server";

const receipt = {
  to: { name: "Amina Mushi", address: "amina@example.org" },
  subject: "Your booking",
  text: "We have received your booking.",
  html: "<p>We have received your booking.</p>",
};

describe("the retry schedule", () => {
  it("backs off from 30 seconds, doubling, to at most an hour", () => {
    expect([1, 2, 3, 4, 10, 20].map(retryDelaySeconds)).toEqual([30, 60, 120, 240, 3600, 3600]);
  });
});

describe.each(engines)("the outbox on %s", (engine) => {
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

  it("workers delivering at the same moment send each e-mail once", async () => {
    const clock = testClock("2026-11-22T10:00:00Z");
    const sent: string[] = [];
    const mailer: Mailer = {
      describe: () => "a list",
      async send(message) {
        // Each send takes a moment, so the other workers claim while it is out.
        await new Promise((resolve) => setTimeout(resolve, 20));
        sent.push(message.subject);
      },
    };
    for (const about of ["1", "2", "3", "4", "5"]) {
      await queueMail(database.db, {
        kind: "booking-receipt",
        about,
        message: { ...receipt, subject: `Booking ${about}` },
        now: clock.now(),
      });
    }
    const workers = [1, 2, 3, 4, 5, 6, 7, 8].map(() => new OutboxWorker(database.db, mailer, clock));
    await Promise.all(workers.flatMap((worker) => [worker.deliverDue(), worker.deliverDue()]));
    expect(sent.sort()).toEqual(["Booking 1", "Booking 2", "Booking 3", "Booking 4", "Booking 5"]);
    const rows = await database.db.select().from(outbox);
    expect(rows.every((row) => row.sentAt !== null && row.attempts === 1)).toBe(true);
    await Promise.all(workers.map((worker) => worker.stop()));
  });

  it("asked for an e-mail its own round is sending, says how that send went, not that it waits", async () => {
    const clock = testClock("2026-11-22T10:00:00Z");
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let sending!: () => void;
    const sendStarted = new Promise<void>((resolve) => (sending = resolve));
    const sent: string[] = [];
    const mailer: Mailer = {
      describe: () => "a slow server",
      async send(message) {
        sending();
        await held;
        sent.push(message.subject);
      },
    };
    await queueMail(database.db, { kind: "receipt-sent-again", about: "r1", message: receipt, now: clock.now() });
    const worker = new OutboxWorker(database.db, mailer, clock);
    const round = worker.deliverDue();
    await sendStarted;
    // Staff press "Resend" while the round has the e-mail out.
    const asked = worker.deliver("receipt-sent-again", "r1");
    release();
    expect(await asked).toEqual({ ok: true });
    await round;
    expect(sent).toEqual(["Your booking"]);
  });

  it("keeps an e-mail while the SMTP server is down, survives a restart, and delivers it once when it is up", async () => {
    await smtp.start();
    const port = smtp.port;
    await smtp.stop(); // the mail server is down
    const mailer = smtpMailer(`smtp://127.0.0.1:${port}`, {
      from: "Kilele Village Trust <tickets@example.org>",
      replyTo: () => "kilele@example.org",
    });
    // One fixed clock for the queue and the worker: whatever the machine's date, they agree.
    const clock = testClock("2026-11-22T10:00:00Z");
    await queueMail(database.db, { kind: "booking-receipt", about: "1", message: receipt, now: clock.now() });
    await queueMail(database.db, { kind: "booking-receipt", about: "1", message: receipt, now: clock.now() }); // queued twice: kept once

    const first = new OutboxWorker(database.db, mailer, clock);
    const attempt = await first.deliver("booking-receipt", "1");
    expect(attempt.ok).toBe(false);
    expect(attempt.ok === false && attempt.error).toMatch(/ECONNREFUSED/);
    await first.stop();

    // The process restarts; the mail server comes back on the same address.
    await smtp.start(port);
    const second = new OutboxWorker(database.db, mailer, clock);
    await second.deliverDue();
    expect(smtp.received).toHaveLength(0); // not due until its retry time
    clock.advance(30_000);
    await second.deliverDue();
    await second.deliverDue();
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.subject).toBe("Your booking");
    expect(smtp.received[0]!.from?.text).toContain("tickets@example.org");
    // A reply goes to the charity, not to the address the mail server sends from.
    expect(smtp.received[0]!.replyTo?.text).toBe("kilele@example.org");
    const [row] = await database.db.select().from(outbox);
    expect(row).toMatchObject({ attempts: 2, lastError: null });
    expect(row!.sentAt).not.toBeNull();
  });

  it("after a kill mid-send, a restart alone on its data sends the claimed e-mail at once, with the same Message-ID", async () => {
    await smtp.start();
    const mailer = smtpMailer(smtp.url, { from: "tickets@example.org", replyTo: () => "kilele@example.org" });
    const clock = testClock("2026-11-22T10:00:00Z");
    await queueMail(database.db, { kind: "booking-receipt", about: "k", message: receipt, now: clock.now() });
    // The first process claims it, and the mail server takes it; then the process dies before it records the send.
    let sent: Parameters<typeof mailer.send> | undefined;
    const dying = new OutboxWorker(
      database.db,
      {
        describe: () => "dying",
        async send(...args) {
          sent = args;
          await mailer.send(...args);
          throw new Error("killed");
        },
      },
      clock,
    );
    await dying.deliver("booking-receipt", "k");
    // (Its failure is recorded here, as a kill would not: undo that, leaving only its lease.)
    await database.db
      .update(outbox)
      .set({ attempts: 0, lastError: null, nextAttemptAt: new Date(clock.now().getTime() + 120_000) });
    const restarted = new OutboxWorker(database.db, mailer, clock);
    await restarted.resumeAlone();
    await restarted.deliverDue();
    expect(smtp.received).toHaveLength(2);
    expect(smtp.received[0]!.messageId).toBe(sent![1]!.messageId);
    expect(smtp.received[1]!.messageId).toBe(smtp.received[0]!.messageId);
    const [row] = await database.db.select().from(outbox);
    expect(row!.sentAt).not.toBeNull();
  });

  it("reads the charity's address for Reply-To when each e-mail is sent, so a retry follows a change", async () => {
    await smtp.start();
    const clock = testClock("2026-11-22T10:00:00Z");
    let charityAddress = "kilele@example.org";
    const mailer = smtpMailer(smtp.url, { from: "Kilele <no-reply@example.org>", replyTo: () => charityAddress });
    const worker = new OutboxWorker(database.db, mailer, clock);
    await queueMail(database.db, { kind: "booking-receipt", about: "a", message: receipt, now: clock.now() });
    await worker.deliver("booking-receipt", "a");
    charityAddress = "office@kilele.example";
    await queueMail(database.db, { kind: "booking-receipt", about: "b", message: receipt, now: clock.now() });
    await worker.deliver("booking-receipt", "b");
    expect(smtp.received.map((mail) => [mail.from?.value[0]?.address, mail.replyTo?.text])).toEqual([
      ["no-reply@example.org", "kilele@example.org"],
      ["no-reply@example.org", "office@kilele.example"],
    ]);
  });

  it("without SMTP, writes each e-mail as an .eml file in the outbox folder", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-outbox-"));
    try {
      await queueMail(database.db, { kind: "booking-receipt", about: "2", message: receipt, now: systemClock.now() });
      const worker = new OutboxWorker(
        database.db,
        folderMailer(dir, { from: "Kilele <tickets@example.org>", replyTo: () => "kilele@example.org" }),
        systemClock,
      );
      await worker.deliverDue();
      const files = await fs.readdir(dir);
      expect(files).toHaveLength(1);
      const eml = await fs.readFile(path.join(dir, files[0]!), "utf8");
      expect(eml).toContain("Subject: Your booking");
      expect(eml).toContain("To: Amina Mushi <amina@example.org>");
      expect(eml).toContain("Reply-To: kilele@example.org");
      // Recorded as written to the folder, never as sent to a mail server.
      const [row] = await database.db.select().from(outbox);
      expect(row).toMatchObject({ deliveredBy: "folder", lastError: null });
      expect(row!.sentAt).not.toBeNull();
      expect(worker.deliveredBy).toBe("folder");
      // The folder removed meanwhile (an operator clearing it out): the next e-mail makes it again.
      await fs.rm(dir, { recursive: true, force: true });
      await queueMail(database.db, { kind: "booking-receipt", about: "3", message: receipt, now: systemClock.now() });
      await worker.deliverDue();
      expect(await fs.readdir(dir)).toHaveLength(1);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it("records an e-mail handed to the mail server as delivered by smtp, and nothing for one not yet sent", async () => {
    await smtp.start();
    const clock = testClock("2026-11-22T10:00:00Z");
    const worker = new OutboxWorker(
      database.db,
      smtpMailer(smtp.url, { from: "Kilele <t@example.org>", replyTo: () => "kilele@example.org" }),
      clock,
    );
    await queueMail(database.db, { kind: "booking-receipt", about: "sent", message: receipt, now: clock.now() });
    await worker.deliver("booking-receipt", "sent");
    await queueMail(database.db, { kind: "booking-receipt", about: "later", message: receipt, now: clock.now() });
    const rows = await database.db.select().from(outbox);
    const byKey = Object.fromEntries(rows.map((row) => [row.dedupeKey, row.deliveredBy]));
    expect(byKey).toEqual({ "booking-receipt:sent": "smtp", "booking-receipt:later": null });
    expect(worker.deliveredBy).toBe("smtp");
  });

  it("sets aside a stored e-mail that is not a valid message, with the reason, and still sends the others", async () => {
    await smtp.start();
    const clock = testClock("2026-11-22T10:00:00Z");
    // A row written by hand, or by an older version of the site, that is not a whole e-mail.
    await database.db.insert(outbox).values({
      kind: "booking-receipt",
      dedupeKey: "booking-receipt:broken",
      recipient: "someone@example.org",
      payload: { to: "someone@example.org", subject: 42 },
      nextAttemptAt: new Date(clock.now().getTime() - 60_000),
      createdAt: clock.now(),
    });
    await queueMail(database.db, { kind: "booking-receipt", about: "3", message: receipt, now: clock.now() });
    const worker = new OutboxWorker(
      database.db,
      smtpMailer(`smtp://127.0.0.1:${smtp.port}`, {
        from: "Kilele <t@example.org>",
        replyTo: () => "kilele@example.org",
      }),
      clock,
    );
    await worker.deliverDue();
    expect(smtp.received.map((m) => m.subject)).toEqual(["Your booking"]);
    const [broken] = await database.db.select().from(outbox).where(eq(outbox.dedupeKey, "booking-receipt:broken"));
    expect(broken).toMatchObject({ attempts: 1, sentAt: null });
    expect(broken!.lastError).toMatch(/^The stored e-mail is not valid: .*subject/);
  });

  it("sends each e-mail to its one address, whatever the name beside it says (review, point 1)", async () => {
    await smtp.start();
    const clock = testClock("2026-11-22T10:00:00Z");
    const worker = new OutboxWorker(
      database.db,
      smtpMailer(smtp.url, { from: "Kilele <t@example.org>", replyTo: () => "kilele@example.org" }),
      clock,
    );
    // Names a stranger could type, if a form let them through: a list, a group, a header break.
    const names = [
      "one@attacker.example, two@attacker.example, Bob",
      "Friends: a@attacker.example, b@attacker.example;",
      "Bob <evil@attacker.example>\r\nBcc: c@attacker.example",
    ];
    for (const [index, name] of names.entries()) {
      const message = { ...receipt, to: { name, address: "bob@example.org" }, subject: `Welcome ${index}` };
      await queueMail(database.db, { kind: "volunteer-confirmation", about: String(index), message, now: clock.now() });
    }
    await worker.deliverDue();
    expect(smtp.envelopes).toEqual([["bob@example.org"], ["bob@example.org"], ["bob@example.org"]]);
    expect(smtp.received.map((mail) => [mail.to].flat().flatMap((to) => to?.value.map((v) => v.address)))).toEqual([
      ["bob@example.org"],
      ["bob@example.org"],
      ["bob@example.org"],
    ]);
  });

  it("sends an e-mail queued with its recipient as text when that is one address, and refuses a list", async () => {
    await smtp.start();
    const clock = testClock("2026-11-22T10:00:00Z");
    const queuedAsText = async (about: string, to: string) =>
      database.db.insert(outbox).values({
        kind: "booking-receipt",
        dedupeKey: `booking-receipt:${about}`,
        recipient: to,
        payload: { ...receipt, to, subject: `Receipt ${about}` },
        nextAttemptAt: clock.now(),
        createdAt: clock.now(),
      });
    await queuedAsText("one", "Amina Mushi <amina@example.org>");
    await queuedAsText("list", "one@attacker.example, two@attacker.example, Bob <bob@example.org>");
    await queuedAsText("group", "Friends: a@attacker.example, b@attacker.example;");
    const worker = new OutboxWorker(
      database.db,
      smtpMailer(smtp.url, { from: "Kilele <t@example.org>", replyTo: () => "kilele@example.org" }),
      clock,
    );
    await worker.deliverDue();
    expect(smtp.envelopes).toEqual([["amina@example.org"]]);
    expect(smtp.received[0]!.to).toMatchObject({ value: [{ name: "Amina Mushi", address: "amina@example.org" }] });
    const refused = await database.db.select().from(outbox).where(isNull(outbox.sentAt));
    expect(refused.map((row) => row.dedupeKey).sort()).toEqual(["booking-receipt:group", "booking-receipt:list"]);
    for (const row of refused)
      expect(row.lastError).toMatch(/^The stored e-mail is not valid: .*must be one e-mail address.*at to/);
  });
});
