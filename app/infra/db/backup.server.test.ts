import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { eq, getTableName, is, sql } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "~/infra/db/database.server";
import { readRendition, uploadPicture } from "~/infra/images/uploads.server";
import type { OfflineProvider } from "~/infra/payments/offline.server";
import { londonDay } from "~/lib/london-time";
import { startBooking } from "~/features/booking/checkout.server";
import { refundBooking } from "~/features/booking/refunds.server";
import { settleBooking } from "~/features/booking/settlement.server";
import { resendReceipt } from "~/features/booking/staff-bookings.server";
import { settleDonation, startDonation } from "~/features/donations/donations.server";
import { markClaimed } from "~/features/donations/gift-aid-claims.server";
import { recordCheckIns } from "~/features/door/door.server";
import { hashPassword } from "~/features/staff/passwords.server";
import { signIn } from "~/features/staff/sign-in.server";
import { authenticate, createStaffUser } from "~/features/staff/staff.server";
import { listVolunteers, signUpVolunteer } from "~/features/volunteers/volunteers.server";
import * as schema from "~db/schema";
import { testClock, type TestClock } from "../../../tests/support/clock";
import { readContent } from "../../../tests/support/content";
import { engines, freshDatabase, insertEvent, unmigratedDatabase, type Engine } from "../../../tests/support/databases";
import { testServices, type TestServices } from "../../../tests/support/services";
import type { Services } from "../../../server/services";
import { BackupFileError } from "./backup-file.server";
import { makeBackup, tableChecksums } from "./backup.server";
import { committedMigrations, migrationsUpTo } from "./migrations.server";
import { RestoreRefusedError, restoreBackup } from "./restore.server";

const card = { number: "4242 4242 4242 4242", expiry: "12/34", cvc: "123" };
const staffPassword = "a long staff password";
const from = { clientAddress: "203.0.113.7", cookieHeader: null };

/** A picture with some detail in it, as staff would upload one. */
function poster(width: number, height: number) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g"><stop offset="0" stop-color="#1f5130"/><stop offset="1" stop-color="#f2b33d"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    ${Array.from({ length: 8 }, (_, i) => `<rect x="${(i * width) / 8}" y="0" width="${width / 30}" height="${height}" fill="#a85a12"/>`).join("")}
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

let folder: string;
beforeEach(async () => {
  folder = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-backup-test-"));
});
afterEach(async () => {
  await fs.rm(folder, { recursive: true, force: true });
});

/** The databases a test opened with `open`, closed after it. */
const opened: DatabaseHandle[] = [];
afterEach(async () => {
  for (const database of opened.splice(0)) await database.close();
});
async function open(database: Promise<DatabaseHandle>): Promise<DatabaseHandle> {
  const handle = await database;
  opened.push(handle);
  return handle;
}

/** What the filled site holds that the checks after a restore look for. */
interface FilledSite {
  staff: { id: string; email: string };
  eventId: string;
  paidRef: string;
  imageId: string;
}

/** A bookings' buyer: startBooking, the offline card, then settling, as the card form and its return page do. */
async function buy(deps: Services, eventId: string, quantity: number, who: string): Promise<string> {
  const started = await startBooking(deps, {
    eventId,
    // Names are letters: "during-12" books as "Buyer during bc".
    name: `Buyer ${who.replace(/-/g, " ").replace(/\d/g, (digit) => "abcdefghij"[Number(digit)]!)}`,
    email: `buyer-${who}@example.org`,
    quantity,
  });
  const { error } = await (deps.payments as OfflineProvider).confirmCard(started.clientSecret, card);
  expect(error).toBeUndefined();
  expect((await settleBooking(deps, started.bookingRef)).outcome).toBe("paid");
  return started.bookingRef;
}

/**
 * A site with something in every kind of table, each made by the feature that makes it: staff,
 * an uploaded poster, an event, paid bookings and their tickets, a refund, check-ins, donations
 * with Gift Aid and a claim, volunteers, a published page version and a draft, a session.
 */
