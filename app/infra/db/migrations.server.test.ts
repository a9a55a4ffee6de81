import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { getTableName, is, sql } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import type { PGlite } from "@electric-sql/pglite";
import * as schema from "~db/schema";
import { staffBooking } from "~/features/booking/staff-bookings.server";
import { listDonations } from "~/features/donations/donations.server";
import { pastClaims } from "~/features/donations/gift-aid-claims.server";
import { doorList } from "~/features/door/door.server";
import { emailsPage } from "~/features/emails/emails.server";
import { availabilityByEvent, listEvents } from "~/features/events/events.server";
import { findPersonData } from "~/features/people/people.server";
import { hashPassword } from "~/features/staff/passwords.server";
import { authenticate, tokenHash, userForSession } from "~/features/staff/staff.server";
import { listVolunteers } from "~/features/volunteers/volunteers.server";
import { createPostgresDatabase, emptyPgliteDump, engines, type Engine } from "../../../tests/support/databases";
import { openDatabase, type Database, type DatabaseOptions } from "./database.server";
import { applyMigrations, committedMigrations, MigrationError, type Migration } from "./migrations.server";

// Upgrades cannot lose data (docs/decisions/065-health-and-safe-migrations.md): a database made
// by an earlier version, with a row in every table it had, comes through today's migrations with
// every row as it was and readable by the site; and a migration that fails is undone and named.

const committed = committedMigrations();
/** The version the upgrade starts from: migrations 0000 to 0008. */
const earlier = committed.slice(0, committed.findIndex((migration) => migration.tag.startsWith("0008_")) + 1);

type Rows = Record<string, unknown>[];
const rowsOf = async (db: Database, query: ReturnType<typeof sql>) =>
  ((await db.execute(query)) as unknown as { rows: Rows }).rows;

/**
 * A database on `engine` migrated with `migrations` (`first`), and `open()`, which opens it again as
 * the site would start on it: the same PostgreSQL database, or (PGlite in memory) a copy of it as it
 * is now, loaded afresh.
 */
async function databaseAt(engine: Engine, migrations: Migration[]) {
  if (engine === "pglite") {
    // From PGlite's empty database, dumped once (tests/support/databases.ts), not its initdb again.
    const first = await openDatabase({ dataDir: "memory", migrations, startFrom: await emptyPgliteDump() });
    return {
      first,
      async open(options: Pick<DatabaseOptions, "migrations"> = {}) {
        const dump = await (first.db as unknown as { $client: PGlite }).$client.dumpDataDir("none");
        return openDatabase({ dataDir: "memory", startFrom: dump, ...options });
      },
      drop: () => first.close(),
    };
  }
  const { url, drop } = await createPostgresDatabase();
  const first = await openDatabase({ url, migrations });
  return {
    first,
    open: (options: Pick<DatabaseOptions, "migrations"> = {}) => openDatabase({ url, ...options }),
    async drop() {
      await first.close();
      await drop();
    },
  };
}

const ids = {
  staff: "5a1e0000-0000-4000-8000-000000000001",
  event: "e0e00000-0000-4000-8000-000000000001",
  paidBooking: "b0000000-0000-4000-8000-000000000001",
  heldBooking: "b0000000-0000-4000-8000-000000000002",
  ticket: "70000000-0000-4000-8000-000000000001",
  checkIn: "c0000000-0000-4000-8000-000000000001",
  refund: "7e000000-0000-4000-8000-000000000001",
  donation: "d0000000-0000-4000-8000-000000000001",
  declaration: "9a000000-0000-4000-8000-000000000001",
  claim: "9c000000-0000-4000-8000-000000000001",
  volunteer: "70100000-0000-4000-8000-000000000001",
  email: "0b000000-0000-4000-8000-000000000001",
  picture: "1a000000-0000-4000-8000-000000000001",
  audit: "a0000000-0000-4000-8000-000000000001",
};
const password = "a long staff password";
const sessionToken = "a staff member's session token";

