import { sql, type Placeholder } from "drizzle-orm";
// Exported by drizzle-orm/utils.js, which its types leave out: the order drizzle reads a select's
// columns back in, the same it writes them into the SQL.
// @ts-expect-error -- untyped export (drizzle-orm 0.45)
import { orderSelectedFields } from "drizzle-orm/utils";
import type { Queryable } from "./database.server";

// A select on the paths a paid order takes, its SQL built once (decision 099). Drizzle builds a
// query's SQL every time it runs it: for the settlement's reading of a booking with its event,
// tickets, gift and answers that is most of a millisecond of the site's CPU, about as much as the
// driver, the socket and PostgreSQL together spend running it. Here the query is written once with
// placeholders (`slot("name")`) for what changes, turned into SQL on its first use, and run after
// that with the values given, through the session of whichever database or transaction is given,
// so it runs inside a transaction as well. Its rows are read back by drizzle's own mapping.

/** Where a value goes in a query built once: filled in from `values` each time it runs. */
export const slot = (name: string): Placeholder<string, unknown> => sql.placeholder(name);

/** What drizzle keeps of a select to run it: the parts of its `_prepare` that do not change. */
interface Built {
  query: { sql: string; params: unknown[] };
  fields: unknown[];
  joinsNotNullableMap: unknown;
  tables: string[];
}

/** The parts of drizzle's select builder and session this reads (drizzle-orm 0.45). */
interface SelectInternals {
  dialect: { sqlToQuery(sql: unknown): { sql: string; params: unknown[] } };
  getSQL(): unknown;
  config: { fields: Record<string, unknown> };
  joinsNotNullableMap: unknown;
  usedTables: Set<string>;
}
interface SessionInternals {
  prepareQuery(
    query: Built["query"],
    fields: unknown[],
    name: undefined,
    isResponseInArrayMode: boolean,
    customResultMapper: undefined,
    queryMetadata: { type: "select"; tables: string[] },
  ): { joinsNotNullableMap: unknown; execute(values: Record<string, unknown>): Promise<unknown> };
}

/**
 * A select whose SQL is built on its first run and reused: `make` writes it on the database or
 * transaction given, with `slot(name)` for each value that changes; the function returned runs it
 * on any database or transaction with those values, and answers its rows as the select would.
 */
export function selectBuiltOnce<Q extends PromiseLike<unknown>>(
  make: (db: Queryable) => Q,
): (db: Queryable, values: Record<string, unknown>) => Promise<Awaited<Q>> {
  let built: Built | undefined;
  return (db, values) => {
    if (!built) {
      const query = make(db) as unknown as SelectInternals;
      built = {
        query: query.dialect.sqlToQuery(query.getSQL()),
        fields: orderSelectedFields(query.config.fields) as unknown[],
        joinsNotNullableMap: query.joinsNotNullableMap,
        tables: [...query.usedTables],
      };
    }
    const session = (db as unknown as { session: SessionInternals }).session;
    const prepared = session.prepareQuery(built.query, built.fields, undefined, true, undefined, {
      type: "select",
      tables: built.tables,
    });
    prepared.joinsNotNullableMap = built.joinsNotNullableMap;
    return prepared.execute(values) as Promise<Awaited<Q>>;
  };
}