async function fillSite(deps: Services, clock: TestClock): Promise<FilledSite> {
  const now = clock.now();
  const staff = await createStaffUser(deps.db, "trustee@example.org", staffPassword, now);
  await createStaffUser(deps.db, "door@example.org", "another long password", now);
  const { image } = await uploadPicture(deps.db, await poster(400, 300), {
    originalName: "quiz-night.png",
    uploadedBy: staff.id,
    now,
  });
  const eventId = await insertEvent(deps.db, { totalAvailableTickets: 400, posterImage: image }, now);

  const paidRef = await buy(deps, eventId, 3, "amina");
  const refunded = await buy(deps, eventId, 4, "baraka");
  const checkedIn = await buy(deps, eventId, 2, "chausiku");
  for (let i = 0; i < 5; i++) await buy(deps, eventId, 1, `early-${i}`);
  await refundBooking(deps, staff, refunded, { quantity: 1, reason: "One cannot come", key: crypto.randomUUID() });
  const results = await recordCheckIns(
    deps,
    staff,
    eventId,
    [{ id: crypto.randomUUID(), bookingRef: checkedIn, count: 2, device: "door-1", scannedAt: now.toISOString() }],
    now,
  );
  expect(results[0]!.outcome).toBe("checked-in");

  const donationIds: string[] = [];
  for (const [i, amount] of ["10.00", "25.50", "5.00"].entries()) {
    const started = await startDonation(deps, {
      amount,
      name: `Donor ${["Amani", "Baraka", "Chausiku"][i]}`,
      email: `donor-${i}@example.org`,
      giftAid: true,
      firstName: "Donor",
      surname: ["Mushi", "Otieno", "Wanjiru"][i]!,
      houseNameOrNumber: `${i + 1} Rose Cottages`,
      postcode: "M1 1AE",
      scope: "this-donation",
    });
    await (deps.payments as OfflineProvider).confirmCard(started.clientSecret, card);
    expect((await settleDonation(deps, started.donationId)).outcome).toBe("paid");
    donationIds.push(started.donationId);
  }
  await markClaimed(deps, staff, { claimedOn: londonDay(now), donationIds: donationIds.slice(0, 2) }, now);

  for (const name of ["Neema", "Juma"]) {
    await signUpVolunteer(
      deps,
      { name, email: `${name.toLowerCase()}@example.org`, reason: "To help at the quiz" },
      "203.0.113.8",
    );
  }
  const volunteering = readContent("volunteering");
  expect((await deps.contentStore.publish("volunteering", { ...volunteering, formTitle: "Join us" }, staff)).ok).toBe(
    true,
  );
  await deps.contentStore.saveDraft("volunteering", { ...volunteering, formTitle: "Join us soon" }, staff);
  await signIn(deps, { email: staff.email, password: staffPassword }, from);
  return { staff, eventId, paidRef, imageId: image.replace("uploads/", "") };
}

async function count(database: DatabaseHandle, table: string, where = "true"): Promise<number> {
  const result = (await database.db.execute(
    sql.raw(`select count(*)::int as n from ${table} where ${where}`),
  )) as unknown as {
    rows: { n: number }[];
  };
  return result.rows[0]!.n;
}

// Either engine's backup restores onto either. The two crossings read every kind of table from each
// engine and write it into each, the whole site filled; a backup restored onto its own engine is
// the small one below, on each engine, and the embedded site's own in npm run restore's drill
// (scripts/backup.test.ts). A run on one engine restores that engine onto itself.
const pairs: [Engine, Engine][] =
  engines.length > 1
    ? engines.flatMap((source) =>
        engines.filter((target) => target !== source).map((target): [Engine, Engine] => [source, target]),
      )
    : engines.map((engine): [Engine, Engine] => [engine, engine]);

