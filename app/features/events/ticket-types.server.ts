import { and, asc, eq, inArray } from "drizzle-orm";
import type { Queryable } from "~/infra/db/database.server";
import { seatsByEvent, seatsOf, takenByType } from "~/infra/db/seats.server";
import { rulesOf, typesOfEvent, type TicketTypeRow } from "~/infra/db/ticket-types.server";
import type { FieldErrors } from "~/lib/errors";
import { formatPounds } from "~/lib/money";
import { typeStanding } from "~/lib/ticket-types";
import { bookingItems, ticketTypes } from "~db/schema";
import type { StaffTicketType, TicketTypeInput } from "./schema";

// Staff editing an event's ticket types (decision 080): the staff API's `ticketTypes` and the
// staff form both come here. The event's row is locked by the caller (updateEvent), the lock every
// checkout takes before it counts and holds, so a type is never deleted under a sale in flight.

/** Every event's types as staff see them (or one event's), with what is sold, held and left, by event id. */
export async function staffTypesByEvent(
  db: Queryable,
  now: Date,
  eventId?: string,
): Promise<Record<string, StaffTicketType[]>> {
  const [rows, taken, seats, booked] = await Promise.all([
    eventId
      ? typesOfEvent(db, eventId)
      : db
          .select()
          .from(ticketTypes)
          .orderBy(
            asc(ticketTypes.eventId),
            asc(ticketTypes.position),
            asc(ticketTypes.createdAt),
            asc(ticketTypes.id),
          ),
    takenByType(db, eventId, now),
    eventId ? seatsOf(db, eventId, now).then((seat) => ({ [eventId]: seat })) : seatsByEvent(db, now),
    bookedTypes(db, eventId),
  ]);
  const byEvent: Record<string, StaffTicketType[]> = {};
  for (const row of rows) {
    const seat = seats[row.eventId];
    const seatsLeft = seat ? seat.total - seat.sold - seat.held : 0;
    (byEvent[row.eventId] ??= []).push(
      staffType(row, taken.get(row.id) ?? { sold: 0, held: 0 }, seatsLeft, booked.has(row.id), now),
    );
  }
  return byEvent;
}

/** One event's types as staff see them, in order. */
export async function staffTypesOf(db: Queryable, eventId: string, now: Date): Promise<StaffTicketType[]> {
  return (await staffTypesByEvent(db, now, eventId))[eventId] ?? [];
}

function staffType(
  row: TicketTypeRow,
  taken: { sold: number; held: number },
  seatsLeft: number,
  booked: boolean,
  now: Date,
): StaffTicketType {
  const rules = rulesOf(row);
  const standing = typeStanding(rules, taken, seatsLeft, now);
  // Before its sale opens, what would be left if it opened now; nothing once it is off sale or over.
  const left =
    standing.status === "off-sale" || standing.status === "ended"
      ? null
      : standing.status === "not-yet"
        ? typeStanding({ ...rules, saleFrom: null }, taken, seatsLeft, now).left
        : standing.left;
  return {
    id: row.id,
    name: row.name,
    price: row.pricePence / 100,
    pricePence: row.pricePence,
    seatsPerTicket: row.seatsPerTicket,
    cap: row.cap,
    saleFrom: row.saleFrom?.toISOString() ?? null,
    saleUntil: row.saleUntil?.toISOString() ?? null,
    hidden: row.hidden,
    offSale: row.offSaleAt !== null,
    offSaleAt: row.offSaleAt?.toISOString() ?? null,
    closedAt: row.closedAt?.toISOString() ?? null,
    position: row.position,
    sold: taken.sold,
    held: taken.held,
    left,
    status: standing.status,
    booked,
  };
}

/** The types (of one event, or of all) that any booking ever held tickets of: they can never be deleted. */
async function bookedTypes(db: Queryable, eventId?: string): Promise<Set<string>> {
  const rows = await db
    .selectDistinct({ id: bookingItems.ticketTypeId })
    .from(bookingItems)
    .innerJoin(ticketTypes, eq(ticketTypes.id, bookingItems.ticketTypeId))
    .where(eventId ? eq(ticketTypes.eventId, eventId) : undefined);
  return new Set(rows.map((row) => row.id));
}

/** A type's stored fields that staff set. */
type TypeFields = Pick<
  TicketTypeRow,
  "name" | "pricePence" | "seatsPerTicket" | "cap" | "saleFrom" | "saleUntil" | "hidden" | "offSaleAt" | "position"
>;

/** What saving an event's prices and types will do, checked before anything is written. */
export interface TypePlan {
  /** What is wrong, by field (`ticketTypes.2.cap`, `ticketTypes`, `ticketCost`): nothing is written if any. */
  problems: FieldErrors;
  /** The event's `ticket_cost_pence` from now on (null: not sold on this site); undefined leaves it. */
  ticketCostPence?: number | null;
  /** Writes the types; what changed, in words for the audit log. */
  apply(db: Queryable, eventId: string, now: Date): Promise<string[]>;
}