/** A row in every table migration 0008 leaves, as that version of the site wrote them. */
async function fillAsAt0008(db: Database) {
  const passwordHash = await hashPassword(password);
  await db.execute(sql`
    INSERT INTO staff_users (id, email, password_hash, created_at, last_sign_in_at)
    VALUES (${ids.staff}, 'amina@example.org', ${passwordHash}, '2026-01-05T09:00:00Z', '2026-03-01T09:00:00Z')`);
  await db.execute(sql`
    INSERT INTO staff_sessions (token_hash, user_id, created_at, expires_at)
    VALUES (${tokenHash(sessionToken)}, ${ids.staff}, '2026-03-01T09:00:00Z', '2099-01-01T00:00:00Z')`);
  await db.execute(sql`
    INSERT INTO staff_invitations (token_hash, email, invited_by_email, created_at, expires_at)
    VALUES (${tokenHash("an invitation")}, 'joseph@example.org', 'amina@example.org', '2026-03-02T10:00:00Z', '2026-03-09T10:00:00Z')`);
  await db.execute(sql`
    INSERT INTO volunteers (id, name, email, reason, created_at)
    VALUES (${ids.volunteer}, 'Grace Wanjiru', 'grace@example.org', 'To help at the summer fair.', '2026-02-10T18:30:00Z')`);
  await db.execute(sql`
    INSERT INTO events (id, name, description, poster_image, event_date, location, ticket_cost_pence,
      total_available_tickets, ticket_sale_expiry, is_test, link, testimonial, gallery, created_at, updated_at)
    VALUES (${ids.event}, 'Quiz Night', 'Eight rounds and a supper.', 'pages/quiz-night', '2026-04-18T18:30:00Z',
      'Village hall', 1250, 60, '2026-04-17T23:00:00Z', false, null,
      ${JSON.stringify({ name: "Ruth", job: "Teacher", image: "pages/quiz-night", testimonial: "A wonderful evening." })},
      ${JSON.stringify([{ image: "pages/quiz-night", description: "Teams at the tables" }])},
      '2026-02-01T12:00:00Z', '2026-02-01T12:00:00Z')`);
  await db.execute(sql`
    INSERT INTO offline_payments (id, client_secret, amount_pence, currency, description, metadata, receipt_email,
      status, created_at, card_brand, card_last4)
    VALUES ('op_paid1', 'op_paid1_secret_abc', 2500, 'gbp', 'Quiz Night: 2 tickets',
      ${JSON.stringify({ booking_ref: ids.paidBooking })}, 'amina.k@example.org', 'succeeded',
      '2026-03-03T19:00:00Z', 'visa', '4242')`);
  await db.execute(sql`
    INSERT INTO bookings (booking_ref, event_id, holder_name, email, quantity, amount_pence, status, hold_expires_at,
      provider, provider_payment_id, created_at, paid_at, updated_at, refunded_pence, card_brand, card_last4)
    VALUES
      (${ids.paidBooking}, ${ids.event}, 'Amina Kariuki', 'amina.k@example.org', 2, 2500, 'paid', '2026-03-03T19:15:00Z',
        'offline', 'op_paid1', '2026-03-03T19:00:00Z', '2026-03-03T19:01:00Z', '2026-03-20T10:00:00Z', 1250, 'visa', '4242'),
      (${ids.heldBooking}, ${ids.event}, 'Peter Otieno', 'peter@example.org', 1, 1250, 'held', '2026-03-04T08:15:00Z',
        'offline', null, '2026-03-04T08:00:00Z', null, '2026-03-04T08:00:00Z', 0, null, null)`);
  await db.execute(sql`
    INSERT INTO booking_history (booking_ref, status, note, at)
    VALUES (${ids.paidBooking}, 'held', '', '2026-03-03T19:00:00Z'),
           (${ids.paidBooking}, 'paid', 'offline payment op_paid1', '2026-03-03T19:01:00Z')`);
  await db.execute(sql`
    INSERT INTO tickets (id, ticket_holder_name, email, event_id, booking_ref, is_valid, quantity, date_sold,
      checked_in_at, checked_in_count)
    VALUES (${ids.ticket}, 'Amina Kariuki', 'amina.k@example.org', ${ids.event}, ${ids.paidBooking}, true, 2,
      '2026-03-03T19:01:00Z', '2026-04-18T18:20:00Z', 1)`);
  await db.execute(sql`
    INSERT INTO check_ins (id, booking_ref, event_id, count, staff_user_id, staff_email, device, scanned_at,
      recorded_at, outcome)
    VALUES (${ids.checkIn}, ${ids.paidBooking}, ${ids.event}, 1, ${ids.staff}, 'amina@example.org', 'door-phone-1',
      '2026-04-18T18:20:00Z', '2026-04-18T18:20:01Z', 'checked-in')`);
  await db.execute(sql`
    INSERT INTO offline_refunds (id, idempotency_key, payment_id, amount_pence, created_at)
    VALUES ('ore_1', ${`refund:${ids.refund}`}, 'op_paid1', 1250, '2026-03-20T10:00:00Z')`);
  await db.execute(sql`
    INSERT INTO refunds (id, key, booking_ref, quantity, amount_pence, reason, status, provider_refund_id, attempts,
      staff_user_id, staff_email, created_at, completed_at)
    VALUES (${ids.refund}, ${`refund:${ids.refund}`}, ${ids.paidBooking}, 1, 1250, 'One guest could not come.',
      'succeeded', 'ore_1', 1, ${ids.staff}, 'amina@example.org', '2026-03-20T10:00:00Z', '2026-03-20T10:00:01Z')`);
  await db.execute(sql`
    INSERT INTO gift_aid_claims (id, claimed_on, donation_count, total_pence, staff_user_id, staff_email, created_at)
    VALUES (${ids.claim}, '2026-04-06', 1, 2000, ${ids.staff}, 'amina@example.org', '2026-04-06T11:00:00Z')`);
  await db.execute(sql`
    INSERT INTO donations (id, amount_pence, donor_name, email, status, provider, provider_payment_id, created_at,
      paid_at, updated_at, gift_aid_claim_id, card_brand, card_last4)
    VALUES (${ids.donation}, 2000, 'Ruth Njeri', 'ruth@example.org', 'paid', 'offline', 'op_gift1',
      '2026-03-05T12:00:00Z', '2026-03-05T12:01:00Z', '2026-04-06T11:00:00Z', ${ids.claim}, 'mastercard', '4444')`);
  await db.execute(sql`
    INSERT INTO gift_aid_declarations (id, donation_id, first_name, surname, house_name_or_number, postcode, scope,
      wording, declared_at)
    VALUES (${ids.declaration}, ${ids.donation}, 'Ruth', 'Njeri', '12', 'OX1 2AB', 'this-donation',
      'I am a UK taxpayer and understand that if I pay less Income Tax and/or Capital Gains Tax than the amount of Gift Aid claimed on all my donations in that tax year it is my responsibility to pay any difference.',
      '2026-03-05T12:00:00Z')`);
  await db.execute(sql`
    INSERT INTO outbox (id, kind, dedupe_key, recipient, payload, attempts, next_attempt_at, sent_at, created_at)
    VALUES (${ids.email}, 'booking-receipt', ${`booking-receipt:${ids.paidBooking}`}, 'amina.k@example.org',
      ${JSON.stringify({
        to: "Amina Kariuki <amina.k@example.org>",
        subject: "Your tickets for Quiz Night",
        text: "Thank you for booking.",
        html: "<p>Thank you for booking.</p>",
      })}, 1, '2026-03-03T19:01:00Z', '2026-03-03T19:01:05Z', '2026-03-03T19:01:00Z')`);
  await db.execute(sql`
    INSERT INTO processed_webhook_events (event_id, type, received_at)
    VALUES ('evt_1PaidQuizNight', 'payment_intent.succeeded', '2026-03-03T19:01:00Z')`);
  await db.execute(sql`
    INSERT INTO uploaded_images (id, width, height, original_name, uploaded_by, created_at)
    VALUES (${ids.picture}, 1200, 800, 'summer-fair.jpg', ${ids.staff}, '2026-02-20T15:00:00Z')`);
  await db.execute(sql`
    INSERT INTO uploaded_image_files (image_id, width, format, bytes)
    VALUES (${ids.picture}, 480, 'webp', decode('52494646000000005745425056503820', 'hex'))`);
  await db.execute(sql`
    INSERT INTO audit_log (id, at, staff_user_id, staff_email, action, subject, summary)
    VALUES (${ids.audit}, '2026-03-20T10:00:00Z', ${ids.staff}, 'amina@example.org', 'booking.refund',
      ${`booking:${ids.paidBooking}`}, 'Refunded 1 ticket (£12.50).')`);
  await db.execute(sql`
    INSERT INTO site_settings (key, value, updated_at, updated_by)
    VALUES ('office', '{"mode": "each", "to": "office@example.org"}', '2026-02-02T09:00:00Z', 'amina@example.org')`);
}