/** A small site's backup, in `dir`: a member of staff, an event and a volunteer. */
async function smallBackup(engine: Engine, dir: string, now: Date): Promise<string> {
  const source = await freshDatabase(engine);
  try {
    await createStaffUser(source.db, "trustee@example.org", staffPassword, now);
    await insertEvent(source.db, {}, now);
    await source.db
      .insert(schema.volunteers)
      .values({ name: "Neema", email: "neema@example.org", reason: "To help", createdAt: now });
    const file = path.join(dir, "small.backup.gz");
    await makeBackup(source, { file, now });
    return file;
  } finally {
    await source.close();
  }
}

describe.each(pairs)("a backup of a site on %s restored onto %s", (sourceEngine, targetEngine) => {
  let source: DatabaseHandle;
  let target: DatabaseHandle;
  let sourceSite: TestServices;
  let targetSite: TestServices | undefined;
  let clock: TestClock;

  beforeEach(async () => {
    clock = testClock("2026-11-22T10:00:00Z");
    source = await freshDatabase(sourceEngine);
    sourceSite = await testServices(source, clock);
    target = await unmigratedDatabase(targetEngine);
  });
  afterEach(async () => {
    await sourceSite.close();
    if (targetSite) await targetSite.close();
    else await target.close();
    targetSite = undefined;
  });

  it(
    "holds one snapshot taken while bookings are made, restores every row, and the site works on it",
    { timeout: 120_000 },
    async () => {
      const deps = await sourceSite.request();
      const site = await fillSite(deps, clock);

      // Bookings go on being made, through the booking feature, before, while and after the backup is taken.
      let stop = false;
      let failure: unknown;
      let madeDuring = 0;
      const booking = (async () => {
        for (let i = 0; !stop; i++) {
          await buy(deps, site.eventId, 1, `during-${i}`);
          madeDuring++;
          // On PGlite a booking can run from start to receipt without leaving the microtask queue:
          // let the timers below (and the backup) have their turn, as requests' sockets would.
          await new Promise((resolve) => setImmediate(resolve));
        }
      })().catch((error: unknown) => {
        failure = error;
      });
      while (madeDuring < 2 && !failure) await new Promise((resolve) => setTimeout(resolve, 5));
      const before = await count(source, "bookings");
      const file = path.join(folder, "site.backup.gz");
      const started = performance.now();
      const backup = await makeBackup(source, { file, now: clock.now() });
      const backupMs = performance.now() - started;
      const madeBefore = madeDuring;
      while (madeDuring < madeBefore + 2 && !failure) await new Promise((resolve) => setTimeout(resolve, 5));
      stop = true;
      await booking;
      if (failure) throw failure;
      const after = await count(source, "bookings");

      const manifest = backup.manifest;
      const rowsOf = (name: string) => manifest.tables.find((table) => table.name === name)!.rows;
      // The snapshot saw the bookings made before it began, and none of those made after it.
      expect(rowsOf("bookings")).toBeGreaterThanOrEqual(before);
      expect(after).toBeGreaterThan(rowsOf("bookings"));
      expect(manifest).toMatchObject({
        format: "kilele-backup",
        engine: sourceEngine,
        site: { name: "kilele-trust-website" },
        migration: { tag: committedMigrations().at(-1)!.tag },
        createdAt: "2026-11-22T10:00:00.000Z",
      });
      // Every table of the schema is in it, and every kind of thing the site keeps has rows.
      expect(manifest.tables.map((table) => table.name).sort()).toEqual(
        Object.values(schema)
          .filter((value) => is(value, PgTable))
          .map((table) => getTableName(table))
          .sort(),
      );
      for (const name of [
        "events",
        "bookings",
        "booking_history",
        "tickets",
        "refunds",
        "check_ins",
        "donations",
        "gift_aid_declarations",
        "gift_aid_claims",
        "volunteers",
        "staff_users",
        "staff_sessions",
        "uploaded_images",
        "uploaded_image_files",
        "content_versions",
        "content_drafts",
        "outbox",
        "audit_log",
        "offline_payments",
        "offline_refunds",
        "site_secrets",
      ]) {
        expect(rowsOf(name), name).toBeGreaterThan(0);
      }

      const restoreStarted = performance.now();
      const report = await restoreBackup(target, file);
      const restoreMs = performance.now() - restoreStarted;
      expect(report.migratedFrom).toBe(manifest.migration.tag);
      expect(report.tables).toEqual(
        manifest.tables.map((table) => ({
          name: table.name,
          expectedRows: table.rows,
          rows: table.rows,
          checksumMatches: true,
        })),
      );
      expect(await tableChecksums(target.db, manifest.tables)).toEqual(
        manifest.tables.map(({ name, rows, sha256 }) => ({ name, rows, sha256 })),
      );
      // One snapshot: every paid booking has its ticket and its receipt, none is half there.
      const paid = await count(target, "bookings", "status in ('paid', 'refund_pending', 'refunded')");
      expect(await count(target, "tickets")).toBe(paid);
      expect(await count(target, "outbox", "kind = 'booking-receipt'")).toBe(paid);
      expect(paid).toBe(rowsOf("tickets"));
      console.info(
        `${sourceEngine} → ${targetEngine}: ${manifest.tables.reduce((sum, t) => sum + t.rows, 0)} rows, ` +
          `backup ${(backup.bytes / 1024).toFixed(0)} KB in ${backupMs.toFixed(0)} ms (${madeDuring} bookings made around it by the loop), ` +
          `restore in ${restoreMs.toFixed(0)} ms`,
      );

      // The restored site works: staff sign in, the poster is served, a receipt is sent again.
      targetSite = await testServices(target, clock);
      const restored = await targetSite.request();
      const { cookies } = await signIn(restored, { email: site.staff.email, password: staffPassword }, from);
      expect(cookies[0]).toMatch(/^kt_staff=/);
      const [rendition] = await source.db
        .select()
        .from(schema.uploadedImageFiles)
        .where(eq(schema.uploadedImageFiles.imageId, site.imageId))
        .limit(1);
      const served = await readRendition(
        restored.db,
        site.imageId,
        rendition!.width,
        rendition!.format as Parameters<typeof readRendition>[3],
      );
      expect(served?.equals(rendition!.bytes)).toBe(true);
      const { resendId } = await resendReceipt(restored, site.staff, site.paidRef);
      expect(await restored.outbox.deliver("receipt-sent-again", resendId)).toMatchObject({ ok: true });
      // New rows take new ids after the restored ones (identity sequences were moved on).
      const volunteering = readContent("volunteering");
      const published = await restored.contentStore.publish(
        "volunteering",
        { ...volunteering, formTitle: "Join us again" },
        site.staff,
      );
      expect(published.ok).toBe(true);
      expect(await buy(restored, site.eventId, 1, "after-restore")).toMatch(/^[0-9a-f-]{36}$/);
    },
  );
});