const nothing = async () => [];

const ticketsWord = (n: number) => (n === 1 ? "ticket" : "tickets");
const quoted = (name: string) => `“${name}”`;
const sameTime = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

/**
 * Checks a staff member's prices for an event (`event` undefined: a new one) and plans their saving:
 * - without `ticketTypes`, `ticketCost` behaves as it always has: null stops sales on this site; a
 *   price gives an event with no types one named Ticket, and sets the price of an event's only type;
 *   an event with several types has its prices changed type by type;
 * - with `ticketTypes`, the list is the event's types, in order: one with an `id` is changed (what
 *   it leaves out is kept), one without is added, one left out is deleted, which only a type that
 *   was never booked can be. The event is then sold on this site unless `ticketCost` is null, and
 *   needs at least one type for that.
 */
export async function planTicketTypes(
  db: Queryable,
  event: { id: string; ticketCostPence: number | null } | undefined,
  changes: { ticketCost?: number | null; ticketTypes?: TicketTypeInput[] },
  now: Date,
): Promise<TypePlan> {
  const existing = event ? await typesOfEvent(db, event.id) : [];
  const { ticketCost, ticketTypes: list } = changes;
  if (list === undefined) return priceOnly(event, existing, ticketCost);

  const problems: FieldErrors = {};
  const [taken, booked] = event
    ? await Promise.all([takenByType(db, event.id, now), bookedTypes(db, event.id)])
    : [new Map<string, { sold: number; held: number }>(), new Set<string>()];
  const byId = new Map(existing.map((row) => [row.id, row]));
  const planned: { row?: TicketTypeRow; fields: TypeFields }[] = [];
  list.forEach((item, i) => {
    const at = (field: string) => `ticketTypes.${i}.${field}`;
    const row = item.id === undefined ? undefined : byId.get(item.id);
    if (item.id !== undefined && !row) {
      problems[at("id")] = event ? "is not a ticket type of this event" : "must be left out: the event is new";
      return;
    }
    const moment = (value: string | null | undefined, kept: Date | null) =>
      value === undefined ? kept : value === null ? null : new Date(value);
    const fields: TypeFields = {
      name: item.name ?? row?.name ?? "",
      pricePence: item.price ?? row?.pricePence ?? 0,
      seatsPerTicket: item.seatsPerTicket ?? row?.seatsPerTicket ?? 1,
      cap: item.cap !== undefined ? item.cap : (row?.cap ?? null),
      saleFrom: moment(item.saleFrom, row?.saleFrom ?? null),
      saleUntil: moment(item.saleUntil, row?.saleUntil ?? null),
      hidden: item.hidden ?? row?.hidden ?? false,
      // Taken off sale keeps the moment it first was; put back on sale clears it.
      offSaleAt: item.offSale === undefined ? (row?.offSaleAt ?? null) : item.offSale ? (row?.offSaleAt ?? now) : null,
      position: i,
    };
    if (fields.saleFrom && fields.saleUntil && fields.saleFrom >= fields.saleUntil) {
      problems[at("saleUntil")] = "must be after the time it goes on sale";
    }
    const sold = row ? (taken.get(row.id)?.sold ?? 0) : 0;
    if (fields.cap !== null && fields.cap < sold) {
      problems[at("cap")] =
        `must be at least ${sold}: ${sold} ${ticketsWord(sold)} of this type ${sold === 1 ? "is" : "are"} already sold`;
    }
    // A name kept from the stored type must still differ from the others (the schema checks those given).
    const clash = planned.find(
      (other) => other.fields.name.toLocaleLowerCase("en-GB") === fields.name.toLocaleLowerCase("en-GB"),
    );
    if (clash) problems[at("name")] ??= "must differ from the other ticket types' names";
    planned.push({ row, fields });
  });

  const kept = new Set(planned.flatMap(({ row }) => (row ? [row.id] : [])));
  const deleted = existing.filter((row) => !kept.has(row.id));
  const stuck = deleted.filter((row) => booked.has(row.id));
  if (stuck.length > 0) {
    problems.ticketTypes = `must keep ${stuck.map((row) => quoted(row.name)).join(" and ")}: ${
      stuck.length === 1 ? "it has" : "they have"
    } bookings, so ${stuck.length === 1 ? "it" : "they"} can only be taken off sale, not deleted`;
  }
  const soldHere = ticketCost !== null;
  if (soldHere && list.length === 0) {
    problems.ticketTypes ??= "must have at least one type while tickets are sold on this site";
  }

  return {
    problems,
    ticketCostPence: soldHere ? lowestPrice(planned.map(({ fields }) => fields)) : null,
    async apply(tx, eventId, at) {
      const words: string[] = [];
      if (deleted.length > 0) {
        await tx.delete(ticketTypes).where(
          and(
            eq(ticketTypes.eventId, eventId),
            inArray(
              ticketTypes.id,
              deleted.map((row) => row.id),
            ),
          ),
        );
        words.push(...deleted.map((row) => `deleted ${quoted(row.name)}`));
      }
      const added = planned.filter(({ row }) => !row).map(({ fields }) => fields);
      if (added.length > 0) {
        await tx
          .insert(ticketTypes)
          .values(added.map((fields) => ({ ...fields, eventId, createdAt: at, updatedAt: at })));
        words.push(...added.map((fields) => `added ${quoted(fields.name)} at ${formatPounds(fields.pricePence)}`));
      }
      let moved = false;
      for (const { row, fields } of planned) {
        if (!row) continue;
        const change = typeChangeWords(row, fields);
        if (change === null) continue;
        await tx
          .update(ticketTypes)
          .set({ ...fields, updatedAt: at })
          .where(eq(ticketTypes.id, row.id));
        if (change) words.push(change);
        moved ||= row.position !== fields.position;
      }
      if (moved && deleted.length === 0 && added.length === 0) words.push("order changed");
      return words;
    },
  };
}

