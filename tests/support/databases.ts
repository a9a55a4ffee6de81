import crypto from "node:crypto";
import pg from "pg";
import { openDatabase, type DatabaseHandle, type Queryable } from "~/infra/db/database.server";
import { events } from "../../db/schema";

export type Engine = "pglite" | "postgres";

/** The engines this run tests the data layer on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export const engines: Engine[] = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

/**
 * A new, empty, migrated database for one test: an in-memory PGlite, or a freshly created
 * database on the PostgreSQL server (dropped again by close()).
 */
export async function freshDatabase(engine: Engine): Promise<DatabaseHandle> {
  if (engine === "pglite") return openDatabase({ dataDir: "memory" });
  const { url, drop } = await createPostgresDatabase();
  const handle = await openDatabase({ url });
  return {
    ...handle,
    async close() {
      await handle.close();
      await drop();
    },
  };
}

/** Creates an empty database on the TEST_DATABASE_URL server; returns its URL and how to drop it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error("TEST_DATABASE_URL is not set");
  const name = `kilele_test_${crypto.randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * An event on sale for nine more days from `now` (the test's clock, else the real time) at £12.50
 * a ticket, with whatever a test changes; its id.
 */
export async function insertEvent(
  db: Queryable,
  overrides: Partial<typeof events.$inferInsert> = {},
  now: Date = new Date(),
): Promise<string> {
  const day = 86_400_000;
  const [event] = await db
    .insert(events)
    .values({
      name: "Quiz Night",
      description: "Eight rounds and a supper.",
      posterImage: "pages/quiz-night",
      eventDate: new Date(now.getTime() + 10 * day),
      location: "Village hall",
      ticketCostPence: 1250,
      totalAvailableTickets: 50,
      ticketSaleExpiry: new Date(now.getTime() + 9 * day),
      createdAt: now,
      updatedAt: now,
      ...overrides,
    })
    .returning({ id: events.id });
  return event!.id;
}