// What is wrong with a file is found before any database is touched, and what a file holds is read
// the same from either engine's backup: once, on the first engine this run tests.
describe("restoring a file that is damaged, changed or from a newer version", () => {
  const engine = engines[0]!;
  let clock: TestClock;
  beforeEach(() => {
    clock = testClock("2026-11-22T10:00:00Z");
  });

  async function rewrite(file: string, change: (text: string) => string): Promise<string> {
    const text = zlib.gunzipSync(await fs.readFile(file)).toString("utf8");
    const changed = path.join(folder, "changed.backup.gz");
    await fs.writeFile(changed, zlib.gzipSync(change(text)));
    return changed;
  }

  it("refuses a damaged or changed file before touching the target, naming what is wrong", async () => {
    const file = await smallBackup(engine, folder, clock.now());
    const target = await open(unmigratedDatabase(engine));
    const refusal = (name: string) =>
      restoreBackup(target, name).then(
        () => "restored",
        (error: Error) => error,
      );

    const bytes = await fs.readFile(file);
    const flipped = Buffer.from(bytes);
    flipped[Math.floor(bytes.length / 2)]! ^= 0xff;
    await fs.writeFile(path.join(folder, "flipped.backup.gz"), flipped);
    expect(await refusal(path.join(folder, "flipped.backup.gz"))).toBeInstanceOf(BackupFileError);

    await fs.writeFile(path.join(folder, "cut.backup.gz"), bytes.subarray(0, bytes.length - 20));
    expect(String(await refusal(path.join(folder, "cut.backup.gz")))).toContain("incomplete");

    const renamed = await rewrite(file, (text) => text.replace('"Neema"', '"Neemb"'));
    expect(String(await refusal(renamed))).toContain(
      "The rows of table volunteers do not match their checksum in the manifest",
    );

    // A row and its table's checksum in the manifest changed together: the whole file's checksum fails.
    const consistent = await rewrite(file, (text) => {
      const lines = text.split("\n");
      const manifest = JSON.parse(lines[0]!) as { tables: { name: string; sha256: string }[] };
      const start = lines.indexOf('{"table":"volunteers"}');
      lines[start + 1] = lines[start + 1]!.replace('"Neema"', '"Neemb"');
      manifest.tables.find((table) => table.name === "volunteers")!.sha256 = createHash("sha256")
        .update(`${lines[start + 1]}\n`)
        .digest("hex");
      lines[0] = JSON.stringify(manifest);
      return lines.join("\n");
    });
    expect(String(await refusal(consistent))).toMatch(/The checksum of .* is not the one written at its end/);

    expect(String(await refusal(path.join(folder, "missing.backup.gz")))).toContain("There is no file");
    // Nothing was done to the target.
    expect(await count(target, "pg_tables", "schemaname = 'public'")).toBe(0);
  });

  it("refuses a backup made at a migration this version does not have, saying it is from a newer version", async () => {
    // A database migrated by a later version of the site: today's migrations and one more.
    const future = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-future-migrations-"));
    try {
      await fs.cp(path.resolve("db/migrations"), future, { recursive: true });
      const journalFile = path.join(future, "meta", "_journal.json");
      const journal = JSON.parse(await fs.readFile(journalFile, "utf8")) as {
        entries: { idx: number; version: string; when: number; tag: string; breakpoints: boolean }[];
      };
      const last = journal.entries.at(-1)!;
      journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 60_000, tag: "0099_a_later_change" });
      await fs.writeFile(journalFile, JSON.stringify(journal));
      await fs.writeFile(
        path.join(future, "0099_a_later_change.sql"),
        'ALTER TABLE "volunteers" ADD COLUMN "later" text;',
      );
      const source = await open(unmigratedDatabase(engine, committedMigrations(future)));
      const file = path.join(folder, "newer.backup.gz");
      await makeBackup(source, { file, now: clock.now() });

      const target = await open(unmigratedDatabase(engine));
      const refused = await restoreBackup(target, file).catch((error: Error) => error);
      expect(refused).toBeInstanceOf(RestoreRefusedError);
      expect(String(refused)).toContain("This backup was made by a newer version of the site");
      expect(String(refused)).toContain(`its newest is ${last.tag}`);
    } finally {
      await fs.rm(future, { recursive: true, force: true });
    }
  });
});

