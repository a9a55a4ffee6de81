import fs from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { openDatabase } from "~/infra/db/database.server";
import { createPostgresDatabase, insertEvent } from "../support/databases";
import { insertPaidBookings, type PaidBooking } from "../support/paid-bookings";
import { newSiteDataDir, startSiteProcess, type RunningSite } from "../support/site-process";
import { startSiteAt } from "../support/site-clock";
import { TestSmtpServer } from "../support/smtp";

// Event reminders (docs/decisions/096-event-reminders.md) are sent once per booking: a real
// production build sends 300 of them through a real SMTP server on loopback and is killed with
// SIGKILL half way, then started again on the same data. On the embedded database, and on
// PostgreSQL with two processes sharing it, one of them killed while the other goes on.
// Once means one e-mail, one Message-ID: a copy handed to the mail server in the instant before
// the kill, its sending not yet recorded, goes again with the same Message-ID (decision 028).

const bookingsCount = 300;
const hour = 3_600_000;

async function kill(site: RunningSite) {
  const exited = new Promise((resolve) => site.process.once("exit", resolve));
  site.process.kill("SIGKILL");
  await exited;
}

/** An event 40 hours from now (its two-day reminder due 8 hours ago) with 300 bookings paid a day ago. */
async function seed(database: { url?: string; dataDir?: string }) {
  const handle = await openDatabase(database);
  try {
    const now = new Date();
    const eventId = await insertEvent(
      handle.db,
      {
        name: "Harvest Ceilidh",
        eventDate: new Date(now.getTime() + 40 * hour),
        ticketSaleExpiry: new Date(now.getTime() + 39 * hour),
        totalAvailableTickets: 400,
        whatToBring: "Soft shoes for dancing.",
      },
      new Date(now.getTime() - 48 * hour),
    );
    return await insertPaidBookings(handle.db, eventId, {
      count: bookingsCount,
      paidAt: new Date(now.getTime() - 24 * hour),
      quantity: 2,
    });
  } finally {
    await handle.close();
  }
}

/** Every booking has its reminder: one e-mail each, any second copy the same Message-ID. */
function expectOneReminderEach(smtp: TestSmtpServer, booked: PaidBooking[]) {
  for (const booking of booked) {
    const mails = smtp.sentTo(booking.email).filter((mail) => mail.subject?.startsWith("Reminder: Harvest Ceilidh"));
    expect(mails.length, booking.email).toBeGreaterThanOrEqual(1);
    expect(new Set(mails.map((mail) => mail.messageId)).size, booking.email).toBe(1);
  }
  const ids = new Set(smtp.received.map((mail) => mail.messageId));
  expect(ids.size).toBe(bookingsCount);
}

test("embedded: killed half way through 300 reminders and restarted, every booking has its reminder once", async () => {
  test.setTimeout(120_000);
  const smtp = await new TestSmtpServer().start();
  const dataDir = await newSiteDataDir();
  const env = { DATA_DIR: dataDir, SMTP_URL: smtp.url };
  let site: RunningSite | undefined;
  try {
    const booked = await seed({ dataDir });
    site = await startSiteProcess(env);
    await expect.poll(() => smtp.received.length, { timeout: 60_000, intervals: [50] }).toBeGreaterThanOrEqual(150);
    await kill(site);
    const beforeKill = new Set(smtp.received.map((mail) => mail.messageId)).size;
    expect(beforeKill).toBeLessThan(bookingsCount);

    site = await startSiteProcess(env);
    await expect
      .poll(() => new Set(smtp.received.map((mail) => mail.messageId)).size, { timeout: 60_000 })
      .toBe(bookingsCount);
    expectOneReminderEach(smtp, booked);
  } finally {
    await site?.stop();
    await smtp.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});

test("PostgreSQL, two processes: one killed half way through 300 reminders, every booking has its reminder once", async () => {
  test.skip(!process.env.TEST_DATABASE_URL, "TEST_DATABASE_URL is not set");
  test.setTimeout(120_000);
  const database = await createPostgresDatabase({ migrated: true });
  const smtp = await new TestSmtpServer().start();
  const dirs = [await newSiteDataDir(), await newSiteDataDir()];
  const env = (i: number) => ({ DATA_DIR: dirs[i]!, DATABASE_URL: database.url, SMTP_URL: smtp.url });
  const sites: RunningSite[] = [];
  try {
    const booked = await seed({ url: database.url });
    sites.push(await startSiteProcess(env(0)), await startSiteProcess(env(1)));
    await expect.poll(() => smtp.received.length, { timeout: 60_000, intervals: [50] }).toBeGreaterThanOrEqual(150);
    await kill(sites[0]!);
    // The other goes on alone; the e-mail the killed one had claimed waits out its two-minute
    // lease. The first is started again with its clock three minutes on, as if it came back
    // after the lease had run out, so this test need not wait for it.
    sites[0] = await startSiteAt(new Date(Date.now() + 3 * 60_000), env(0));
    await expect
      .poll(() => new Set(smtp.received.map((mail) => mail.messageId)).size, { timeout: 60_000 })
      .toBe(bookingsCount);
    expectOneReminderEach(smtp, booked);
  } finally {
    for (const site of sites) await site.stop();
    await smtp.stop();
    await database.drop();
    for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
  }
});