/** Every table of the site (not the migrations' record) and its rows, each as JSON. */
async function everyRow(db: Database): Promise<Record<string, Rows>> {
  const tables = await rowsOf(
    db,
    sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`,
  );
  const all: Record<string, Rows> = {};
  for (const { table_name } of tables) {
    const name = String(table_name);
    const rows = await rowsOf(db, sql.raw(`SELECT to_jsonb(t) AS "row" FROM "${name}" t`));
    all[name] = rows.map(({ row }) => (typeof row === "string" ? JSON.parse(row) : row) as Record<string, unknown>);
  }
  return all;
}

/** `rows` with only the columns `like` has, each as one JSON text, sorted: to compare sets of rows. */
function comparable(rows: Rows, like: Rows): string[] {
  const columns = Object.keys(like[0] ?? {}).sort();
  return rows.map((row) => JSON.stringify(columns.map((column) => [column, row[column]]))).sort();
}

describe.each(engines)("an upgrade on %s", (engine) => {
  const opened: { close(): Promise<void> }[] = [];
  const drops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const handle of opened.splice(0)) await handle.close().catch(() => undefined);
    for (const drop of drops.splice(0)) await drop();
  });

  it("from migration 0008, with a row in every table, keeps every row as it was and readable by the site", async () => {
    const at = await databaseAt(engine, earlier);
    drops.push(at.drop);
    expect(at.first.migrationsApplied).toEqual(earlier.map((migration) => migration.tag));
    await fillAsAt0008(at.first.db);
    const before = await everyRow(at.first.db);
    // Every table that version had holds something, so every table's upgrade is tested.
    expect(Object.keys(before).length).toBe(21);
    expect(Object.entries(before).filter(([, rows]) => rows.length === 0)).toEqual([]);

    const upgraded = await at.open();
    opened.push(upgraded);
    expect(upgraded.migrationsApplied).toEqual(committed.slice(earlier.length).map((migration) => migration.tag));
    const { db } = upgraded;

    // Every row is there, with every column it had unchanged.
    const after = await everyRow(db);
    for (const [table, rows] of Object.entries(before)) {
      expect(comparable(after[table] ?? [], rows), table).toEqual(comparable(rows, rows));
    }
    // Every table read through the site's schema as today's code reads it.
    const tables = (Object.values(schema) as unknown[]).filter((value): value is PgTable => is(value, PgTable));
    for (const table of tables) {
      const name = getTableName(table);
      if (!(name in before)) continue;
      expect((await db.select().from(table)).length, name).toBe(before[name]!.length);
    }

    // And through the site's own queries, as staff and visitors would see them.
    const now = new Date("2026-04-18T18:00:00Z");
    expect((await listEvents({ db })).map((event) => event.name)).toEqual(["Quiz Night"]);
    expect(Object.keys(await availabilityByEvent({ db }, now))).toEqual([ids.event]);
    const booking = await staffBooking({ db }, ids.paidBooking);
    expect(booking).toBeDefined();
    expect(JSON.stringify(booking)).toContain("Amina Kariuki");
    expect((await doorList({ db }, ids.event, now))?.tickets.length).toBe(1);
    const donationsList = await listDonations({ db });
    expect(donationsList).toHaveLength(1);
    expect(JSON.stringify(donationsList)).toContain("Ruth");
    expect((await pastClaims({ db })).length).toBe(1);
    expect((await listVolunteers({ db })).map((volunteer) => volunteer.name)).toEqual(["Grace Wanjiru"]);
    expect((await emailsPage({ db }, { page: 1 })).rows.map((email) => email.subject)).toEqual([
      "Your tickets for Quiz Night",
    ]);
    const person = await findPersonData({ db }, "amina.k@example.org");
    expect(JSON.stringify(person)).toContain(ids.paidBooking);
    expect(await authenticate(db, "amina@example.org", password)).toMatchObject({ id: ids.staff });
    expect(await userForSession(db, sessionToken, now)).toMatchObject({ id: ids.staff });
  });
});

describe.each(engines)("a failing migration on %s", (engine) => {
  const folders: string[] = [];
  const opened: { close(): Promise<void> }[] = [];
  const drops: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const handle of opened.splice(0)) await handle.close().catch(() => undefined);
    for (const drop of drops.splice(0)) await drop();
    for (const folder of folders.splice(0)) await fs.rm(folder, { recursive: true, force: true });
  });

  /** Today's migrations and two more: one that works, then one that fails half way. */
  async function withTwoMore(): Promise<Migration[]> {
    const folder = await fs.mkdtemp(path.join(os.tmpdir(), "kilele-migrations-"));
    folders.push(folder);
    await fs.cp(path.resolve("db/migrations"), folder, { recursive: true });
    const journalFile = path.join(folder, "meta", "_journal.json");
    const journal = JSON.parse(await fs.readFile(journalFile, "utf8")) as {
      entries: { idx: number; version: string; when: number; tag: string; breakpoints: boolean }[];
    };
    const last = journal.entries.at(-1)!;
    const more = [
      {
        tag: "9001_event_notes",
        sql: `ALTER TABLE "events" ADD COLUMN "notes" text;`,
      },
      {
        tag: "9002_half_done",
        sql: [
          `CREATE TABLE "reminders" ("id" uuid PRIMARY KEY NOT NULL, "event_id" uuid NOT NULL);`,
          `ALTER TABLE "volunteers" ADD COLUMN "phone" text;`,
          `UPDATE "volunteers" SET "name" = 'changed';`,
          `ALTER TABLE "no_such_table" ADD COLUMN "x" text;`,
        ].join("\n--> statement-breakpoint\n"),
      },
    ];
    for (const [i, migration] of more.entries()) {
      await fs.writeFile(path.join(folder, `${migration.tag}.sql`), migration.sql);
      journal.entries.push({ ...last, idx: last.idx + i + 1, when: last.when + 1000 * (i + 1), tag: migration.tag });
    }
    await fs.writeFile(journalFile, JSON.stringify(journal, null, 2));
    return committedMigrations(folder);
  }

  it("is undone, leaving the database as it was before it, and the error names its file", async () => {
    const at = await databaseAt(engine, committed);
    drops.push(at.drop);
    const { db } = at.first;
    await db.execute(sql`
      INSERT INTO volunteers (id, name, email, reason, created_at)
      VALUES (${ids.volunteer}, 'Grace Wanjiru', 'grace@example.org', 'To help.', '2026-02-10T18:30:00Z')`);
    const migrations = await withTwoMore();
    const namesTheFile =
      /^The migration \S*9002_half_done\.sql failed and was undone, so the database is as it was before it: .*no_such_table/;

    // Applied as the site applies them: 9001 is kept (it ran in its own transaction), 9002 is undone.
    const failure = await applyMigrations(db, migrations).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(MigrationError);
    expect((failure as MigrationError).file).toMatch(/9002_half_done\.sql$/);
    expect((failure as Error).message).toMatch(namesTheFile);
    const columns = async (table: string) =>
      (
        await rowsOf(db, sql`SELECT column_name FROM information_schema.columns WHERE table_name = ${table} ORDER BY 1`)
      ).map((row) => row.column_name);
    expect(await columns("events")).toContain("notes");
    expect(await columns("volunteers")).not.toContain("phone");
    expect(await columns("reminders")).toEqual([]);
    expect(await rowsOf(db, sql`SELECT name FROM volunteers`)).toEqual([{ name: "Grace Wanjiru" }]);
    const recorded = await rowsOf(db, sql`SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY id`);
    expect(recorded.map((row) => Number(row.created_at))).toEqual(
      migrations.slice(0, committed.length + 1).map((migration) => migration.when),
    );

    // Opening the database (the site's start, `npm run migrate`) refuses with the same words, and
    // changes nothing more.
    const opening = await at.open({ migrations }).then(
      (handle) => void opened.push(handle),
      (error: unknown) => error,
    );
    expect(opening).toBeInstanceOf(MigrationError);
    expect((opening as Error).message).toMatch(namesTheFile);
    expect(await columns("volunteers")).not.toContain("phone");
    expect(await rowsOf(db, sql`SELECT name FROM volunteers`)).toEqual([{ name: "Grace Wanjiru" }]);
  });
});