describe.each(engines)("restoring on %s", (engine) => {
  let clock: TestClock;
  beforeEach(() => {
    clock = testClock("2026-11-22T10:00:00Z");
  });

  // One small backup for the file's tests, each restoring it into a database of its own.
  let file: string;
  let smallFolder: string;
  beforeAll(async () => {
    smallFolder = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-small-backup-"));
    file = await smallBackup(engine, smallFolder, new Date("2026-11-22T10:00:00Z"));
  });
  afterAll(async () => {
    await fs.rm(smallFolder, { recursive: true, force: true });
  });

  it("refuses a target with rows in it unless told to replace them", async () => {
    const target = await open(freshDatabase(engine));
    await createStaffUser(target.db, "someone@example.org", staffPassword, clock.now());
    const refused = await restoreBackup(target, file).catch((error: Error) => error);
    expect(refused).toBeInstanceOf(RestoreRefusedError);
    expect(String(refused)).toContain("The target database is not empty: it holds 1 row in 1 table (staff_users: 1)");
    expect(String(refused)).toContain("--replace");
    expect(await authenticate(target.db, "someone@example.org", staffPassword)).toBeDefined();

    const report = await restoreBackup(target, file, { replace: true });
    expect(report.tables.every((table) => table.checksumMatches)).toBe(true);
    expect(await authenticate(target.db, "someone@example.org", staffPassword)).toBeUndefined();
    expect(await authenticate(target.db, "trustee@example.org", staffPassword)).toBeDefined();
  });

  it("takes a migrated target with no rows in it as empty", async () => {
    const target = await open(freshDatabase(engine));
    const report = await restoreBackup(target, file);
    expect(report.tables.find((table) => table.name === "volunteers")).toMatchObject({
      rows: 1,
      checksumMatches: true,
    });
  });

  it("restores a backup made at an earlier migration, then migrates it forward", { timeout: 60_000 }, async () => {
    const earlier = migrationsUpTo("0008_cards_on_receipts");
    {
      // A database as the site left it at migration 0008, with rows in tables that were there then.
      const source = await open(unmigratedDatabase(engine, earlier));
      // Written as that site wrote it: today's code would name columns that came later.
      await source.db.execute(
        sql`INSERT INTO staff_users (email, password_hash, created_at) VALUES ('trustee@example.org', ${await hashPassword(staffPassword)}, ${clock.now().toISOString()})`,
      );
      const at = clock.now().toISOString();
      await source.db.execute(
        sql`INSERT INTO events (name, description, poster_image, event_date, location, ticket_cost_pence, total_available_tickets, ticket_sale_expiry, created_at, updated_at)
            VALUES ('Harvest Supper', 'A supper.', 'pages/quiz-night', ${at}, 'Village hall', 1250, 50, ${at}, ${at}, ${at})`,
      );
      await source.db
        .insert(schema.volunteers)
        .values({ name: "Neema", email: "neema@example.org", reason: "To help", createdAt: clock.now() });
      const file = path.join(folder, "earlier.backup.gz");
      const { manifest } = await makeBackup(source, { file, now: clock.now() });
      expect(manifest.migration.tag).toBe("0008_cards_on_receipts");
      expect(manifest.tables.map((table) => table.name)).not.toContain("content_versions");

      const other: Engine = engines.find((candidate) => candidate !== engine) ?? engine;
      const target = await open(unmigratedDatabase(other));
      const report = await restoreBackup(target, file);
      expect(report).toMatchObject({
        migratedFrom: "0008_cards_on_receipts",
        migratedTo: committedMigrations().at(-1)!.tag,
      });
      expect(report.tables.every((table) => table.checksumMatches && table.rows === table.expectedRows)).toBe(true);
      // Readable by today's site.
      expect(await authenticate(target.db, "trustee@example.org", staffPassword)).toBeDefined();
      expect((await listVolunteers(target)).map((volunteer) => volunteer.name)).toEqual(["Neema"]);
      expect(await target.db.select({ name: schema.events.name }).from(schema.events)).toEqual([
        { name: "Harvest Supper" },
      ]);
      // Its one price became a type of ticket when the later migrations ran.
      expect(
        await target.db
          .select({ name: schema.ticketTypes.name, pricePence: schema.ticketTypes.pricePence })
          .from(schema.ticketTypes),
      ).toEqual([{ name: "Ticket", pricePence: 1250 }]);
      expect(await count(target, "content_versions")).toBe(0);
    }
  });

  it("refuses to back up a database the site has never migrated", async () => {
    const empty = await open(unmigratedDatabase(engine));
    await expect(makeBackup(empty, { file: path.join(folder, "x.backup.gz"), now: clock.now() })).rejects.toThrow(
      "nothing to back up",
    );
    expect(await fs.readdir(folder)).toEqual([]);
  });
});