/** The plan of a `ticketCost` without `ticketTypes`: the price of an event with at most one type. */
function priceOnly(
  event: { id: string; ticketCostPence: number | null } | undefined,
  existing: TicketTypeRow[],
  ticketCost: number | null | undefined,
): TypePlan {
  if (ticketCost === undefined) return { problems: {}, apply: nothing };
  if (ticketCost === null) return { problems: {}, ticketCostPence: null, apply: nothing };
  if (existing.length === 0) {
    return {
      problems: {},
      ticketCostPence: ticketCost,
      async apply(tx, eventId, at) {
        await tx.insert(ticketTypes).values({
          eventId,
          name: "Ticket",
          pricePence: ticketCost,
          seatsPerTicket: 1,
          position: 0,
          createdAt: at,
          updatedAt: at,
        });
        return [`added “Ticket” at ${formatPounds(ticketCost)}`];
      },
    };
  }
  const [only] = existing;
  if (existing.length === 1 && only) {
    return {
      problems: {},
      ticketCostPence: ticketCost,
      async apply(tx, _eventId, at) {
        if (only.pricePence === ticketCost) return [];
        await tx.update(ticketTypes).set({ pricePence: ticketCost, updatedAt: at }).where(eq(ticketTypes.id, only.id));
        return [`${quoted(only.name)} price ${formatPounds(only.pricePence)} → ${formatPounds(ticketCost)}`];
      },
    };
  }
  // The same price sent back (a whole event read and written again) changes nothing.
  if (event?.ticketCostPence === ticketCost) return { problems: {}, apply: nothing };
  return {
    problems: {
      ticketCost: `cannot be set on an event with ${existing.length} ticket types: change each type's price (ticketTypes)`,
    },
    apply: nothing,
  };
}

/** The price an event shows for its types: the lowest of those neither hidden nor off sale, else the lowest of all. */
function lowestPrice(types: Pick<TypeFields, "pricePence" | "hidden" | "offSaleAt">[]): number | null {
  const visible = types.filter((type) => !type.hidden && type.offSaleAt === null);
  const prices = (visible.length > 0 ? visible : types).map((type) => type.pricePence);
  return prices.length > 0 ? Math.min(...prices) : null;
}

/** What changed in a type, in words ("“Adult”: price £10.00 → £12.50, taken off sale"); "" for its place alone; null for nothing. */
function typeChangeWords(row: TicketTypeRow, next: TypeFields): string | null {
  const words: string[] = [];
  if (row.name !== next.name) words.push(`renamed ${quoted(next.name)}`);
  if (row.pricePence !== next.pricePence) {
    words.push(`price ${formatPounds(row.pricePence)} → ${formatPounds(next.pricePence)}`);
  }
  if (row.seatsPerTicket !== next.seatsPerTicket) {
    words.push(`seats per ticket ${row.seatsPerTicket} → ${next.seatsPerTicket}`);
  }
  if (row.cap !== next.cap) words.push(`tickets of this type ${row.cap ?? "no limit"} → ${next.cap ?? "no limit"}`);
  if (!sameTime(row.saleFrom, next.saleFrom) || !sameTime(row.saleUntil, next.saleUntil))
    words.push("sale dates changed");
  if (row.hidden !== next.hidden) words.push(next.hidden ? "hidden" : "shown");
  if ((row.offSaleAt === null) !== (next.offSaleAt === null)) {
    words.push(next.offSaleAt ? "taken off sale" : "put back on sale");
  }
  if (words.length > 0) return `${quoted(row.name)}: ${words.join(", ")}`;
  return row.position !== next.position ? "" : null;
}
