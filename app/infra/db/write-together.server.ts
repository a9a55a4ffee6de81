import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Queryable } from "./database.server";

/**
 * Writes sent to the database as one statement, one round trip instead of one each (decision 043):
 * each write a data-modifying `WITH` part, then `last` (the notice of the change, say). PostgreSQL
 * runs every part exactly once and all from the statement's one snapshot, so a part must not need
 * to read what another writes; foreign keys between them are checked at the statement's end, when
 * all of them are there.
 */
export async function writeTogether(db: Queryable, writes: SQLWrapper[], last: SQL): Promise<void> {
  // Drizzle writes a query given inside another in brackets, as `WITH name AS (…)` wants it.
  const parts = writes.map((write, i) => sql`${sql.identifier(`write_${i}`)} as ${write}`);
  await db.execute(sql`with ${sql.join(parts, sql`, `)} ${last}`);
}
